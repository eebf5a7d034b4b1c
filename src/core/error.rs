//! The one error type of dynoscope's core.
//!
//! Every failed request becomes an [`Error`] that names the operation that failed and, for
//! service errors, the server's error code, so the UI can show it once with both.

use aws_sdk_dynamodb::error::{DisplayErrorContext, ProvideErrorMetadata, SdkError};

/// What went wrong, with the operation it happened in.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum Error {
    /// The server answered with an error code (`ResourceNotFoundException`,
    /// `ThrottlingException`, `ExpiredTokenException`, …).
    #[error("{op} failed: {code}: {message}")]
    Service {
        /// The DynamoDB operation, e.g. `Query`.
        op: &'static str,
        /// The server's error code.
        code: String,
        /// The server's message (may be empty).
        message: String,
    },
    /// The request never got an answer: connection refused, DNS, TLS, no credentials.
    #[error("{op} failed: could not reach the endpoint: {detail}")]
    Unreachable {
        /// The DynamoDB operation.
        op: &'static str,
        /// What the transport said.
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
    /// The user's input cannot be sent as it is; nothing was sent.
    #[error("{0}")]
    Invalid(String),
    /// Connection set-up failed (profile, region, endpoint, sandbox).
    #[error("connect failed: {0}")]
    Connect(String),
    /// The embedded sandbox could not start or seed.
    #[error("sandbox failed: {0}")]
    Sandbox(String),
    /// A background task died before it answered.
    #[error("{op} failed: the background task stopped unexpectedly: {detail}")]
    TaskDied {
        /// The operation the task was running.
        op: &'static str,
        /// The panic or join error.
        detail: String,
    },
}

impl Error {
    /// Map an SDK error of operation `op` into an [`Error`], keeping the server's code.
    pub fn from_sdk<E, R>(op: &'static str, err: SdkError<E, R>) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
        R: std::fmt::Debug,
    {
        match &err {
            SdkError::ServiceError(service) => {
                let inner = service.err();
                Self::Service {
                    op,
                    code: inner.code().unwrap_or("UnknownError").to_owned(),
                    message: inner.message().unwrap_or_default().to_owned(),
                }
            }
            SdkError::TimeoutError(_) => Self::Timeout {
                op,
                detail: DisplayErrorContext(&err).to_string(),
            },
            SdkError::DispatchFailure(dispatch) => {
                let detail = DisplayErrorContext(&err).to_string();
                if dispatch.is_timeout() {
                    Self::Timeout { op, detail }
                } else {
                    Self::Unreachable { op, detail }
                }
            }
            SdkError::ResponseError(_) => Self::Unreachable {
                op,
                detail: DisplayErrorContext(&err).to_string(),
            },
            _ => Self::Request {
                op,
                detail: DisplayErrorContext(&err).to_string(),
            },
        }
    }

    /// The server's error code, when the server answered with one.
    pub fn code(&self) -> Option<&str> {
        match self {
            Self::Service { code, .. } => Some(code),
            _ => None,
        }
    }

    /// The operation that failed, when there was one.
    pub fn op(&self) -> Option<&'static str> {
        match self {
            Self::Service { op, .. }
            | Self::Unreachable { op, .. }
            | Self::Timeout { op, .. }
            | Self::Request { op, .. }
            | Self::TaskDied { op, .. } => Some(op),
            _ => None,
        }
    }
}

/// The result type of the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;
