//! Planning a counter edit, purely: checking what the user typed against the item, computing the
//! exact delta with `bigdecimal` (never `f64`), and building the `UpdateItem` request.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::core::counter::EditMode;
use crate::core::error::{Error, Result};
use crate::core::expr::codegen::{
    ClientSetup, Operation, Request, ReturnOptions, ReturnValues, Target,
};
use crate::core::number::{self, to_dynamodb};
use crate::core::table::TableInfo;
use crate::core::value::{self, Item};

/// What the user typed: a new value or a delta.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Make the value this.
    To(String),
    /// Change the value by this much.
    By(String),
}

/// A checked change: the value seen, the exact delta and the value expected afterwards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The value the user saw (`None`: the attribute is missing, ADD starts from 0).
    pub current: Option<BigDecimal>,
    /// The delta to send.
    pub delta: BigDecimal,
    /// `current + delta`.
    pub expected: BigDecimal,
}

impl Planned {
    /// Whether the edit creates the attribute.
    pub fn creates(&self) -> bool {
        self.current.is_none()
    }
}

/// Check `change` against the value seen (`current`, as stored) and compute the exact delta.
/// Nothing that fails here is ever sent.
pub fn plan(current: Option<&str>, change: &Change) -> Result<Planned> {
    let invalid = |what: &str, e: number::NumberError| Error::Invalid(format!("{what}: {e}"));
    let current = current
        .map(|c| number::parse(c).map_err(|e| invalid("the stored value", e)))
        .transpose()?;
    let base = current.clone().unwrap_or_default();
    let (delta, expected) = match change {
        Change::To(text) => {
            let next = number::parse(text).map_err(|e| invalid("new value", e))?;
            (&next - &base, next)
        }
        Change::By(text) => {
            let delta = number::parse(text).map_err(|e| invalid("delta", e))?;
            let expected = &base + &delta;
            (delta, expected)
        }
    };
    if delta == BigDecimal::default() {
        return Err(Error::Invalid(
            "the value would not change; nothing to send".into(),
        ));
    }
    number::parse(&to_dynamodb(&delta)).map_err(|e| invalid("the delta", e))?;
    number::parse(&to_dynamodb(&expected)).map_err(|e| invalid("the result", e))?;
    Ok(Planned {
        current,
        delta,
        expected,
    })
}

/// An `UpdateItem` request for a counter edit.
#[derive(Debug, Clone, PartialEq)]
pub struct UpdatePlan {
    /// Table name.
    pub table: String,
    /// The item's key.
    pub key: Item,
    /// The number attribute.
    pub attribute: String,
    /// How it is sent.
    pub mode: EditMode,
    /// The checked change.
    pub planned: Planned,
    /// `UpdateExpression`.
    pub update_expression: String,
    /// `ConditionExpression` (exact mode only).
    pub condition_expression: Option<String>,
    /// `ExpressionAttributeNames`.
    pub names: HashMap<String, String>,
    /// `ExpressionAttributeValues`.
    pub values: HashMap<String, AttributeValue>,
}

/// Refuse key attributes: changing one would address a different item.
pub fn check_editable(key: &Item, attribute: &str) -> Result<()> {
    if attribute.trim().is_empty() {
        return Err(Error::Invalid(
            "type the name of the number attribute to change".into(),
        ));
    }
    if key.contains_key(attribute) {
        return Err(Error::Invalid(format!(
            "`{attribute}` is part of the key: changing it would make a different item, so it is not editable"
        )));
    }
    Ok(())
}

/// The stored number of `attribute` (`None` when missing); other types are refused, since ADD
/// works only on numbers (and sets).
pub fn stored_number(attribute: &str, stored: Option<&AttributeValue>) -> Result<Option<String>> {
    match stored {
        None => Ok(None),
        Some(AttributeValue::N(n)) => Ok(Some(n.clone())),
        Some(other) => Err(Error::Invalid(format!(
            "`{attribute}` is {}, not a number: ADD works only on numbers",
            value::type_tag(other)
        ))),
    }
}

