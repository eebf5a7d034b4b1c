//! The builder's typed values: a placeholder, its DynamoDB type and the text typed for it.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::error::Result;
use crate::value::AttrType;

/// One value placeholder of the builder: `:one` is an `N` typed as `1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRow {
    /// The placeholder, `:one`.
    pub placeholder: String,
    /// Its type.
    pub kind: AttrType,
    /// The text typed for it.
    pub text: String,
}

impl ValueRow {
    /// A row for `placeholder` holding `value`, written as the builder shows it.
    pub fn new(placeholder: &str, value: &AttributeValue) -> Self {
        let (kind, text) = AttrType::text_of(value);
        Self {
            placeholder: placeholder.to_owned(),
            kind,
            text,
        }
    }

    /// The value the row describes.
    pub fn value(&self) -> Result<AttributeValue> {
        self.kind.parse(&self.text)
    }
}
