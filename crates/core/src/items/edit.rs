//! An item as the editor holds it: a form of typed fields (nested maps, lists and sets as the
//! JSON of their contents), or one text of DynamoDB JSON or plain JSON. Reading either back
//! checks every value and says where a mistake is: the field, or the line and column.

use std::collections::HashSet;

use aws_sdk_dynamodb::types::AttributeValue;
use serde_json::Value;

use crate::error::Result;
use crate::position::TextPosition;
use crate::value::{self, AttrType, Item, Style, json, strict};

/// One attribute in the form: its name, its type tag, and its value as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The attribute name.
    pub name: String,
    /// Its type.
    pub kind: AttrType,
    /// The value: the text itself for `S`, the number for `N`, base64 for `B`, `true` or
    /// `false`, nothing for `NULL`, and the JSON of the contents for `M` (DynamoDB JSON of an
    /// object), `L` (DynamoDB JSON of an array) and the sets (an array of strings).
    pub text: String,
}

impl Field {
    /// A field showing `value`.
    pub fn of(name: &str, value: &AttributeValue) -> Self {
        let (kind, text) = AttrType::text_of(value);
        Self {
            name: name.to_owned(),
            kind,
            text,
        }
    }

    /// The value the field holds, or why it holds none.
    pub fn value(&self) -> Result<AttributeValue> {
        self.kind.parse(&self.text)
    }
}

/// A mistake in the form: which row (from 0), which attribute, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    /// The row of the form.
    pub row: usize,
    /// The attribute name as typed.
    pub name: String,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = if self.name.is_empty() {
            format!("row {}", self.row + 1)
        } else {
            format!("`{}`", self.name)
        };
        write!(f, "{name}: {}", self.message)
    }
}

/// The fields of `item`, key attributes first (`key_names`), then by name.
pub fn fields_of(item: &Item, key_names: &[String]) -> Vec<Field> {
    value::ordered_names(item, key_names)
        .into_iter()
        .filter_map(|name| item.get(name).map(|v| Field::of(name, v)))
        .collect()
}

/// The item the form holds; every mistake, one per field, when it holds none.
pub fn item_of(fields: &[Field]) -> std::result::Result<Item, Vec<FieldError>> {
    let mut item = Item::new();
    let mut errors = Vec::new();
    let mut seen = HashSet::new();
    for (row, field) in fields.iter().enumerate() {
        let error = |message: String| FieldError {
            row,
            name: field.name.clone(),
            message,
        };
        if field.name.is_empty() {
            errors.push(error("an attribute needs a name".into()));
            continue;
        }
        if !seen.insert(field.name.as_str()) {
            errors.push(error("this name is used twice".into()));
            continue;
        }
        match field.value() {
            Ok(v) => {
                item.insert(field.name.clone(), v);
            }
            Err(e) => errors.push(error(e.reason())),
        }
    }
    if errors.is_empty() {
        Ok(item)
    } else {
        Err(errors)
    }
}

/// How the item is written as one text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextFormat {
    /// `{"likeTally": {"N": "3"}}`: every type said.
    DynamoDb,
    /// `{"likeTally": 3}`: types inferred; a set or binary left as it was read stays so.
    Plain,
}

/// `item` as text in `format`, one attribute a line, keys first.
pub fn item_text(item: &Item, key_names: &[String], format: TextFormat) -> String {
    match format {
        TextFormat::DynamoDb => value::item_to_dynamodb_json(item, key_names, true),
        TextFormat::Plain => value::item_to_plain_json(item, key_names, true),
    }
}

/// A mistake in an item's text, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    /// Where (the attribute's name, when the mistake is in its value).
    pub at: TextPosition,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

/// The item written in `text` (`format`). In plain JSON an attribute whose plain value is
/// unchanged from `was` keeps its type from `was` (a set stays a set, binary stays binary).
pub fn item_from_text(
    text: &str,
    format: TextFormat,
    was: Option<&Item>,
) -> std::result::Result<Item, TextError> {
    let json: Value = strict::parse(text).map_err(|e| {
        let message = strict::message_of(&e);
        let at = TextPosition {
            offset: 0,
            line: e.line(),
            column: e.column(),
        };
        TextError { at, message }
    })?;
    let object = json.as_object().ok_or_else(|| TextError {
        at: TextPosition::in_text(text, 0),
        message: "an item is a JSON object of attributes".into(),
    })?;
    let mut item = Item::new();
    for (name, v) in object {
        let at = |message: String| TextError {
            at: TextPosition::in_text(text, attribute_offset(text, name)),
            message: format!("`{name}`: {message}"),
        };
        let value = match format {
            TextFormat::DynamoDb => value::value_from_json(v).map_err(|e| at(e.reason()))?,
            TextFormat::Plain => {
                let kept = was
                    .and_then(|w| w.get(name))
                    .filter(|old| json::value_to_json(old, Style::Plain) == *v);
                match kept {
                    Some(old) => old.clone(),
                    None => crate::value::json::plain_value(v).map_err(|e| at(e.reason()))?,
                }
            }
        };
        item.insert(name.clone(), value);
    }
    Ok(item)
}

/// Where attribute `name` is written in `text` (its quoted name), or the start.
fn attribute_offset(text: &str, name: &str) -> usize {
    let quoted = serde_json::to_string(name).unwrap_or_default();
    text.find(&format!("{quoted}:"))
        .or_else(|| text.find(&quoted))
        .unwrap_or(0)
}
