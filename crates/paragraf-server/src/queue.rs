//! The answer queue: one dedicated worker thread runs one generation at a
//! time; up to `capacity` answers wait in a bounded channel, one more is
//! turned away (503 + Retry-After). Searches never pass through here, so
//! they run concurrently with a generation.

use crate::backend::{AnswerEvent, AnswerRequest, Backend};
use crate::error::{from_backend, ApiError};
use crate::metrics::Metrics;
use axum::http::StatusCode;
use paragraf_types::SearchResponse;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{sync_channel, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::Instant;
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
}

/// Handle to the worker; dropping the last handle ends the worker thread
/// once the queue is drained.
pub(crate) struct AnswerQueue {
    tx: SyncSender<Job>,
    metrics: Arc<Metrics>,
}

/// Buffer of events between the worker and one client; a slow reader slows
/// its own generation down, never the other requests.
const EVENT_BUFFER: usize = 256;

impl AnswerQueue {
    /// Start the worker thread.
    pub(crate) fn start(
        backend: Arc<dyn Backend>,
        metrics: Arc<Metrics>,
        capacity: usize,
    ) -> std::io::Result<Self> {
        let (tx, rx) = sync_channel::<Job>(capacity);
        let m = metrics.clone();
        std::thread::Builder::new()
            .name("paragraf-answer".into())
            .spawn(move || {
                for job in rx.iter() {
                    m.queue_depth_add(-1);
                    run_job(&*backend, &m, job);
                }
            })?;
        Ok(AnswerQueue { tx, metrics })
    }

    /// Enqueue an answer; the receiver yields its events. 503 when full.
    pub(crate) fn submit(
        &self,
        req: AnswerRequest,
        deadline: Instant,
    ) -> Result<mpsc::Receiver<WorkerEvent>, ApiError> {
        let (etx, erx) = mpsc::channel(EVENT_BUFFER);
        self.metrics.queue_depth_add(1);
        match self.tx.try_send(Job {
            req,
            deadline,
            events: etx,
        }) {
            Ok(()) => Ok(erx),
            Err(e) => {
                self.metrics.queue_depth_add(-1);
                self.metrics.answer_rejected();
                let mut err = ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "queue_full",
                    "Zu viele Anfragen an das Antwortmodell; bitte später erneut versuchen",
                );
                if let TrySendError::Disconnected(_) = e {
                    tracing::error!("answer worker is gone");
                    err.body.error.code = "worker_unavailable".into();
                }
                err.retry_after_s = Some(self.retry_after_s());
                Err(err)
            }
        }
    }

    /// Seconds a client should wait: the queue times the mean generation time
    /// seen so far, at least 1 s, at most 120 s.
    fn retry_after_s(&self) -> u64 {
        let depth = self.metrics.queue_depth().max(0) as f64 + 1.0;
        let mean = self.metrics.mean_generation_seconds().unwrap_or(5.0);
        (depth * mean).ceil().clamp(1.0, 120.0) as u64
    }
}

fn run_job(backend: &dyn Backend, metrics: &Metrics, job: Job) {
    let Job {
        req,
        deadline,
        events,
    } = job;
    if events.is_closed() {
        return; // client left while queued
    }
    if Instant::now() >= deadline {
        let _ = events.blocking_send(WorkerEvent::Error(timeout_error()));
        return;
    }
    metrics.in_progress_add(1);
    let started = Instant::now();
    let mut progress_tokens = 0usize;
    let mut final_sent = false;
    let outcome = {
        let mut on_event = |ev: AnswerEvent| -> bool {
            if Instant::now() >= deadline {
                return false;
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
            events.blocking_send(msg).is_ok()
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
