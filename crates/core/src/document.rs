//! Every report's one JSON document, typed: a report is `Serialize` and `schemars::JsonSchema`
//! (deriving both, its internals `#[serde(skip)]`, or made from a document struct by
//! [`document_as!`](crate::document_as)), so its keys are written by serde alone, in snake_case,
//! and its JSON Schema is what the MCP server publishes as a tool's output schema and what the
//! schema snapshot keeps. The value types every document shares live here: dollars, errors.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Serialize;

use crate::cost::Charge;
use crate::error::Error;

/// A report as its one JSON document: its value through serde, nothing written by hand. A
/// report's fields are strings, numbers and typed structs, which serde always writes; an object
/// keyed by something other than text (which serde cannot write) would be a bug, said as an
/// error document rather than a panic.
pub trait Document {
    /// The document.
    fn to_json(&self) -> serde_json::Value;
}

impl<T: Serialize + JsonSchema> Document for T {
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_else(|error| {
            let mut object = serde_json::Map::new();
            object.insert("error".to_owned(), serde_json::Value::String(error.to_string()));
            serde_json::Value::Object(object)
        })
    }
}

/// A report whose document is another type, made by one of its methods: its `Serialize` and
/// `JsonSchema` are that document's. `document_as!(ReconcileRun => ReconcileDocument, document)`
/// for `fn document(&self) -> ReconcileDocument`.
#[macro_export]
macro_rules! document_as {
    ($report:ty => $document:ty, $method:ident) => {
        impl ::serde::Serialize for $report {
            fn serialize<S: ::serde::Serializer>(
                &self,
                serializer: S,
            ) -> ::std::result::Result<S::Ok, S::Error> {
                ::serde::Serialize::serialize(&self.$method(), serializer)
            }
        }

        impl ::schemars::JsonSchema for $report {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                <$document as ::schemars::JsonSchema>::schema_name()
            }

            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                <$document as ::schemars::JsonSchema>::schema_id()
            }

            fn inline_schema() -> bool {
                <$document as ::schemars::JsonSchema>::inline_schema()
            }

            fn json_schema(generator: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                <$document as ::schemars::JsonSchema>::json_schema(generator)
            }
        }
    };
}

/// What something cost in US dollars, exact (a JSON number with every digit), or `null` when
/// the price is unknown (another currency, or a Region without a price).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Usd(serde_json::Value);

impl Usd {
    /// Nothing known.
    pub fn unknown() -> Self {
        Self(serde_json::Value::Null)
    }
}

impl From<&Charge> for Usd {
    fn from(charge: &Charge) -> Self {
        Self(charge.usd_json())
    }
}

impl From<Charge> for Usd {
    fn from(charge: Charge) -> Self {
        Self(charge.usd_json())
    }
}

impl JsonSchema for Usd {
    fn schema_name() -> Cow<'static, str> {
        "Usd".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "US dollars, exact (every digit kept); null when the price is unknown.",
            "type": ["number", "null"]
        })
    }
}

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
