//! A pasted request, parsed back into the builder: the low-level JSON, or the AWS CLI command
//! "Copy as AWS CLI" writes.

use std::collections::HashMap;

use crate::error::{Error, Result};
use crate::expr::builder::{Field, Input, Kind};
use crate::expr::codegen::shell_words;
use crate::value;

/// The AWS CLI's options that carry a request field, with the field's name and whether its
/// value is JSON.
const REQUEST_OPTIONS: [(&str, &str, bool); 11] = [
    ("table-name", "TableName", false),
    ("index-name", "IndexName", false),
    ("key", "Key", true),
    ("item", "Item", true),
    ("update-expression", "UpdateExpression", false),
    ("condition-expression", "ConditionExpression", false),
    ("key-condition-expression", "KeyConditionExpression", false),
    ("filter-expression", "FilterExpression", false),
    ("projection-expression", "ProjectionExpression", false),
    (
        "expression-attribute-names",
        "ExpressionAttributeNames",
        true,
    ),
    (
        "expression-attribute-values",
        "ExpressionAttributeValues",
        true,
    ),
];

/// Options taken and set aside: where to connect (the builder runs on the app's connection),
/// what to ask back (the builder asks what it always does for the operation), and binary values
/// in base64 (as the builder holds them; checked below).
const SET_ASIDE: [&str; 8] = [
    "cli-binary-format",
    "endpoint-url",
    "region",
    "profile",
    "output",
    "return-values",
    "return-consumed-capacity",
    "return-values-on-condition-check-failure",
];

/// Whether an option set aside can be: binary values are read here in base64 only.
fn readable(option: &str, value: &str) -> Result<()> {
    if option == "cli-binary-format" && value != "base64" {
        return Err(Error::Invalid(format!(
            "--cli-binary-format {value}: binary values are read here in base64 only"
        )));
    }
    Ok(())
}

impl Input {
    /// Parse a pasted request: an `aws dynamodb …` command (see [`from_aws_cli`]
    /// (Self::from_aws_cli)) or the low-level JSON (see [`from_request_json`]
    /// (Self::from_request_json)).
    pub fn from_paste(text: &str) -> Result<Self> {
        let start = text.trim_start();
        // A command copied for this machine begins with its stand-in credentials.
        if start.starts_with("aws") || start.starts_with("AWS_") {
            Self::from_aws_cli(text)
        } else {
            Self::from_request_json(text)
        }
    }

    /// Parse a pasted low-level request (`{"TableName": …, "UpdateExpression": …,
    /// "ExpressionAttributeNames": …, "ExpressionAttributeValues": …}`) back into the builder.
    pub(crate) fn from_request_json(text: &str) -> Result<Self> {
        let json = crate::value::strict::parse(text).map_err(|e| {
            Error::Invalid(format!(
                "not a JSON request (nor an `aws dynamodb` command): {}",
                crate::value::strict::error_text(&e)
            ))
        })?;
        Self::from_request_value(&json, None)
    }

