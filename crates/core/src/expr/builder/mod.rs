//! The expression builder's model: the fields a person fills in, compiled into one request with
//! fresh placeholders, each field's error at its position, and the way back from a pasted
//! request or from a request the app made.

mod compile;
mod paste;
mod values;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expr::codegen::{Operation, Request};
use crate::value::Item;

pub use compile::{Compiled, compile};
pub use values::ValueRow;

/// What the request does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// UpdateItem on the target item.
    Update,
    /// A conditional DeleteItem of the target item.
    Delete,
    /// A conditional PutItem of the target item.
    Put,
    /// Query.
    Query,
    /// Scan.
    Scan,
}

impl Kind {
    /// Every kind, in the order offered.
    pub const ALL: [Self; 5] = [
        Self::Update,
        Self::Delete,
        Self::Put,
        Self::Query,
        Self::Scan,
    ];

    /// How it is shown.
    pub fn label(self) -> &'static str {
        match self {
            Self::Update => "UpdateItem",
            Self::Delete => "DeleteItem",
            Self::Put => "PutItem",
            Self::Query => "Query",
            Self::Scan => "Scan",
        }
    }

    /// Which expression fields apply.
    pub fn fields(self) -> &'static [Field] {
        match self {
            Self::Update => &[Field::Update, Field::Condition],
            Self::Delete | Self::Put => &[Field::Condition],
            Self::Query => &[Field::KeyCondition, Field::Filter, Field::Projection],
            Self::Scan => &[Field::Filter, Field::Projection],
        }
    }
}

/// One of the expression fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// `UpdateExpression`
    Update,
    /// `ConditionExpression`
    Condition,
    /// `KeyConditionExpression`
    KeyCondition,
    /// `FilterExpression`
    Filter,
    /// `ProjectionExpression`
    Projection,
}

impl Field {
    /// The API's name of the field.
    pub fn name(self) -> &'static str {
        match self {
            Self::Update => "UpdateExpression",
            Self::Condition => "ConditionExpression",
            Self::KeyCondition => "KeyConditionExpression",
            Self::Filter => "FilterExpression",
            Self::Projection => "ProjectionExpression",
        }
    }
}

/// What the person filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// The operation.
    pub kind: Kind,
    /// Table name.
    pub table: String,
    /// The target item's key (update, delete), or the item (put).
    pub item: Option<Item>,
    /// Index for Query / Scan.
    pub index: Option<String>,
    /// The expression texts, by field.
    pub texts: HashMap<Field, String>,
    /// Name placeholders: `#x` → attribute name.
    pub names: Vec<(String, String)>,
    /// Value placeholders with their types.
    pub values: Vec<ValueRow>,
}

impl Input {
    /// An empty builder for `table`.
    pub fn new(table: &str) -> Self {
        Self {
            kind: Kind::Update,
            table: table.to_owned(),
            item: None,
            index: None,
            texts: HashMap::new(),
            names: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The text of `field`.
    pub fn text(&self, field: Field) -> &str {
        self.texts.get(&field).map_or("", String::as_str)
    }

    /// Load a request the app made (an ADD edit, a repair, a like's update of the parent):
    /// "open in builder".
    pub fn from_request(request: &Request) -> Self {
        let mut input = Self::new(&request.table);
        let (kind, item, index) = match &request.operation {
            Operation::Update(key) => (Kind::Update, Some(key.clone()), None),
            Operation::Delete(key) => (Kind::Delete, Some(key.clone()), None),
            Operation::Put(item) => (Kind::Put, Some(item.clone()), None),
            Operation::Query(index) => (Kind::Query, None, index.clone()),
            Operation::Scan(index) => (Kind::Scan, None, index.clone()),
        };
        input.kind = kind;
        input.item = item;
        input.index = index;
        for (field, text) in [
            (Field::Update, &request.update),
            (Field::Condition, &request.condition),
            (Field::KeyCondition, &request.key_condition),
            (Field::Filter, &request.filter),
            (Field::Projection, &request.projection),
        ] {
            if let Some(text) = text {
                input.texts.insert(field, text.clone());
            }
        }
        input.set_maps(&request.names, &request.values);
        input
    }

    fn set_maps(
        &mut self,
        names: &HashMap<String, String>,
        values: &HashMap<String, AttributeValue>,
    ) {
        self.names = names.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        self.names.sort();
        self.values = values.iter().map(|(k, v)| ValueRow::new(k, v)).collect();
        self.values
            .sort_by(|a, b| a.placeholder.cmp(&b.placeholder));
    }

    /// The input as it compiles: for an update or delete, the item is reduced to its key
    /// (`key_names`), which is all such a request addresses.
    #[must_use]
    pub fn addressing(&self, key_names: &[String]) -> Self {
        let mut input = self.clone();
        if input.kind != Kind::Put
            && let Some(item) = &input.item
        {
            input.item = Some(
                item.iter()
                    .filter(|(k, _)| key_names.contains(k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            );
        }
        input
    }
}

#[cfg(test)]
mod paste_tests;
#[cfg(test)]
mod tests;
