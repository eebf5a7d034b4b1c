//! Every report's one JSON document, typed: a report is `Serialize` and `schemars::JsonSchema`
//! (deriving both, its internals `#[serde(skip)]`, or made from a document struct by
//! [`document_as!`](crate::document_as)), so its keys are written by serde alone, in snake_case,
//! and its JSON Schema is what the MCP server publishes as a tool's output schema and what the
//! schema snapshot keeps. The value types documents share live beside what they say: dollars in
//! `cost::usd`, errors in `error::document`.

use schemars::JsonSchema;
use serde::Serialize;

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
            object.insert(
                "error".to_owned(),
                serde_json::Value::String(error.to_string()),
            );
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
