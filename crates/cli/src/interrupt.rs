//! Ctrl-C and SIGTERM: a run stops sending, waits for the answers in flight (each within the
//! connection's timeout), says what happened so far and exits with the table's status. The
//! signal never kills a write whose outcome would then go unsaid.

use crate::exit::Exit;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::terminal::say;

/// The signals a run listens for, from the start of the run to its end.
pub(crate) struct Interrupt {
    cancel: CancelToken,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl Interrupt {
    /// Listen for SIGINT and SIGTERM: the first cancels [`token`](Self::token) and says that
    /// the run is stopping; a second one ends the process at once, with status 3 when the run
    /// `writes` (a write in flight may have been applied) and 2 otherwise, saying so.
    pub(crate) fn listen(writes: bool) -> Self {
        let cancel = CancelToken::default();
        let stop = cancel.clone();
        let task = signals().map(|mut signals| {
            tokio::spawn(async move {
                let mut first = true;
                while signals.next().await {
                    if first {
                        say(
                            "dynoscope: interrupted: stopping, and nothing more is sent; an answer in flight is waited for, within the timeout (interrupt again to leave at once)",
                        );
                        stop.cancel();
                        first = false;
                    } else if writes {
                        say(
                            "dynoscope: interrupted again: leaving without waiting; a write in flight may have been applied (outcome unknown, exit 3)",
                        );
                        std::process::exit(i32::from(Exit::Unknown.status()));
                    } else {
                        say("dynoscope: interrupted again: leaving without waiting (nothing was written)");
                        std::process::exit(i32::from(Exit::Error.status()));
                    }
                }
            })
        });
        Self { cancel, task }
    }

    /// Cancelled by the first signal.
    pub(crate) fn token(&self) -> &CancelToken {
        &self.cancel
    }
}

impl Drop for Interrupt {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
    }
}

pub(crate) use dynoscope_core::cancel::{not_stopped, unless_stopped};

/// The table's description, given up on when the run is interrupted: what every subcommand
/// reads first.
pub(crate) use dynoscope_core::read::describe_unless_stopped as describe;

/// SIGINT and SIGTERM as one stream (Ctrl-C and Ctrl-Break on Windows); `None` when they cannot
/// be listened for (then they end the process as usual).
#[cfg(unix)]
fn signals() -> Option<Signals> {
    use tokio::signal::unix::{SignalKind, signal};
    Some(Signals {
        int: signal(SignalKind::interrupt()).ok()?,
        term: signal(SignalKind::terminate()).ok()?,
    })
}

#[cfg(unix)]
struct Signals {
    int: tokio::signal::unix::Signal,
    term: tokio::signal::unix::Signal,
}

#[cfg(unix)]
impl Signals {
    /// Wait for the next signal; `false` when no more can come.
    async fn next(&mut self) -> bool {
        tokio::select! {
            got = self.int.recv() => got.is_some(),
            got = self.term.recv() => got.is_some(),
        }
    }
}

/// On Windows, Ctrl-C and Ctrl-Break in the console, as SIGINT on Linux.
#[cfg(windows)]
fn signals() -> Option<Signals> {
    use tokio::signal::windows::{ctrl_break, ctrl_c};
    Some(Signals {
        c: ctrl_c().ok()?,
        brk: ctrl_break().ok()?,
    })
}

#[cfg(windows)]
struct Signals {
    c: tokio::signal::windows::CtrlC,
    brk: tokio::signal::windows::CtrlBreak,
}

#[cfg(windows)]
impl Signals {
    /// Wait for the next Ctrl-C or Ctrl-Break; `false` when no more can come.
    async fn next(&mut self) -> bool {
        tokio::select! {
            got = self.c.recv() => got.is_some(),
            got = self.brk.recv() => got.is_some(),
        }
    }
}
