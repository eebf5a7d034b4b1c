//! The line-framed relay between stdin and rmcp. rmcp reads each JSON-RPC line into serde_json
//! values, which keep the last of two members with one name (`"delta":"1","delta":"1000"`
//! would add 1000), and it answers nothing to a line it cannot read. So every line is read
//! here first, bounded, and checked with the one strict parser: a clean line goes on to rmcp
//! unchanged, a refused one gets a JSON-RPC error answer and an audit line, and never reaches
//! a tool. Every line to stdout — rmcp's answers and these — goes through one writer, a whole
//! line at a time, so the two never interleave.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::io::{DuplexStream, duplex};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::audit::Audit;
pub(crate) use crate::relay_audit::MAX_LINE_BYTES;
use crate::relay_audit::{INVALID_REQUEST, Refused, received};
use dynoscope_core::value::strict;

/// The deepest nesting of arrays and objects a message may have: MCP's are a few levels, and
/// the limit comes before serde_json's own (128), so the words are ours.
pub(crate) const MAX_DEPTH: usize = 64;

/// JSON-RPC's "Invalid JSON was received".
const PARSE_ERROR: i64 = -32700;

/// Bytes buffered in each pipe between the relay and rmcp.
const PIPE_BYTES: usize = 64 << 10;

/// The pipes rmcp reads and writes instead of stdin and stdout.
pub(super) type Pipes = (DuplexStream, DuplexStream);

/// The relay's tasks, for the end of the session.
pub(super) struct Relay {
    reader: JoinHandle<()>,
    writer: JoinHandle<()>,
    calls: Arc<Calls>,
}

/// Requests handed to rmcp and the answers it gave, counted so the end of a session waits for
/// the last answers to be written instead of guessing how long that takes.
#[derive(Default)]
struct Calls {
    asked: std::sync::atomic::AtomicU64,
    answered: std::sync::atomic::AtomicU64,
    more: tokio::sync::Notify,
}

/// The members of a JSON-RPC message that tell a request (`method` and `id`) from an answer
/// (`id` alone); the rest is skipped unread.
#[derive(serde::Deserialize)]
struct Head {
    id: Option<serde::de::IgnoredAny>,
    method: Option<serde::de::IgnoredAny>,
}

impl Head {
    fn of(line: &[u8]) -> Option<Self> {
        serde_json::from_slice(line).ok()
    }
}

impl Relay {
    /// Relay stdin and stdout; the pipes to give rmcp.
    pub(super) fn start(audit: Arc<Audit>) -> (Pipes, Self) {
        let (stdin, stdout) = rmcp::transport::io::stdio_pipes();
        Self::over(stdin, stdout, audit)
    }

    /// Relay `input` and `output`.
    fn over(
        input: impl AsyncRead + Send + Unpin + 'static,
        output: impl AsyncWrite + Send + Unpin + 'static,
        audit: Arc<Audit>,
    ) -> (Pipes, Self) {
        let (rmcp_reads, requests) = duplex(PIPE_BYTES);
        let (rmcp_writes, answers) = duplex(PIPE_BYTES);
        let (lines, to_write) = mpsc::channel::<Vec<u8>>(64);
        let calls = Arc::new(Calls::default());
        tokio::spawn(forward_answers(answers, lines.clone(), Arc::clone(&calls)));
        let reader = tokio::spawn(read_requests(
            input,
            requests,
            lines,
            audit,
            Arc::clone(&calls),
        ));
        let writer = tokio::spawn(write_lines(output, to_write));
        (
            (rmcp_reads, rmcp_writes),
            Self {
                reader,
                writer,
                calls,
            },
        )
    }

    /// Wait, at most `within`, until rmcp has answered every request it was handed (a request
    /// it drops unanswered, one the client cancelled, ends the wait at `within`).
    pub(super) async fn answered(&self, within: Duration) {
        use std::sync::atomic::Ordering;
        let all = async {
            loop {
                let more = self.calls.more.notified();
                let calls = &self.calls;
                if calls.answered.load(Ordering::SeqCst) >= calls.asked.load(Ordering::SeqCst) {
                    return;
                }
                more.await;
            }
        };
        let _answered = tokio::time::timeout(within, all).await;
    }

    /// Stop reading stdin and wait, at most `within`, for every answer to be written.
    pub(super) async fn finish(self, within: Duration) {
        self.reader.abort();
        let _written = tokio::time::timeout(within, self.writer).await;
    }
}

/// Cancel `stop` once the client has left: the reading end of our stdout closed (a client
/// process that ended, not one that only closed our stdin to say it has no more requests and
/// still reads the answers). Checked five times a second; said in the audit log.
pub(super) async fn when_client_gone(stop: dynoscope_core::cancel::CancelToken, audit: Arc<Audit>) {
    let mut every = tokio::time::interval(Duration::from_millis(200));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    loop {
        every.tick().await;
        if stop.is_cancelled() {
            return;
        }
        if stdout_gone() {
            let _said = audit.append(crate::audit::Event::ClientGone);
            stop.cancel();
            return;
        }
    }
}

/// Whether stdout is a pipe whose reading end has closed: poll(2) reports POLLERR (or POLLHUP)
/// on such a pipe whatever is asked; a terminal or a file never does.
#[cfg(unix)]
fn stdout_gone() -> bool {
    let mut out = libc::pollfd {
        fd: libc::STDOUT_FILENO,
        events: 0,
        revents: 0,
    };
    // SAFETY: one valid pollfd of our own, a count of 1, and no wait.
    #[expect(
        unsafe_code,
        reason = "poll(2) on stdout, with no wait: no safe call tells a closed pipe"
    )]
    let ready = unsafe { libc::poll(&raw mut out, 1, 0) };
    ready == 1 && out.revents & (libc::POLLERR | libc::POLLHUP) != 0
}

