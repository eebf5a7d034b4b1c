//! The requests the target checks copy: one of each kind, hostile text in keys, names and
//! values, and where each connects; what a request's body says its code must carry.

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::expr::codegen::{
    ClientSetup, Operation, Request, ReturnOptions, ReturnValues, Target, Transaction,
};
use dynoscope_core::statement::Statement;
use dynoscope_core::value::Style;
use serde_json::Value;

use crate::common::served::dynoscope;

/// Text that ends every kind of string it can: quotes, `$`, `${…}`, `#{}`, a command
/// substitution, backquotes, a new line, a bidirectional override, an emoji, a control.
pub(super) const HOSTILE: &str =
    "it's \"q\" $HOME ${x} #{y} $(touch CANARY) `touch CANARY` \\n\n\u{202e}\u{1f600}\u{1}";

pub(super) fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

pub(super) fn n(text: &str) -> AttributeValue {
    AttributeValue::N(text.to_owned())
}

pub(super) fn request(table: &str, operation: Operation) -> Request {
    Request {
        table: table.to_owned(),
        operation,
        update: None,
        condition: None,
        key_condition: None,
        filter: None,
        projection: None,
        names: HashMap::new(),
        values: HashMap::new(),
        returns: ReturnOptions::default(),
    }
}

pub(super) fn key(pk: &str, sk: &str) -> HashMap<String, AttributeValue> {
    HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s(sk))])
}

/// An item of every type, the hostile text in a value and in an attribute name.
pub(super) fn every_type(pk: &str) -> HashMap<String, AttributeValue> {
    let mut item = key(pk, "ITEM");
    let blob = |b: &[u8]| Blob::new(b.to_vec());
    item.extend([
        ("text".to_owned(), s(HOSTILE)),
        (HOSTILE.to_owned(), n("1")),
        (
            "big".to_owned(),
            n("12345678901234567890123456789012345678"),
        ),
        (
            "fraction".to_owned(),
            n("-0.000000000000000000000000000000000001"),
        ),
        (
            "bytes".to_owned(),
            AttributeValue::B(blob(&[0, 1, 0xff, b'"'])),
        ),
        ("yes".to_owned(), AttributeValue::Bool(true)),
        ("nothing".to_owned(), AttributeValue::Null(true)),
        (
            "tags".to_owned(),
            AttributeValue::Ss(vec!["a".into(), HOSTILE.into()]),
        ),
        (
            "scores".to_owned(),
            AttributeValue::Ns(vec!["1".into(), "2.5".into()]),
        ),
        (
            "blobs".to_owned(),
            AttributeValue::Bs(vec![blob(b"x"), blob(&[0])]),
        ),
        (
            "list".to_owned(),
            AttributeValue::L(vec![n("1"), s("two"), AttributeValue::L(vec![])]),
        ),
        (
            "map".to_owned(),
            AttributeValue::M(HashMap::from([
                ("inner".to_owned(), s(HOSTILE)),
                ("empty".to_owned(), AttributeValue::M(HashMap::new())),
            ])),
        ),
    ]);
    item
}

/// The counter write: ADD under a condition, every return option.
pub(super) fn counter() -> Request {
    let mut r = request("Videos", Operation::Update(key("VID#9f3a", "STATS#TOTAL")));
    r.update = Some("ADD #n0 :d".into());
    r.condition = Some("#n0 < :max".into());
    r.names = HashMap::from([("#n0".into(), "play_count".into())]);
    r.values = HashMap::from([(":d".into(), n("5")), (":max".into(), n("1000000000"))]);
    r.returns = ReturnOptions {
        values: Some(ReturnValues::UpdatedNew),
        consumed_capacity: true,
        old_item_on_condition_failure: true,
    };
    r
}

pub(super) fn put(pk: &str) -> Request {
    let mut r = request("Videos", Operation::Put(every_type(pk)));
    r.condition = Some("attribute_not_exists(#pk)".into());
    r.names = HashMap::from([("#pk".into(), "PK".into())]);
    r.returns.consumed_capacity = true;
    r
}

pub(super) fn query() -> Request {
    let mut r = request("Social", Operation::Query(None));
    r.key_condition = Some("#pk = :p AND begins_with(#sk, :c)".into());
    r.filter = Some("#at > :t".into());
    r.projection = Some("#pk, #sk, #at".into());
    r.names = HashMap::from([
        ("#pk".into(), "PK".into()),
        ("#sk".into(), "SK".into()),
        ("#at".into(), "likedAt".into()),
    ]);
    r.values = HashMap::from([
        (":p".into(), s("POST#a91f")),
        (":c".into(), s("LIKE#")),
        (":t".into(), n("0")),
    ]);
    r
}

pub(super) fn scan() -> Request {
    let mut r = request("Videos", Operation::Scan(None));
    r.filter = Some("begins_with(#pk, :v)".into());
    r.names = HashMap::from([("#pk".into(), "PK".into())]);
    r.values = HashMap::from([(":v".into(), s("VID#"))]);
    r
}

pub(super) fn delete(pk: &str) -> Request {
    let mut r = request("Videos", Operation::Delete(key(pk, "ITEM")));
    r.condition = Some("attribute_exists(#pk)".into());
    r.names = HashMap::from([("#pk".into(), "PK".into())]);
    r
}

/// The like of `user` on POST#a91f: the tally's ADD and the child's conditional put.
pub(super) fn like(user: &str, token: &str) -> Transaction {
    let mut tally = request("Social", Operation::Update(key("POST#a91f", "META")));
    tally.update = Some("ADD #t :one".into());
    tally.names = HashMap::from([("#t".into(), "likeTally".into())]);
    tally.values = HashMap::from([(":one".into(), n("1"))]);
    let mut child = request(
        "Social",
        Operation::Put(key("POST#a91f", &format!("LIKE#{user}"))),
    );
    child.condition = Some("attribute_not_exists(#sk)".into());
    child.names = HashMap::from([("#sk".into(), "SK".into())]);
    Transaction {
        writes: vec![tally, child],
        token: Some(token.to_owned()),
        consumed_capacity: true,
    }
}

