//! The one error type of dynoscope's core.
//!
//! Every failed request becomes an [`Error`] that names the operation that failed and, for
//! service errors, the server's error code, so the UI can show it once with both.

use aws_credential_types::provider::error::CredentialsError;
use aws_sdk_dynamodb::config::http::HttpResponse;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

pub use crate::position::TextPosition;

pub mod document;
mod source;
mod throttling;
mod words;

pub use throttling::ThrottleReason;
pub(crate) use throttling::in_words as throttle_words;

use source::{body_excerpt, connection_refused, credentials_detail, error_chain, find_source};

/// What went wrong, with the operation it happened in.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// The server answered with an error code (`ResourceNotFoundException`,
    /// `ThrottlingException`, `ExpiredTokenException`, …).
    #[error(
        "{op} failed: {code}: {}",
        throttling::with_reasons(message, throttled)
    )]
    Service {
        /// The DynamoDB operation, e.g. `Query`.
        op: &'static str,
        /// The server's error code.
        code: String,
        /// The server's message (may be empty).
        message: String,
        /// Why it throttled, when it said (`ThrottlingReasons`); empty otherwise.
        throttled: Vec<ThrottleReason>,
    },
    /// The server answered with a 5xx and an error code (`InternalServerError`,
    /// `ServiceUnavailable`, an emulator's `InternalFailure`): it failed while working on the
    /// request, which may have been applied.
    #[error("{op} failed: {code} (HTTP {status}): {message}")]
    ServerFault {
        /// The DynamoDB operation.
        op: &'static str,
        /// The HTTP status.
        status: u16,
        /// The server's error code.
        code: String,
        /// The server's message (may be empty).
        message: String,
    },
    /// The request never got an answer: connection refused, DNS, TLS, a connection lost.
    #[error("{op} failed: could not reach the endpoint: {detail}")]
    Unreachable {
        /// The DynamoDB operation.
        op: &'static str,
        /// What the transport said.
        detail: String,
        /// The connection itself was refused, so the request never left this machine.
        never_sent: bool,
    },
    /// No usable credentials: none found, an expired SSO session, a failing credential process.
    #[error(
        "{op} failed: no usable credentials: {detail} (pick a profile, run `aws sso login`, or set AWS_ACCESS_KEY_ID)"
    )]
    Credentials {
        /// The DynamoDB operation.
        op: &'static str,
        /// What the credential chain said.
        detail: String,
    },
    /// An answer came back but could not be read: an HTML or text error page, an unreadable
    /// body, a body cut short. The request reached something, so it may have been applied.
    #[error("{op}: the answer could not be read (HTTP {status}): {detail}")]
    Garbled {
        /// The DynamoDB operation.
        op: &'static str,
        /// The HTTP status of the answer (0 when none could be read).
        status: u16,
        /// What could not be read.
        detail: String,
    },
    /// The request timed out.
    #[error("{op} failed: timed out: {detail}")]
    Timeout {
        /// The DynamoDB operation.
        op: &'static str,
        /// What timed out.
        detail: String,
    },
    /// The request could not be built or signed (often: no credentials or no region).
    #[error("{op} failed: {detail}")]
    Request {
        /// The DynamoDB operation.
        op: &'static str,
        /// Why the request could not be sent.
        detail: String,
    },
    /// There is no connection to send the request on.
    #[error("{op} failed: not connected")]
    NotConnected {
        /// The operation that could not be sent.
        op: &'static str,
    },
    /// The connection is read-only; nothing was sent.
    #[error("refused: the connection to {place} is read-only; nothing was sent")]
    ReadOnly {
        /// Where the write would have gone.
        place: String,
    },
    /// A write was planned on another connection than the one it would be sent on.
    #[error(
        "refused: this was planned for {planned}, but the connection is {now} now; nothing was sent"
    )]
    ConnectionChanged {
        /// Where it was planned.
        planned: String,
        /// Where it would go now.
        now: String,
    },
    /// A write to another machine was not confirmed; nothing was sent.
    #[error("{question} It was not confirmed, so nothing was sent")]
    NotConfirmed {
        /// What the write would do, and where.
        question: String,
    },
    /// A write may or may not have been applied, and was not sent again: what followed it
    /// (the rest of a run) was not done.
    #[error("outcome unknown: {0}; it was not sent again")]
    OutcomeUnknown(Box<Error>),
    /// What a write needs does not exist (a parent, an item); nothing was written.
    #[error(
        "{what} does not exist, so nothing was written. Creating it is a separate choice (“Create the {kind} if missing”, or --create)."
    )]
    Missing {
        /// What is missing, e.g. `The parent POST#nope / META`.
        what: String,
        /// `item` or `parent`, as the app's checkbox names it.
        kind: &'static str,
    },
    /// What a read looked for is not there (a parent to check): the data disagrees with the
    /// question; nothing was written.
    #[error("there is no {what}")]
    NotFound {
        /// What was looked for, e.g. `parent item POST#nope / META in Social`.
        what: String,
    },
    /// The user's input cannot be sent as it is; nothing was sent.
    #[error("{0}")]
    Invalid(String),
    /// Connection set-up failed (profile, region, endpoint, sandbox).
    #[error("connect failed: {0}")]
    Connect(String),
    /// The MCP server could not start or serve (its transport, its audit log).
    #[error("MCP server: {0}")]
    Mcp(String),
    /// The embedded sandbox could not start or seed.
    #[error("sandbox failed: {0}")]
    Sandbox(String),
    /// A file could not be written or read.
    #[error("{action} {path} failed: {detail}")]
    File {
        /// What was being done, e.g. `writing`.
        action: &'static str,
        /// The file.
        path: String,
        /// What the system said.
        detail: String,
    },
    /// A SQL statement over loaded rows failed: SQLite's message, and where in the text when
    /// SQLite says (nothing in DynamoDB was touched).
    #[error("SQL {op} failed{}: {message}", at.map(|p| format!(" at {p}")).unwrap_or_default())]
    Sql {
        /// What was being done: `query`, `load`.
        op: &'static str,
        /// SQLite's message.
        message: String,
        /// Where in the statement text the error is.
        at: Option<TextPosition>,
    },
    /// The user cancelled the operation before it answered (a read: nothing was written).
    #[error("{op} cancelled")]
    Cancelled {
        /// The operation.
        op: &'static str,
    },
    /// A background task died before it answered.
    #[error("{op} failed: the background task stopped unexpectedly: {detail}")]
    TaskDied {
        /// The operation the task was running.
        op: &'static str,
        /// The panic or join error.
        detail: String,
    },
}