/// Build the request for changing `attribute` of the item at `key`. Key attributes are refused.
pub fn update_plan(
    table: &str,
    key: Item,
    attribute: &str,
    mode: EditMode,
    planned: Planned,
) -> Result<UpdatePlan> {
    check_editable(&key, attribute)?;
    let n = |v: &BigDecimal| AttributeValue::N(to_dynamodb(v));
    let names = HashMap::from([("#a".to_owned(), attribute.to_owned())]);
    let (update_expression, condition_expression, values) = match mode {
        EditMode::Add => (
            "ADD #a :d".to_owned(),
            None,
            HashMap::from([(":d".to_owned(), n(&planned.delta))]),
        ),
        EditMode::SetFromZero => (
            "SET #a = if_not_exists(#a, :zero) + :d".to_owned(),
            None,
            HashMap::from([
                (":zero".to_owned(), AttributeValue::N("0".into())),
                (":d".to_owned(), n(&planned.delta)),
            ]),
        ),
        EditMode::Exact => {
            let mut values = HashMap::from([(":next".to_owned(), n(&planned.expected))]);
            let condition = match &planned.current {
                Some(current) => {
                    values.insert(":current".to_owned(), n(current));
                    "#a = :current"
                }
                None => "attribute_not_exists(#a)",
            };
            (
                "SET #a = :next".to_owned(),
                Some(condition.to_owned()),
                values,
            )
        }
    };
    Ok(UpdatePlan {
        table: table.to_owned(),
        key,
        attribute: attribute.to_owned(),
        mode,
        planned,
        update_expression,
        condition_expression,
        names,
        values,
    })
}

impl UpdatePlan {
    /// The request in the code generator's terms, so that it renders in every language.
    pub fn request(&self) -> Request {
        Request {
            table: self.table.clone(),
            operation: Operation::Update(self.key.clone()),
            update: Some(self.update_expression.clone()),
            condition: self.condition_expression.clone(),
            key_condition: None,
            filter: None,
            projection: None,
            names: self.names.clone(),
            values: self.values.clone(),
            returns: ReturnOptions {
                values: Some(ReturnValues::UpdatedNew),
                consumed_capacity: true,
                old_item_on_condition_failure: self.condition_expression.is_some(),
            },
        }
    }

    /// The request's expressions, names and values, a line each, as shown beside a card.
    pub fn request_lines(&self) -> Vec<String> {
        let mut lines = vec![format!("UpdateExpression: {}", self.update_expression)];
        if let Some(condition) = &self.condition_expression {
            lines.push(format!("ConditionExpression: {condition}"));
        }
        let mut names: Vec<_> = self.names.iter().collect();
        names.sort();
        for (k, v) in names {
            lines.push(format!("{k} = {v}"));
        }
        let mut values: Vec<_> = self.values.iter().collect();
        values.sort_by(|a, b| a.0.cmp(b.0));
        for (k, v) in values {
            lines.push(format!("{k} = {}", value::dynamodb_json(v)));
        }
        lines
    }

    /// The request as low-level DynamoDB JSON (what `aws dynamodb update-item --cli-input-json`
    /// and the HTTP API take).
    pub fn to_json(&self) -> String {
        self.request().render(Target::Json, &ClientSetup::default())
    }

    /// The request as an AWS CLI command, quoted for bash, sent where `setup` says (the
    /// connection the edit was made on: see `Connection::client_setup`).
    pub fn to_aws_cli(&self, setup: &ClientSetup) -> String {
        self.request().render(Target::Cli, setup)
    }
}

/// An edit the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditRequest {
    /// The number attribute.
    pub attribute: String,
    /// The change.
    pub change: Change,
    /// The value to start from (`None`: the one in the item). Set when retrying from the
    /// server's value after a failed condition.
    pub from: Option<String>,
}

/// Check `request` on the item at `key` before anything is read or sent: not a key attribute,
/// and an amount that is a DynamoDB number (a delta that is not 0).
pub fn check_request(key: &Item, request: &EditRequest) -> Result<()> {
    check_editable(key, &request.attribute)?;
    match &request.change {
        Change::By(_) => plan(Some("0"), &request.change).map(|_| ()),
        Change::To(value) => number::parse(value)
            .map(|_| ())
            .map_err(|e| Error::Invalid(format!("new value: {e}"))),
    }
}