    /// Parse a pasted AWS CLI command, as "Copy as AWS CLI" writes it: `aws dynamodb
    /// update-item|put-item|delete-item|query|scan --table-name … --key '…' …`, quoted for bash,
    /// with line continuations. Where it connects is set aside; an option the builder does not
    /// hold is refused, by name.
    pub(crate) fn from_aws_cli(text: &str) -> Result<Self> {
        let mut words = shell_words(text).map_err(Error::Invalid)?.into_iter();
        let mut positional = Vec::new();
        let mut options = Vec::new();
        let mut unknown = None;
        while let Some(word) = words.next() {
            let Some(option) = word.strip_prefix("--") else {
                // `NAME=value` before the command sets its environment (the stand-in
                // credentials of a command copied for this machine): set aside.
                let assignment = positional.is_empty()
                    && word.split_once('=').is_some_and(|(name, _)| {
                        name.chars()
                            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                    });
                if !assignment {
                    positional.push(word);
                }
                continue;
            };
            let (option, inline) = match option.split_once('=') {
                Some((option, value)) => (option.to_owned(), Some(value.to_owned())),
                None => (option.to_owned(), None),
            };
            let known = REQUEST_OPTIONS.iter().any(|o| o.0 == option)
                || SET_ASIDE.contains(&option.as_str());
            if !known {
                if option == "no-cli-pager" {
                    continue;
                }
                // Whether it takes a value is not known: nothing after it can be read.
                unknown = Some(option);
                break;
            }
            let value = inline
                .or_else(|| words.next())
                .ok_or_else(|| Error::Invalid(format!("--{option} needs a value")))?;
            readable(&option, &value)?;
            options.push((option, value));
        }
        let kind = match positional
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["aws", "dynamodb", "update-item"] => Kind::Update,
            ["aws", "dynamodb", "put-item"] => Kind::Put,
            ["aws", "dynamodb", "delete-item"] => Kind::Delete,
            ["aws", "dynamodb", "query"] => Kind::Query,
            ["aws", "dynamodb", "scan"] => Kind::Scan,
            other => {
                return Err(Error::Invalid(format!(
                    "`{}`: the builder takes aws dynamodb update-item, put-item, delete-item, query or scan",
                    other.join(" ")
                )));
            }
        };
        if let Some(option) = unknown {
            return Err(Error::Invalid(format!(
                "--{option} is not part of what the builder holds: remove it to paste"
            )));
        }
        let mut request = serde_json::Map::new();
        for (option, text) in options {
            let Some((_, field, is_json)) = REQUEST_OPTIONS.iter().find(|o| o.0 == option) else {
                continue; // set aside
            };
            let value = if *is_json {
                crate::value::strict::parse(&text).map_err(|e| {
                    let why = crate::value::strict::error_text(&e);
                    Error::Invalid(match why.strip_prefix("not valid JSON: ") {
                        Some(why) => format!("--{option} is not JSON ({why}): {text}"),
                        None => format!("--{option}: {why}: {text}"),
                    })
                })?
            } else {
                serde_json::Value::String(text)
            };
            request.insert((*field).to_owned(), value);
        }
        Self::from_request_value(&serde_json::Value::Object(request), Some(kind))
    }

    /// The builder's input for a request in its JSON form; its kind told, or read from the
    /// fields it has.
    fn from_request_value(json: &serde_json::Value, kind: Option<Kind>) -> Result<Self> {
        let string = |field: &str| json.get(field).and_then(|v| v.as_str()).map(str::to_owned);
        let mut input = Self::new(&string("TableName").unwrap_or_default());
        for (field, name) in [
            (Field::Update, "UpdateExpression"),
            (Field::Condition, "ConditionExpression"),
            (Field::KeyCondition, "KeyConditionExpression"),
            (Field::Filter, "FilterExpression"),
            (Field::Projection, "ProjectionExpression"),
        ] {
            if let Some(text) = string(name) {
                input.texts.insert(field, text);
            }
        }
        input.index = string("IndexName");
        input.kind = kind.unwrap_or(if input.texts.contains_key(&Field::Update) {
            Kind::Update
        } else if input.texts.contains_key(&Field::KeyCondition) {
            Kind::Query
        } else if json.get("Item").is_some() {
            Kind::Put
        } else if json.get("Key").is_some() {
            Kind::Delete
        } else {
            Kind::Scan
        });
        if let Some(item) = json.get("Key").or_else(|| json.get("Item")) {
            input.item = Some(value::item_from_json_value(item)?);
        }
        let names: HashMap<String, String> = match json.get("ExpressionAttributeNames") {
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| Error::Invalid(format!("ExpressionAttributeNames: {e}")))?,
            None => HashMap::new(),
        };
        let values = match json.get("ExpressionAttributeValues") {
            Some(v) => value::item_from_json_value(v)?,
            None => HashMap::new(),
        };
        input.set_maps(&names, &values);
        Ok(input)
    }
}
