//! The answer queue: one dedicated worker thread runs one generation at a
//! time; up to `capacity` answers wait, one more is turned away (503 +
//! Retry-After). A waiting answer whose client left gives its slot up at
//! once. Searches never pass through here, so they run concurrently with a
//! generation.

use crate::backend::{AnswerEvent, AnswerRequest, Backend};
use crate::cache::{AnswerCache, CachedAnswer};
use crate::error::{from_backend, ApiError};
use crate::metrics::Metrics;
use axum::http::StatusCode;
use paragraf_types::SearchResponse;
use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// What the worker sends back to the request that submitted a job.
#[derive(Debug)]
pub(crate) enum WorkerEvent {
    /// Ranked results, before the answer.
    Results(Box<SearchResponse>),
    /// One gated sentence of the answer.
    Sentence(String),
    /// The final response; last event.
    Final(Box<SearchResponse>),
    /// The job failed; last event.
    Error(ApiError),
}

struct Job {
    req: AnswerRequest,
    deadline: Instant,
    events: mpsc::Sender<WorkerEvent>,
    /// Where a complete answer is kept: the cache, the backend identity
    /// and the request's key (`None`: not cached).
    cache: Option<(Arc<AnswerCache>, String, String)>,
}

impl Job {
    /// The client that submitted the job is gone (its stream was dropped).
    fn abandoned(&self) -> bool {
        self.events.is_closed()
    }
}

#[derive(Default)]
struct State {
    waiting: VecDeque<Job>,
    /// Start of the job the worker runs now.
    running_since: Option<Instant>,
    /// The last handle is gone: drain and stop.
    closed: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    capacity: usize,
    /// Upper bound of a Retry-After (the answer deadline).
    max_wait: Duration,
    metrics: Arc<Metrics>,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Drop waiting jobs whose clients left; their slots are free again.
    fn purge(&self, st: &mut State) {
        let before = st.waiting.len();
        st.waiting.retain(|j| !j.abandoned());
        let gone = before - st.waiting.len();
        if gone > 0 {
            self.metrics.queue_depth_add(-(gone as i64));
        }
    }
}

/// Handle to the worker; dropping the last handle ends the worker thread
/// once the queue is drained.
pub(crate) struct AnswerQueue {
    shared: Arc<Shared>,
    /// For the answer cache's identity.
    backend: Arc<dyn Backend>,
    cache: Arc<AnswerCache>,
}

impl Drop for AnswerQueue {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.wake.notify_all();
    }
}

/// Buffer of events between the worker and one client; a slow reader slows
/// its own generation down, never the other requests.
const EVENT_BUFFER: usize = 256;

/// Share of the expected job time a running job is assumed to still need
/// when it has already run longer than expected (Retry-After estimate).
const OVERRUN_REMAINING: f64 = 0.1;

/// Safety factor on the expected wait plus job time of an answer that would
/// queue behind others: answer times under load spread (measured on 2 CPU
/// cores under 200 search clients: p50 194 s, p99 260 s), so an answer
/// queued on the expected time times out. An idle worker always takes the
/// next answer (it is the only way to measure, and nothing can be faster).
const ADMISSION_MARGIN: f64 = 1.5;

/// Seconds a client turned away should wait: what the running job still
/// needs plus one job time per waiting answer. The job time is the mean
/// wall time of the answers run so far, or the running job's time so far
/// when that is longer (a 160 s generation is not rated by earlier short
/// ones); at least 1 s, at most `max_s`.
pub(crate) fn retry_after_estimate(
    mean_job_s: Option<f64>,
    running_for_s: Option<f64>,
    waiting: usize,
    max_s: f64,
) -> u64 {
    retry_after_wait_s(mean_job_s, running_for_s, waiting)
        .ceil()
        .clamp(1.0, max_s.max(1.0)) as u64
}

/// Seconds until a job queued behind `waiting` others would start (see
/// [`retry_after_estimate`]).
fn retry_after_wait_s(mean_job_s: Option<f64>, running_for_s: Option<f64>, waiting: usize) -> f64 {
    let running = running_for_s.unwrap_or(0.0);
    let job = mean_job_s.unwrap_or(0.0).max(running);
    let remaining = if running_for_s.is_some() {
        (job - running).max(OVERRUN_REMAINING * job)
    } else {
        0.0
    };
    remaining + waiting as f64 * job
}

