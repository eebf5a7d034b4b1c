//! The one error type of dynoscope's core.
//!
//! Every failed request becomes an [`Error`] that names the operation that failed and, for
//! service errors, the server's error code, so the UI can show it once with both.

use aws_credential_types::provider::error::CredentialsError;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};

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
    /// The user's input cannot be sent as it is; nothing was sent.
    #[error("{0}")]
    Invalid(String),
    /// Connection set-up failed (profile, region, endpoint, sandbox).
    #[error("connect failed: {0}")]
    Connect(String),
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
    /// Map an SDK error of operation `op` into an [`Error`], keeping the server's code. Errors
    /// are told apart by their kind and type, never by their message.
    pub fn from_sdk<E, R>(op: &'static str, err: SdkError<E, R>) -> Self
    where
        E: ProvideErrorMetadata + std::error::Error + Send + Sync + 'static,
        R: std::fmt::Debug + Send + Sync + 'static,
    {
        if let SdkError::ServiceError(service) = &err {
            let inner = service.err();
            return Self::Service {
                op,
                code: inner.code().unwrap_or("UnknownError").to_owned(),
                message: inner.message().unwrap_or_default().to_owned(),
            };
        }
        let detail = error_chain(&err);
        if find_source::<CredentialsError>(&err).is_some() {
            return Self::Credentials { op, detail };
        }
        match &err {
            SdkError::TimeoutError(_) => Self::Timeout { op, detail },
            SdkError::DispatchFailure(dispatch) if dispatch.is_timeout() => {
                Self::Timeout { op, detail }
            }
            SdkError::DispatchFailure(dispatch) if dispatch.is_user() => {
                Self::Credentials { op, detail }
            }
            SdkError::DispatchFailure(_) | SdkError::ResponseError(_) => Self::Unreachable {
                op,
                never_sent: connection_refused(&err),
                detail,
            },
            _ => Self::Request { op, detail },
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
            | Self::Credentials { op, .. }
            | Self::Request { op, .. }
            | Self::TaskDied { op, .. }
            | Self::NotConnected { op } => Some(op),
            _ => None,
        }
    }
}

/// The first error of type `E` in `err`'s chain of sources.
fn find_source<'a, E: std::error::Error + 'static>(
    err: &'a (dyn std::error::Error + 'static),
) -> Option<&'a E> {
    let mut next = Some(err);
    while let Some(e) = next {
        if let Some(found) = e.downcast_ref::<E>() {
            return Some(found);
        }
        next = e.source();
    }
    None
}

/// Whether the connection was refused or had no route: then the request never left.
fn connection_refused(err: &(dyn std::error::Error + 'static)) -> bool {
    use std::io::ErrorKind;
    let mut next = Some(err);
    while let Some(e) = next {
        if let Some(io) = e.downcast_ref::<std::io::Error>()
            && matches!(
                io.kind(),
                ErrorKind::ConnectionRefused
                    | ErrorKind::AddrNotAvailable
                    | ErrorKind::NetworkUnreachable
                    | ErrorKind::HostUnreachable
            )
        {
            return true;
        }
        next = e.source();
    }
    false
}

/// The messages of `err` and its sources, joined with `: `, each said once.
///
/// The SDK's own context printer appends a `Debug` dump; people should read sentences.
fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = next {
        let text = e.to_string();
        if !text.is_empty() && !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        next = e.source();
    }
    parts.join(": ")
}

/// The result type of the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;