pub(super) fn statement() -> Statement {
    Statement {
        text: "SELECT * FROM \"Social\" WHERE PK = ? AND begins_with(SK, ?)".into(),
        params: vec![s("POST#a91f"), s("LIKE#")],
    }
}

/// An item in DynamoDB JSON, as `get --json` prints it.
pub(super) fn typed(item: &HashMap<String, AttributeValue>) -> Value {
    sets_sorted(dynoscope_core::value::json::item_to_json(
        item,
        &[],
        Style::Typed,
    ))
}

pub(super) fn local(url: &str) -> ClientSetup {
    ClientSetup {
        endpoint_url: Some(url.to_owned()),
        region: None,
        profile: None,
    }
}

/// `value` with every set's members sorted: a set has no order.
pub(super) fn sets_sorted(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("SS" | "NS" | "BS", Value::Array(mut members)) => {
                        members.sort_by_key(Value::to_string);
                        (k, Value::Array(members))
                    }
                    (_, v) => (k, sets_sorted(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(sets_sorted).collect()),
        other => other,
    }
}

/// The item `pk`/`sk` of `table` in DynamoDB JSON, as `dynoscope get --json` reads it, sets
/// sorted.
pub(super) fn stored(url: &str, table: &str, pk: &str, sk: &str) -> Value {
    let out = dynoscope(&[
        "--endpoint-url",
        url,
        "get",
        "--table",
        table,
        "--key",
        &format!("PK={pk}"),
        "--key",
        &format!("SK={sk}"),
        "--json",
    ]);
    sets_sorted(serde_json::from_slice(&out.stdout).unwrap_or(Value::Null))
}

/// The words a request's body holds that code must carry as strings: texts, every name and
/// value (binary as base64), the key's and the item's attribute names. Not the field names,
/// type tags or options, which each SDK spells its own way.
pub(super) fn body_strings(body: &Value, into: &mut Vec<String>) {
    for (field, value) in body.as_object().unwrap() {
        match field.as_str() {
            "TransactItems" => {
                for write in value.as_array().unwrap() {
                    for fields in write.as_object().unwrap().values() {
                        body_strings(fields, into);
                    }
                }
            }
            "Key" | "Item" | "ExpressionAttributeValues" => item_strings(value, into),
            "ExpressionAttributeNames" => {
                for (k, v) in value.as_object().unwrap() {
                    into.extend([k.clone(), v.as_str().unwrap().to_owned()]);
                }
            }
            "Parameters" => value
                .as_array()
                .unwrap()
                .iter()
                .for_each(|v| value_strings(v, into)),
            "ReturnValues" | "ReturnConsumedCapacity" | "ReturnValuesOnConditionCheckFailure" => {}
            _ => into.push(value.as_str().unwrap().to_owned()),
        }
    }
}

pub(super) fn item_strings(item: &Value, into: &mut Vec<String>) {
    for (name, value) in item.as_object().unwrap() {
        into.push(name.clone());
        value_strings(value, into);
    }
}

pub(super) fn value_strings(typed: &Value, into: &mut Vec<String>) {
    for (tag, inner) in typed.as_object().unwrap() {
        match (tag.as_str(), inner) {
            ("L", Value::Array(items)) => items.iter().for_each(|v| value_strings(v, into)),
            ("M", map) => item_strings(map, into),
            (_, Value::String(t)) => into.push(t.clone()),
            (_, Value::Array(items)) => {
                into.extend(items.iter().map(|v| v.as_str().unwrap().to_owned()));
            }
            _ => {}
        }
    }
}

/// A request of any kind the golden files hold.
pub(super) enum Copied {
    One(Box<Request>),
    Transaction(Transaction),
    Statement(Statement),
}

impl Copied {
    pub(super) fn render(&self, target: Target, setup: &ClientSetup) -> String {
        match self {
            Self::One(r) => r.render(target, setup),
            Self::Transaction(t) => t.render(target, setup),
            Self::Statement(s) => s.render(target, setup),
        }
    }

    pub(super) fn json(&self) -> Value {
        match self {
            Self::One(r) => r.json(),
            Self::Transaction(t) => t.json(),
            Self::Statement(s) => s.json(),
        }
    }
}

/// The requests of the golden files: name, operation, request, where it connects (the
/// sandbox; AWS with a profile and a region; a region alone).
pub(super) fn golden_requests() -> Vec<(&'static str, &'static str, Copied, ClientSetup)> {
    let sandbox = local("http://localhost:8000");
    let aws = ClientSetup {
        endpoint_url: None,
        region: Some("eu-west-1".into()),
        profile: Some(format!("prod {HOSTILE}")),
    };
    let region = ClientSetup {
        region: Some("us-west-2".into()),
        ..ClientSetup::default()
    };
    vec![
        (
            "counter",
            "UpdateItem",
            Copied::One(Box::new(counter())),
            sandbox.clone(),
        ),
        (
            "put",
            "PutItem",
            Copied::One(Box::new(put(&format!("P#{HOSTILE}")))),
            aws,
        ),
        ("query", "Query", Copied::One(Box::new(query())), region),
        (
            "like",
            "TransactWriteItems",
            Copied::Transaction(like("USER#7c20", "tok-1")),
            sandbox.clone(),
        ),
        (
            "statement",
            "ExecuteStatement",
            Copied::Statement(statement()),
            sandbox,
        ),
    ]
}