impl AnswerQueue {
    /// Start the worker thread.
    pub(crate) fn start(
        backend: Arc<dyn Backend>,
        metrics: Arc<Metrics>,
        capacity: usize,
        max_wait: Duration,
        cache_entries: usize,
    ) -> std::io::Result<Self> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            capacity,
            max_wait,
            metrics,
        });
        let worker = shared.clone();
        let handle = backend.clone();
        std::thread::Builder::new()
            .name("paragraf-answer".into())
            .spawn(move || loop {
                let job = {
                    let mut st = worker.lock();
                    loop {
                        if let Some(job) = st.waiting.pop_front() {
                            worker.metrics.queue_depth_add(-1);
                            st.running_since = Some(Instant::now());
                            break job;
                        }
                        if st.closed {
                            return;
                        }
                        st = worker.wake.wait(st).unwrap_or_else(|p| p.into_inner());
                    }
                };
                let started = Instant::now();
                // the job is booked as done before its last event goes out:
                // a client that asks again on the final event finds the
                // worker idle and the answer time measured
                run_job(&*backend, &worker.metrics, job, |ran| {
                    if ran {
                        worker.metrics.observe_job(started.elapsed().as_secs_f64());
                    }
                    worker.lock().running_since = None;
                });
            })?;
        Ok(AnswerQueue {
            shared,
            backend: handle,
            cache: Arc::new(AnswerCache::new(cache_entries)),
        })
    }

    /// The events of a cached answer, as the worker sent them the first
    /// time; `None` on a miss (or when the backend's answers are not
    /// cached). Hits and misses are counted.
    fn cached(&self, req: &AnswerRequest) -> Option<mpsc::Receiver<WorkerEvent>> {
        let identity = self.backend.cache_identity()?;
        if !self.cache.enabled() {
            return None;
        }
        let metrics = &self.shared.metrics;
        let Some(hit) = self.cache.get(&identity, &AnswerCache::key(req)) else {
            metrics.answer_cache_miss();
            return None;
        };
        metrics.answer_cache_hit();
        let (tx, rx) = mpsc::channel(hit.sentences.len() + 2);
        let events = std::iter::once(WorkerEvent::Results(Box::new(hit.results.clone())))
            .chain(hit.sentences.iter().cloned().map(WorkerEvent::Sentence))
            .chain(std::iter::once(WorkerEvent::Final(Box::new(
                hit.last.clone(),
            ))));
        for ev in events {
            // the channel holds them all
            let _ = tx.try_send(ev);
        }
        Some(rx)
    }

    /// Enqueue an answer; the receiver yields its events. 503 when full.
    pub(crate) fn submit(
        &self,
        req: AnswerRequest,
        deadline: Instant,
    ) -> Result<mpsc::Receiver<WorkerEvent>, ApiError> {
        if let Some(rx) = self.cached(&req) {
            return Ok(rx);
        }
        let cache = self
            .backend
            .cache_identity()
            .filter(|_| self.cache.enabled())
            .map(|id| (self.cache.clone(), id, AnswerCache::key(&req)));
        let (etx, erx) = mpsc::channel(EVENT_BUFFER);
        let sh = &*self.shared;
        let mut st = sh.lock();
        sh.purge(&mut st);
        // a job that would start too late to finish before its deadline is
        // turned away now (503 + Retry-After) instead of timing out later
        let mean = sh.metrics.mean_job_seconds();
        // admission plans with the longest recent job, not the mean: answer
        // times spread, and an answer admitted on the mean may time out
        let long = sh.metrics.recent_job_seconds_max().or(mean);
        let running_for = st.running_since.map(|t| t.elapsed().as_secs_f64());
        let left = deadline
            .saturating_duration_since(Instant::now())
            .as_secs_f64();
        // before any answer has been measured, one may take its whole
        // deadline: nothing is queued behind a running answer until then
        // (under load a CPU answer takes minutes; the running job's time so
        // far said seconds and let the queued ones time out)
        let long = long.or(running_for.map(|_| left));
        let job = long.unwrap_or(0.0).max(running_for.unwrap_or(0.0));
        let idle = running_for.is_none() && st.waiting.is_empty();
        let hopeless = job > 0.0 && !idle && {
            let start = retry_after_wait_s(long, running_for, st.waiting.len());
            (start + job) * ADMISSION_MARGIN > left
        };
        if st.waiting.len() >= sh.capacity || st.closed || hopeless {
            sh.metrics.answer_rejected();
            let mut err = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "queue_full",
                "Zu viele Anfragen an das Antwortmodell; bitte später erneut versuchen",
            );
            if st.closed {
                tracing::error!("answer worker is gone");
                err.body.error.code = "worker_unavailable".into();
            }
            err.retry_after_s = Some(retry_after_estimate(
                mean,
                running_for,
                st.waiting.len(),
                sh.max_wait.as_secs_f64(),
            ));
            return Err(err);
        }
        st.waiting.push_back(Job {
            req,
            deadline,
            events: etx,
            cache,
        });
        sh.metrics.queue_depth_add(1);
        drop(st);
        sh.wake.notify_one();
        Ok(erx)
    }
}

