//! Work the UI starts and polls each frame, through typed handles: a [`Pending`] result, or a
//! [`Job`] with progress and a cancel. What is shared is only the [`Spawner`] — the runtime
//! `main` owns and the waker that repaints the UI when something arrives. The UI thread never
//! waits: it asks a handle whether its answer is there.

use std::future::Future;
use std::sync::Arc;

use tokio::runtime::Handle;
use tokio::sync::{mpsc, oneshot};

use crate::cancel::CancelToken;
use crate::error::{Error, Result};

type Wake = Arc<dyn Fn() + Send + Sync>;

/// Starts work on the runtime and wakes the UI when it has something to say.
#[derive(Clone)]
pub struct Spawner {
    runtime: Handle,
    wake: Wake,
}

impl std::fmt::Debug for Spawner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Spawner").finish_non_exhaustive()
    }
}

impl Spawner {
    /// Work goes to `runtime`; `wake` is called whenever a result or progress arrives.
    pub fn new(runtime: Handle, wake: impl Fn() + Send + Sync + 'static) -> Self {
        Self {
            runtime,
            wake: Arc::new(wake),
        }
    }

    /// Run `work`, the operation `op`, on the runtime. If it panics, its result is
    /// [`Error::TaskDied`] naming `op`: the handle always answers.
    pub fn spawn<T, F>(&self, op: &'static str, work: F) -> Pending<T>
    where
        T: Send + 'static,
        F: Future<Output = Result<T>> + Send + 'static,
    {
        let inner = self.runtime.spawn(work);
        let abort = inner.abort_handle();
        let mut pending = self.answer(op, inner);
        pending.abort = Some(abort);
        pending
    }

    /// Run `work` on a blocking thread (a file dialog, a file written), like [`spawn`].
    ///
    /// [`spawn`]: Self::spawn
    pub fn spawn_blocking<T, F>(&self, op: &'static str, work: F) -> Pending<T>
    where
        T: Send + 'static,
        F: FnOnce() -> Result<T> + Send + 'static,
    {
        let inner = self.runtime.spawn_blocking(work);
        self.answer(op, inner)
    }

    /// Start a long run: `work` gets a [`Progress`] to report through and the [`CancelToken`]
    /// the handle's Cancel uses. Dropping the handle cancels the run.
    pub fn spawn_job<P, T, F, Fut>(&self, op: &'static str, work: F) -> Job<P, T>
    where
        P: Send + 'static,
        T: Send + 'static,
        F: FnOnce(Progress<P>, CancelToken) -> Fut,
        Fut: Future<Output = Result<T>> + Send + 'static,
    {
        #[expect(
            clippy::disallowed_methods,
            reason = "a job's progress is drained by the UI every frame and woken per event; a bound would stall the job behind a frame, or drop what it checked"
        )]
        let (tx, progress) = mpsc::unbounded_channel();
        let cancel = CancelToken::default();
        let reporter = Progress {
            tx,
            wake: Arc::clone(&self.wake),
        };
        let result = self.spawn(op, work(reporter, cancel.clone()));
        Job {
            progress,
            result,
            cancel,
        }
    }

    /// [`spawn_job`](Self::spawn_job) for work that blocks a thread (SQLite over loaded rows):
    /// `work` runs on a blocking thread, reports through the [`Progress`] and stops when it
    /// sees the [`CancelToken`] cancelled.
    pub fn spawn_blocking_job<P, T, F>(&self, op: &'static str, work: F) -> Job<P, T>
    where
        P: Send + 'static,
        T: Send + 'static,
        F: FnOnce(Progress<P>, CancelToken) -> Result<T> + Send + 'static,
    {
        #[expect(
            clippy::disallowed_methods,
            reason = "a job's progress is drained by the UI every frame and woken per event; a bound would stall the job behind a frame, or drop what it checked"
        )]
        let (tx, progress) = mpsc::unbounded_channel();
        let cancel = CancelToken::default();
        let reporter = Progress {
            tx,
            wake: Arc::clone(&self.wake),
        };
        let token = cancel.clone();
        let result = self.spawn_blocking(op, move || work(reporter, token));
        Job {
            progress,
            result,
            cancel,
        }
    }

    /// Wait for `joined` on the runtime and send its outcome to a new [`Pending`].
    fn answer<T, J>(&self, op: &'static str, joined: J) -> Pending<T>
    where
        T: Send + 'static,
        J: Future<Output = std::result::Result<Result<T>, tokio::task::JoinError>> + Send + 'static,
    {
        let (tx, rx) = oneshot::channel();
        let wake = Arc::clone(&self.wake);
        self.runtime.spawn(async move {
            let result = joined.await.unwrap_or_else(|e| {
                Err(if e.is_cancelled() {
                    Error::Cancelled { op }
                } else {
                    Error::TaskDied {
                        op,
                        detail: panic_text(e),
                    }
                })
            });
            // When the handle was dropped (its feature was reset), nobody waits for the answer.
            if tx.send(result).is_ok() {
                wake();
            }
        });
        Pending {
            rx,
            op,
            abort: None,
        }
    }
}

/// What a panicked or aborted task said.
fn panic_text(err: tokio::task::JoinError) -> String {
    if !err.is_panic() {
        return err.to_string();
    }
    let payload = err.into_panic();
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_owned())
}