/// A file that could not be `action`ed (creating, reading, writing).
pub(crate) fn file_error(
    path: &std::path::Path,
    action: &'static str,
    e: &std::io::Error,
) -> Error {
    Error::File {
        action,
        path: path.display().to_string(),
        detail: e.to_string(),
    }
}

impl Error {
    /// This error said of `place` (a file and line, an attribute, a parent): an invalid input's
    /// words get `place: ` before them; any other error already names its operation.
    #[must_use]
    pub fn at(self, place: &str) -> Self {
        match self {
            Self::Invalid(why) => Self::Invalid(format!("{place}: {why}")),
            other => other,
        }
    }

    /// The words of an invalid input as they are (to be placed by the caller); any other error
    /// in full.
    pub fn reason(self) -> String {
        match self {
            Self::Invalid(why) => why,
            other => other.to_string(),
        }
    }

    /// Map an SDK error of operation `op` into an [`Error`], keeping the server's code. Errors
    /// are told apart by their kind and type, never by their message.
    ///
    /// An error answer without a code (an HTML 500 from a proxy, a text page) and an answer
    /// that could not be read become [`Error::Garbled`]: the request got somewhere, so the
    /// write may have been applied.
    #[expect(
        clippy::needless_pass_by_value,
        reason = "a conversion: every caller hands over the error it got (`map_err`), as `From` does"
    )]
    pub fn from_sdk<E>(op: &'static str, err: SdkError<E, HttpResponse>) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
    {
        if let SdkError::ServiceError(service) = &err {
            let inner = service.err();
            let status = service.raw().status().as_u16();
            return match inner.code() {
                Some(code) if status >= 500 => Self::ServerFault {
                    op,
                    status,
                    code: code.to_owned(),
                    message: inner.message().unwrap_or_default().to_owned(),
                },
                Some(code) => Self::Service {
                    op,
                    code: code.to_owned(),
                    message: service_message(code, inner.message().unwrap_or_default()),
                    throttled: throttling::reasons_in(
                        service.raw().body().bytes().unwrap_or_default(),
                    ),
                },
                None => Self::Garbled {
                    op,
                    status,
                    detail: body_excerpt(service.raw()),
                },
            };
        }
        if let SdkError::ResponseError(response) = &err {
            return Self::Garbled {
                op,
                status: response.raw().status().as_u16(),
                detail: error_chain(&err),
            };
        }
        let detail = error_chain(&err);
        if find_source::<CredentialsError>(&err).is_some() {
            let detail = credentials_detail(detail);
            return Self::Credentials { op, detail };
        }
        match &err {
            SdkError::TimeoutError(_) => Self::Timeout { op, detail },
            // Only the connect timeout is a dispatch failure (the attempt and operation
            // timeouts are `TimeoutError`): no connection, so the request never left.
            SdkError::DispatchFailure(dispatch) if dispatch.is_timeout() => Self::Unreachable {
                op,
                detail: format!("connecting timed out: {detail}"),
                never_sent: true,
            },
            SdkError::DispatchFailure(dispatch) if dispatch.is_user() => Self::Credentials {
                op,
                detail: credentials_detail(detail),
            },
            SdkError::DispatchFailure(_) => Self::Unreachable {
                op,
                never_sent: connection_refused(&err),
                detail,
            },
            _ => Self::Request { op, detail },
        }
    }

    /// Why the server throttled the request, when it said (empty for any other error).
    pub fn throttle_reasons(&self) -> &[ThrottleReason] {
        match self {
            Self::Service { throttled, .. } => throttled,
            _ => &[],
        }
    }

    /// The server's error code, when the server answered with one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Self::Service { code, .. } | Self::ServerFault { code, .. } => Some(code),
            _ => None,
        }
    }

    /// The operation that failed, when there was one.
    pub fn op(&self) -> Option<&'static str> {
        match self {
            Self::Service { op, .. }
            | Self::ServerFault { op, .. }
            | Self::Unreachable { op, .. }
            | Self::Timeout { op, .. }
            | Self::Garbled { op, .. }
            | Self::Credentials { op, .. }
            | Self::Request { op, .. }
            | Self::TaskDied { op, .. }
            | Self::Cancelled { op }
            | Self::NotConnected { op } => Some(op),
            _ => None,
        }
    }
}

/// The result type of the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The server's message for `code`: in our words where its meaning is known and the server's
/// say little (an emulator repeats the code), else as the server wrote it.
fn service_message(code: &str, message: &str) -> String {
    match code {
        "IdempotentParameterMismatchException" => "this ClientRequestToken was used for a \
            different request in the last 10 minutes; nothing was written (send it with a new \
            token)"
            .to_owned(),
        _ => message.to_owned(),
    }
}