/// Run one job. `done` is called once, before the job's last event is
/// sent, with whether the job ran (false: skipped, its client gone or its
/// deadline passed while it waited).
fn run_job(backend: &dyn Backend, metrics: &Metrics, job: Job, done: impl FnOnce(bool)) {
    let Job {
        req,
        deadline,
        events,
        cache,
    } = job;
    if events.is_closed() {
        done(false); // client left while queued
        return;
    }
    if Instant::now() >= deadline {
        done(false);
        let _ = events.blocking_send(WorkerEvent::Error(timeout_error()));
        return;
    }
    metrics.in_progress_add(1);
    let started = Instant::now();
    let mut progress_tokens = 0usize;
    let mut final_sent = false;
    // what the client was sent, for the answer cache; `None` once an event
    // could not be delivered or the deadline passed (no partial answers)
    let mut sent: Option<(Option<SearchResponse>, Vec<String>, Option<SearchResponse>)> =
        cache.as_ref().map(|_| (None, Vec::new(), None));
    let outcome = {
        let mut on_event = |ev: AnswerEvent| -> bool {
            if Instant::now() >= deadline {
                sent = None;
                return false;
            }
            if let Some((results, sentences, last)) = sent.as_mut() {
                match &ev {
                    AnswerEvent::Results(r) => *results = Some(r.clone()),
                    AnswerEvent::Sentence(t) => sentences.push(t.clone()),
                    AnswerEvent::Final(r) if !final_sent => *last = Some(r.clone()),
                    _ => {}
                }
            }
            let msg = match ev {
                AnswerEvent::Results(r) => WorkerEvent::Results(Box::new(r)),
                AnswerEvent::Progress(n) => {
                    // nothing goes on the wire; stop when the client left
                    progress_tokens = n;
                    return !events.is_closed();
                }
                AnswerEvent::Sentence(s) => WorkerEvent::Sentence(s),
                AnswerEvent::Final(resp) => {
                    if final_sent {
                        return true;
                    }
                    final_sent = true;
                    WorkerEvent::Final(Box::new(resp))
                }
            };
            let delivered = events.blocking_send(msg).is_ok();
            if !delivered {
                sent = None;
            }
            delivered
        };
        std::panic::catch_unwind(AssertUnwindSafe(|| backend.answer(&req, &mut on_event)))
    };
    let elapsed = started.elapsed().as_secs_f64();
    metrics.in_progress_add(-1);
    let last = match outcome {
        Ok(Ok(resp)) => {
            metrics.observe_timings(&resp.timings_ms);
            let tokens = resp
                .answer
                .as_ref()
                .map(|a| a.generated_tokens)
                .filter(|n| *n > 0)
                .unwrap_or(progress_tokens);
            let gen_s = resp
                .timings_ms
                .get("generate")
                .map(|ms| ms / 1000.0)
                .unwrap_or(elapsed);
            metrics.observe_generation(tokens, gen_s);
            let complete = resp.answer.as_ref().is_some_and(|a| a.error.is_none())
                && Instant::now() < deadline
                && !events.is_closed();
            if let (Some((cache, identity, key)), Some((Some(results), sentences, last)), true) =
                (&cache, sent, complete)
            {
                let last = last.unwrap_or_else(|| resp.clone());
                cache.put(
                    identity,
                    key.clone(),
                    CachedAnswer {
                        results,
                        sentences,
                        last,
                    },
                );
            }
            if Instant::now() >= deadline && !final_sent {
                Some(WorkerEvent::Error(timeout_error()))
            } else if final_sent {
                None
            } else {
                Some(WorkerEvent::Final(Box::new(resp)))
            }
        }
        Ok(Err(e)) => Some(WorkerEvent::Error(from_backend(e))),
        Err(_) => {
            metrics.backend_panic();
            tracing::error!("backend answer call panicked");
            Some(WorkerEvent::Error(ApiError::internal()))
        }
    };
    done(true);
    if let Some(ev) = last {
        let _ = events.blocking_send(ev);
    }
}

