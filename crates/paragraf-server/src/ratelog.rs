//! Rate-limited logging of turned-away requests: under load every answer
//! beyond the queue is a 503, and one log line each (at ERROR, as the trace
//! layer's default wrote them) filled 450 KB in 20 s. A 503 is the server
//! working as designed, so it is logged at WARN, at most one line per
//! [`UNAVAILABLE_LOG_INTERVAL`], which counts the ones left out since.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Shortest time between two log lines about 503s.
pub const UNAVAILABLE_LOG_INTERVAL: Duration = Duration::from_secs(10);

/// Lets one event through per interval and counts the others.
#[derive(Debug)]
pub struct RateLimiter {
    interval: Duration,
    state: Mutex<LimiterState>,
}

#[derive(Debug, Default)]
struct LimiterState {
    last: Option<Instant>,
    suppressed: u64,
}

impl RateLimiter {
    /// At most one event per `interval`.
    pub fn new(interval: Duration) -> RateLimiter {
        RateLimiter {
            interval,
            state: Mutex::new(LimiterState::default()),
        }
    }

    /// An event at `now`: `Some(n)` when it is to be logged, `n` being the
    /// events suppressed since the last logged one; `None` to suppress it.
    pub fn check_at(&self, now: Instant) -> Option<u64> {
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let due = st
            .last
            .is_none_or(|t| now.saturating_duration_since(t) >= self.interval);
        if due {
            st.last = Some(now);
            Some(std::mem::take(&mut st.suppressed))
        } else {
            st.suppressed += 1;
            None
        }
    }

    /// [`RateLimiter::check_at`] now.
    pub fn check(&self) -> Option<u64> {
        self.check_at(Instant::now())
    }
}

/// Log a 5xx the trace layer classified as a failure: 503 at WARN through
/// `limiter`, every other server error at ERROR.
pub(crate) fn log_failure(
    limiter: &RateLimiter,
    status: Option<u16>,
    what: &str,
    latency: Duration,
) {
    let ms = latency.as_secs_f64() * 1000.0;
    if status == Some(503) {
        if let Some(suppressed) = limiter.check() {
            tracing::warn!(
                status = 503,
                latency_ms = ms,
                suppressed,
                "request turned away (503); {suppressed} more since the last such line"
            );
        }
    } else {
        tracing::error!(classification = %what, latency_ms = ms, "response failed");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_event_per_interval_with_the_count_of_the_rest() {
        let l = RateLimiter::new(Duration::from_secs(10));
        let t0 = Instant::now();
        assert_eq!(l.check_at(t0), Some(0), "the first is logged");
        for i in 1..=5 {
            assert_eq!(l.check_at(t0 + Duration::from_secs(i)), None);
        }
        // the next after the interval carries the five left out
        assert_eq!(l.check_at(t0 + Duration::from_secs(10)), Some(5));
        assert_eq!(l.check_at(t0 + Duration::from_secs(11)), None);
        assert_eq!(l.check_at(t0 + Duration::from_secs(25)), Some(1));
        // a clock that steps back never panics and logs nothing new
        assert_eq!(l.check_at(t0), None);
    }

    #[test]
    fn many_threads_log_once_per_interval() {
        let l = std::sync::Arc::new(RateLimiter::new(Duration::from_secs(3600)));
        let logged: u64 = (0..8)
            .map(|_| {
                let l = l.clone();
                std::thread::spawn(move || (0..100).filter(|_| l.check().is_some()).count() as u64)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|h| h.join().unwrap())
            .sum();
        assert_eq!(logged, 1, "800 events within an interval give one line");
    }
}
