//! An error as a document: its words, the operation and the server's code, why it was
//! throttled, and where in an SQL text it is — what a report's `not_checked` lists and the CLI
//! prints on stderr with `--json`.

use schemars::JsonSchema;
use serde::Serialize;

use crate::error::Error;

/// An error as a document: its words, the operation and the server's code when there were
/// some, why it was throttled, and where in an SQL text it is.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ErrorDocument {
    /// The error in words, as the CLI prints it.
    pub error: String,
    /// The operation that failed (`Query`, `UpdateItem`, …), when there was one.
    pub op: Option<String>,
    /// The server's error code (`ConditionalCheckFailedException`, …), when it sent one.
    pub code: Option<String>,
    /// Each reason the server gave for throttling, when it throttled.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub throttled: Vec<Throttled>,
    /// Where in an SQL text the error is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<SqlAt>,
}

/// One reason a request was throttled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Throttled {
    /// `ResourceType + OperationType + LimitType`, e.g. `TableWriteKeyRangeThroughputExceeded`.
    pub reason: String,
    /// The ARN of the table or index throttled.
    pub resource: String,
    /// The limit in words.
    pub words: String,
}

/// A place in an SQL text: line and column from 1, the byte offset from 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SqlAt {
    /// The line.
    pub line: usize,
    /// The column.
    pub column: usize,
    /// Characters before it.
    pub offset: usize,
}

impl From<&Error> for ErrorDocument {
    fn from(error: &Error) -> Self {
        let throttled = (error.throttle_reasons().iter())
            .map(|r| Throttled {
                reason: r.reason.clone(),
                resource: r.resource.clone(),
                words: r.words(),
            })
            .collect();
        let at = match error {
            Error::Sql { at: Some(at), .. } => Some(SqlAt {
                line: at.line,
                column: at.column,
                offset: at.offset,
            }),
            _ => None,
        };
        Self {
            error: error.to_string(),
            op: error.op().map(str::to_owned),
            code: error.code().map(str::to_owned),
            throttled,
            at,
        }
    }
}

impl Error {
    /// The error as one JSON object: its words, the operation and the server's code when there
    /// were some, why it was throttled (`throttled`: each reason, resource and its words), and
    /// where in an SQL text it is.
    pub fn to_json(&self) -> serde_json::Value {
        crate::document::Document::to_json(&ErrorDocument::from(self))
    }
}