/// The error sent when an answer ran past `Limits::answer_timeout`.
pub(crate) fn timeout_error() -> ApiError {
    ApiError::new(
        StatusCode::GATEWAY_TIMEOUT,
        "timeout",
        "Zeitlimit für die Antwort überschritten",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{BackendError, NormView, SearchRequest};

    /// Answers at once with an empty response.
    struct AtOnce;
    impl Backend for AtOnce {
        fn search(&self, _: &SearchRequest) -> Result<SearchResponse, BackendError> {
            Ok(SearchResponse::default())
        }
        fn answer(
            &self,
            _: &AnswerRequest,
            on_event: &mut dyn FnMut(AnswerEvent) -> bool,
        ) -> Result<SearchResponse, BackendError> {
            on_event(AnswerEvent::Results(SearchResponse::default()));
            Ok(SearchResponse::default())
        }
        fn norm(&self, _: &str) -> Result<Option<NormView>, BackendError> {
            Ok(None)
        }
        fn ready(&self) -> bool {
            true
        }
        fn info(&self) -> serde_json::Value {
            serde_json::Value::Null
        }
    }

    #[test]
    fn a_job_is_booked_done_before_its_final_event_goes_out() {
        // a client that asks again on the final event must find the worker
        // idle: `done` runs while the final event is not yet sent
        let (tx, mut rx) = mpsc::channel(EVENT_BUFFER);
        let req: AnswerRequest = serde_json::from_str(r#"{"query":"q"}"#).unwrap();
        let job = Job {
            req,
            deadline: Instant::now() + Duration::from_secs(60),
            events: tx,
            cache: None,
        };
        let mut seen_at_done = Vec::new();
        run_job(&AtOnce, &Metrics::default(), job, |ran| {
            assert!(ran);
            while let Ok(ev) = rx.try_recv() {
                seen_at_done.push(matches!(ev, WorkerEvent::Final(_)));
            }
        });
        assert_eq!(
            seen_at_done,
            vec![false],
            "only the results event before done"
        );
        assert!(matches!(rx.try_recv(), Ok(WorkerEvent::Final(_))));
    }

    #[test]
    fn retry_after_rates_a_long_running_job_by_its_own_time() {
        // earlier answers took 0.5 s, the running one has taken 160 s so far
        let s = retry_after_estimate(Some(0.5), Some(160.0), 1, 300.0);
        assert!(s >= 160, "{s}");
        // on schedule: the rest of the running job plus one per waiting answer
        assert_eq!(retry_after_estimate(Some(10.0), Some(4.0), 2, 300.0), 26);
        // nothing measured, nothing running
        assert_eq!(retry_after_estimate(None, None, 0, 300.0), 1);
        // capped by the answer deadline
        assert_eq!(retry_after_estimate(Some(200.0), Some(1.0), 8, 300.0), 300);
    }
}