/// Elsewhere a client that left is seen when an answer cannot be written.
#[cfg(not(unix))]
fn stdout_gone() -> bool {
    false
}

/// Write each line to `output` whole, flushing when none is waiting.
async fn write_lines(mut output: impl AsyncWrite + Unpin, mut lines: mpsc::Receiver<Vec<u8>>) {
    while let Some(line) = lines.recv().await {
        if output.write_all(&line).await.is_err() {
            return;
        }
        if lines.is_empty() && output.flush().await.is_err() {
            return;
        }
    }
    let _flushed = output.flush().await;
}

/// rmcp's answers, line by line, to the writer; each answer to a request counted once handed on.
async fn forward_answers(answers: DuplexStream, lines: mpsc::Sender<Vec<u8>>, calls: Arc<Calls>) {
    let mut answers = BufReader::new(answers);
    loop {
        let mut line = Vec::new();
        match answers.read_until(b'\n', &mut line).await {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                if !line.ends_with(b"\n") {
                    line.push(b'\n');
                }
                let answer = Head::of(&line).is_some_and(|h| h.id.is_some() && h.method.is_none());
                if lines.send(line).await.is_err() {
                    return;
                }
                if answer {
                    calls
                        .answered
                        .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    calls.more.notify_waiters();
                }
            }
        }
    }
}

/// How reading one line ended.
enum Read {
    /// A line (without its newline) is in the buffer.
    Line,
    /// The line was longer than [`MAX_LINE_BYTES`]; it was read to its end and dropped.
    TooLong { bytes: usize },
    /// Input ended.
    End,
}

/// Read one line into `line`, holding at most [`MAX_LINE_BYTES`] of it.
async fn read_line(
    input: &mut BufReader<impl AsyncRead + Unpin>,
    line: &mut Vec<u8>,
) -> std::io::Result<Read> {
    line.clear();
    let (mut bytes, mut too_long) = (0usize, false);
    loop {
        let buffer = input.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(match (bytes, too_long) {
                (0, _) => Read::End,
                (_, true) => Read::TooLong { bytes },
                (_, false) => Read::Line,
            });
        }
        let newline = memchr::memchr(b'\n', buffer);
        let part = buffer
            .get(..newline.unwrap_or(buffer.len()))
            .unwrap_or_default();
        bytes = bytes.saturating_add(part.len());
        if !too_long && line.len() + part.len() <= MAX_LINE_BYTES {
            line.extend_from_slice(part);
        } else {
            too_long = true;
            line.clear();
        }
        let used = newline.map_or(buffer.len(), |at| at + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(if too_long {
                Read::TooLong { bytes }
            } else {
                Read::Line
            });
        }
    }
}

/// Read requests from `input`: clean lines on to rmcp, refused ones answered and audited.
/// When input ends, rmcp's input ends too (the session ends as when stdin closes).
async fn read_requests(
    input: impl AsyncRead + Unpin,
    mut to_rmcp: DuplexStream,
    answers: mpsc::Sender<Vec<u8>>,
    audit: Arc<Audit>,
    calls: Arc<Calls>,
) {
    let mut input = BufReader::with_capacity(PIPE_BYTES, input);
    let mut line = Vec::new();
    loop {
        let refused = match read_line(&mut input, &mut line).await {
            Ok(Read::End) | Err(_) => break,
            Ok(Read::TooLong { bytes }) => Refused::too_long(bytes),
            Ok(Read::Line) => {
                // A byte-order mark is not part of the message (the check ignores it too).
                let text = line.trim_ascii();
                let text = text.strip_prefix("\u{feff}".as_bytes()).unwrap_or(text);
                match check(text) {
                    Ok(()) if text.is_empty() => continue,
                    Ok(()) => {
                        received(text, &audit);
                        if Head::of(text).is_some_and(|h| h.id.is_some() && h.method.is_some()) {
                            calls
                                .asked
                                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        }
                        let sent = to_rmcp.write_all(text).await;
                        if sent.and(to_rmcp.write_all(b"\n").await).is_err() {
                            break;
                        }
                        continue;
                    }
                    Err(refused) => refused.of_line(text),
                }
            }
        };
        refused.say(&answers, &audit).await;
    }
    let _closed = to_rmcp.shutdown().await;
}

/// `text` as a message the server reads: nested at most [`MAX_DEPTH`], well formed, each
/// member named once.
fn check(text: &[u8]) -> Result<(), Refused> {
    if text.is_empty() {
        return Ok(());
    }
    if deeper_than(text, MAX_DEPTH) {
        return Err(Refused::new(
            PARSE_ERROR,
            format!("it nests arrays and objects deeper than {MAX_DEPTH} levels"),
        ));
    }
    strict::check_slice(text).map_err(|e| {
        let code = if e.is_data() {
            INVALID_REQUEST
        } else {
            PARSE_ERROR
        };
        Refused::new(code, strict::error_text(&e))
    })
}

/// Whether `text` opens more than `most` arrays and objects inside one another (strings
/// skipped).
fn deeper_than(text: &[u8], most: usize) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for &byte in text {
        if in_string {
            match (escaped, byte) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > most {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
#[path = "relay_tests.rs"]
mod tests;
