//! Counter edits: change a number attribute by an exact delta, sent as `ADD`, as
//! `SET … if_not_exists(…) + :d`, or exactly with a condition on the value seen.
//!
//! Everything here is pure: checking what the user typed, computing the delta with
//! `bigdecimal` (never `f64`), and writing the request as DynamoDB JSON or an AWS CLI command.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::core::error::{Error, Result};
use crate::core::expr::codegen::{Operation, Request, Target};
use crate::core::number;
use crate::core::value::{self, Item};

/// How the change is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EditMode {
    /// `ADD #a :d` — atomic; a missing attribute starts from 0. Never retried once sent.
    Add,
    /// `SET #a = if_not_exists(#a, :zero) + :d` — the same effect written as SET.
    SetFromZero,
    /// `SET #a = :next` if `#a = :current` — exact and safe to retry; fails if someone else
    /// changed the value in between.
    Exact,
}

impl EditMode {
    /// Every mode, in the order offered.
    pub const ALL: [Self; 3] = [Self::Add, Self::SetFromZero, Self::Exact];

    /// A short name.
    pub fn label(self) -> &'static str {
        match self {
            Self::Add => "ADD",
            Self::SetFromZero => "SET if_not_exists + d",
            Self::Exact => "Exact (conditional SET)",
        }
    }

    /// One line on what the mode does.
    pub fn explain(self) -> &'static str {
        match self {
            Self::Add => {
                "Atomic server-side add; a missing attribute starts from 0. Not idempotent: never re-sent blindly."
            }
            Self::SetFromZero => {
                "SET #a = if_not_exists(#a, :zero) + :d: the same atomic add, written as SET."
            }
            Self::Exact => {
                "SET #a = :next only if #a still equals the value you saw; safe to retry, fails on a race."
            }
        }
    }

    /// Whether the SDK may retry the request by itself.
    pub fn retry_is_safe(self) -> bool {
        self == Self::Exact
    }

    /// The CLI spelling.
    pub fn cli_name(self) -> &'static str {
        match self {
            Self::Add => "add",
            Self::SetFromZero => "set",
            Self::Exact => "exact",
        }
    }
}

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

/// The number as DynamoDB should receive it: plain digits, no trailing zeros.
pub fn to_dynamodb(value: &BigDecimal) -> String {
    if value == &BigDecimal::default() {
        return "0".to_owned();
    }
    value.normalized().to_plain_string()
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
    /// The request in the expression builder's terms, so that it renders in every language.
    pub fn request(&self) -> Request {
        let mut options = vec![
            ("ReturnValues", "UPDATED_NEW"),
            ("ReturnConsumedCapacity", "TOTAL"),
        ];
        if self.condition_expression.is_some() {
            options.push(("ReturnValuesOnConditionCheckFailure", "ALL_OLD"));
        }
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
            options,
        }
    }

    /// The request as low-level DynamoDB JSON (what `aws dynamodb update-item --cli-input-json`
    /// and the HTTP API take).
    pub fn to_json(&self) -> String {
        self.request().render(Target::Json)
    }

    /// The request as an AWS CLI command, quoted for bash.
    pub fn to_aws_cli(&self) -> String {
        self.request().render(Target::Cli)
    }
}

/// How a counter edit ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The server applied it and returned the new value.
    Applied {
        /// The value the server returned (`UPDATED_NEW`).
        new_value: Option<String>,
        /// Write capacity consumed.
        consumed_wcu: f64,
        /// Requests sent (more than one only after throttling rejections).
        attempts: u32,
    },
    /// Exact mode: someone else changed the value; nothing was written.
    ConditionFailed {
        /// The value the server holds now (`ALL_OLD` on the failed condition).
        current: Option<String>,
    },
    /// The request may have reached the server but no answer came back. Nothing was re-sent.
    Unknown {
        /// What happened to the request.
        error: Error,
        /// The value stored now, read again with a consistent read.
        stored_now: std::result::Result<Option<String>, Error>,
    },
    /// The server refused it (or it never left): nothing changed.
    Failed(Error),
}

/// A finished edit: what was asked and how it ended.
#[derive(Debug, Clone, PartialEq)]
pub struct EditReport {
    /// The request that was sent.
    pub plan: UpdatePlan,
    /// How it ended.
    pub outcome: Outcome,
}

impl EditReport {
    /// When the server's new value differs from the one expected: by how much (someone else
    /// changed the value in between).
    pub fn interference(&self) -> Option<BigDecimal> {
        let Outcome::Applied {
            new_value: Some(new),
            ..
        } = &self.outcome
        else {
            return None;
        };
        let new = number::parse(new).ok()?;
        let diff = &new - &self.plan.planned.expected;
        (diff != BigDecimal::default()).then_some(diff)
    }
}

/// Quote `text` for bash: single quotes, with embedded single quotes closed and escaped.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
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
        let cli = add.to_aws_cli();
        assert!(cli.contains("--update-expression 'ADD #a :d'"), "{cli}");
        assert!(
            cli.contains(r#"--expression-attribute-values '{":d":{"N":"1"}}'"#),
            "{cli}"
        );
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }
}