/// Plan `request` on `item` of table `info` (as loaded in the grid, or as just read): the item's
/// key, the value seen (or `request.from`), the exact delta, and the request sent in `mode`. The
/// app and the CLI both plan here; nothing that fails is ever sent.
pub fn plan_edit(
    info: &TableInfo,
    item: &Item,
    request: &EditRequest,
    mode: EditMode,
) -> Result<UpdatePlan> {
    let key = info.key_of(item)?;
    check_editable(&key, &request.attribute)?;
    let current = match &request.from {
        Some(from) => Some(from.clone()),
        None => stored_number(&request.attribute, item.get(&request.attribute))?,
    };
    let planned = plan(current.as_deref(), &request.change)?;
    update_plan(&info.name, key, &request.attribute, mode, planned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Item {
        HashMap::from([
            ("PK".to_owned(), AttributeValue::S("VID#9f3a".into())),
            ("SK".to_owned(), AttributeValue::S("STATS#TOTAL".into())),
        ])
    }

    #[test]
    fn a_new_value_becomes_an_exact_delta() {
        let p = plan(Some("41"), &Change::To("42".into())).unwrap();
        assert_eq!(to_dynamodb(&p.delta), "1");
        let big = "12345678901234567890123456789012345678";
        let p = plan(Some(big), &Change::By("-0.5".into()));
        // 38 digits plus a fraction would need 39 significant digits.
        assert!(p.is_err());
        let p = plan(Some(big), &Change::By("-8".into())).unwrap();
        assert_eq!(
            to_dynamodb(&p.expected),
            "12345678901234567890123456789012345670"
        );
        let p = plan(Some("0.1"), &Change::By("0.2".into())).unwrap();
        assert_eq!(to_dynamodb(&p.expected), "0.3", "no binary floating point");
    }

    #[test]
    fn a_missing_attribute_starts_from_zero() {
        let p = plan(None, &Change::By("5".into())).unwrap();
        assert!(p.creates());
        assert_eq!(to_dynamodb(&p.expected), "5");
    }

    #[test]
    fn bad_input_is_refused_before_any_request() {
        for bad in [
            "",
            "abc",
            "NaN",
            "inf",
            "1e400",
            "123456789012345678901234567890123456789",
        ] {
            assert!(plan(Some("1"), &Change::By(bad.into())).is_err(), "{bad:?}");
            assert!(plan(Some("1"), &Change::To(bad.into())).is_err(), "{bad:?}");
        }
        assert!(
            plan(Some("1"), &Change::To("1".into())).is_err(),
            "no change"
        );
        let out_of_range = plan(
            Some("9.9999999999999999999999999999999999999E+125"),
            &Change::By("9E+125".into()),
        );
        assert!(out_of_range.is_err(), "the result would be out of range");
    }

    #[test]
    fn requests_per_mode() {
        let p = plan(Some("41"), &Change::By("1".into())).unwrap();
        let add = update_plan("Videos", key(), "count", EditMode::Add, p.clone()).unwrap();
        assert_eq!(add.update_expression, "ADD #a :d");
        assert_eq!(
            add.names["#a"], "count",
            "a reserved word goes through a placeholder"
        );
        let set = update_plan("Videos", key(), "count", EditMode::SetFromZero, p.clone()).unwrap();
        assert_eq!(set.values[":zero"], AttributeValue::N("0".into()));
        let exact = update_plan("Videos", key(), "count", EditMode::Exact, p).unwrap();
        assert_eq!(exact.condition_expression.as_deref(), Some("#a = :current"));
        assert_eq!(exact.values[":next"], AttributeValue::N("42".into()));
        assert_eq!(exact.values[":current"], AttributeValue::N("41".into()));
        assert!(
            update_plan(
                "Videos",
                key(),
                "PK",
                EditMode::Add,
                plan(None, &Change::By("1".into())).unwrap()
            )
            .is_err()
        );
    }

    #[test]
    fn copy_as_json_and_cli() {
        let p = plan(Some("41"), &Change::By("1".into())).unwrap();
        let add = update_plan("Videos", key(), "play_count", EditMode::Add, p).unwrap();
        let json: serde_json::Value = serde_json::from_str(&add.to_json()).unwrap();
        assert_eq!(json["UpdateExpression"], "ADD #a :d");
        assert_eq!(json["ExpressionAttributeValues"][":d"]["N"], "1");
        assert_eq!(json["Key"]["PK"]["S"], "VID#9f3a");
        let cli = add.to_aws_cli(&ClientSetup::default());
        assert!(cli.contains("--update-expression 'ADD #a :d'"), "{cli}");
        assert!(
            cli.contains(r#"--expression-attribute-values '{":d":{"N":"1"}}'"#),
            "{cli}"
        );
    }
}