/// The result of one piece of work, once it has arrived.
#[derive(Debug)]
pub struct Pending<T> {
    rx: oneshot::Receiver<Result<T>>,
    op: &'static str,
    /// Stops the work (reads only: a write is never stopped half-way).
    abort: Option<tokio::task::AbortHandle>,
}

impl<T> Pending<T> {
    /// The result, if it has arrived; the handle is spent then.
    fn try_take(&mut self) -> Option<Result<T>> {
        match self.rx.try_recv() {
            Ok(result) => Some(result),
            Err(oneshot::error::TryRecvError::Empty) => None,
            Err(oneshot::error::TryRecvError::Closed) => Some(Err(Error::TaskDied {
                op: self.op,
                detail: "the runtime stopped before it answered".into(),
            })),
        }
    }

    /// Stop the work now, request in flight and all; its answer is then [`Error::Cancelled`].
    /// For reads: a write must be left to end, so its outcome is known.
    pub fn abort(&self) {
        if let Some(abort) = &self.abort {
            abort.abort();
        }
    }

    /// Take the result out of `slot` once it has arrived, leaving the slot empty; `None` while
    /// the work goes on or when nothing was started.
    pub fn take_ready(slot: &mut Option<Self>) -> Option<Result<T>> {
        let result = slot.as_mut()?.try_take()?;
        *slot = None;
        Some(result)
    }
}

/// Reports a long run's progress to its [`Job`], waking the UI.
#[derive(Clone)]
pub struct Progress<P> {
    tx: mpsc::UnboundedSender<P>,
    wake: Wake,
}

impl<P> Progress<P> {
    /// Report `progress`. When the job's handle is gone, nobody is listening any more.
    pub fn send(&self, progress: P) {
        if self.tx.send(progress).is_ok() {
            (self.wake)();
        }
    }
}

/// A long run: its progress as it goes, a cancel, and its result.
#[derive(Debug)]
pub struct Job<P, T> {
    progress: mpsc::UnboundedReceiver<P>,
    result: Pending<T>,
    cancel: CancelToken,
}

/// What a job had to say since the last poll.
#[derive(Debug)]
pub struct Polled<P, T> {
    /// Progress reported, in order.
    pub progress: Vec<P>,
    /// The result, once the run ended (after all its progress).
    pub done: Option<Result<T>>,
}

impl<P, T> Job<P, T> {
    /// Ask the run to stop; what it finished is kept.
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    /// Stop the run now, the request in flight included (reads only; writes are asked to stop
    /// with [`cancel`](Self::cancel), so that every write sent has a known outcome).
    pub fn abort(&self) {
        self.cancel.cancel();
        self.result.abort();
    }

    /// Whether Cancel was asked for.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// The progress since the last poll and, once the run ended, its result.
    pub fn poll(&mut self) -> Polled<P, T> {
        // The result is looked at first: the run reports all its progress before its result,
        // so once the result is here, all the progress is in the channel too.
        let done = self.result.try_take();
        let mut progress = Vec::new();
        while let Ok(p) = self.progress.try_recv() {
            progress.push(p);
        }
        Polled { progress, done }
    }

    /// Poll the job in `slot`, emptying the slot once it ended.
    pub fn poll_slot(slot: &mut Option<Self>) -> Polled<P, T> {
        let Some(job) = slot.as_mut() else {
            return Polled {
                progress: Vec::new(),
                done: None,
            };
        };
        let polled = job.poll();
        if polled.done.is_some() {
            *slot = None;
        }
        polled
    }
}

impl<P, T> Drop for Job<P, T> {
    fn drop(&mut self) {
        // A job nobody watches any more has no reason to go on.
        self.cancel.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap()
    }

    fn wait<T>(mut poll: impl FnMut() -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(found) = poll() {
                return found;
            }
            assert!(Instant::now() < deadline, "no answer");
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    #[test]
    fn a_result_arrives_once_and_a_panic_is_an_error() {
        let rt = runtime();
        let spawner = Spawner::new(rt.handle().clone(), || {});
        let mut slot = Some(spawner.spawn("Answer", async { Ok(42) }));
        assert_eq!(wait(|| Pending::take_ready(&mut slot)).unwrap(), 42);
        assert!(slot.is_none(), "spent");
        let mut slot: Option<Pending<()>> = Some(spawner.spawn("Boom", async { panic!("boom") }));
        let error = wait(|| Pending::take_ready(&mut slot)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "Boom failed: the background task stopped unexpectedly: boom"
        );
    }

    #[test]
    fn a_job_reports_all_its_progress_before_its_result_and_can_be_cancelled() {
        let rt = runtime();
        let spawner = Spawner::new(rt.handle().clone(), || {});
        let mut job = Some(spawner.spawn_job("Count", |progress, _| async move {
            for i in 0..100 {
                progress.send(i);
            }
            Ok("done")
        }));
        let mut seen = Vec::new();
        let done = wait(|| {
            let polled = Job::poll_slot(&mut job);
            seen.extend(polled.progress);
            polled.done
        });
        assert_eq!(done.unwrap(), "done");
        assert_eq!(seen, (0..100).collect::<Vec<_>>(), "nothing lost, in order");

        let mut job = Some(
            spawner.spawn_job("Wait", |_: Progress<()>, cancel| async move {
                cancel.cancelled().await;
                Ok("stopped")
            }),
        );
        if let Some(job) = &job {
            job.cancel();
        }
        assert_eq!(wait(|| Job::poll_slot(&mut job).done).unwrap(), "stopped");
    }
}
