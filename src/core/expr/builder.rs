//! The expression builder's model: the fields a person fills in, compiled into one request with
//! fresh placeholders, each field's error at its position, and the way back from a pasted
//! request or from a write the app made.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::condition::{Placeholders, ScalarType};
use crate::core::counter::UpdatePlan;
use crate::core::error::{Error, Result};
use crate::core::expr::ast::{Comparator, Condition, Operand};
use crate::core::expr::codegen::{Operation, Request};
use crate::core::expr::parser::{ExprError, Maps, parse_condition, parse_projection, parse_update};
use crate::core::expr::printer;
use crate::core::value::{self, Item};

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

/// The value types a placeholder can be given.
pub const VALUE_TYPES: [&str; 10] = ["S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS"];

/// A typed value from its type tag and text: scalars as typed (numbers checked exactly),
/// the others as JSON (`["a", "b"]` for SS, `[{"N": "1"}]` for L, `{"k": {"S": "v"}}` for M).
pub fn typed_value(tag: &str, text: &str) -> Result<AttributeValue> {
    let scalar = match tag {
        "S" => Some(ScalarType::S),
        "N" => Some(ScalarType::N),
        "B" => Some(ScalarType::B),
        "BOOL" => Some(ScalarType::Bool),
        "NULL" => Some(ScalarType::Null),
        _ => None,
    };
    if let Some(scalar) = scalar {
        return scalar.parse(text);
    }
    let inner: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| Error::Invalid(format!("{tag} is written as JSON: {e}")))?;
    value::value_from_json(&serde_json::json!({ tag: inner }))
}

/// The text of a value for its row, the inverse of [`typed_value`].
pub fn value_text(v: &AttributeValue) -> (String, String) {
    let tag = value::type_tag(v).to_owned();
    let text = match v {
        AttributeValue::S(s) => s.clone(),
        AttributeValue::N(n) => n.clone(),
        AttributeValue::Bool(b) => b.to_string(),
        AttributeValue::Null(_) => String::new(),
        AttributeValue::B(_) => value::cell_text(v),
        other => {
            let typed: serde_json::Value =
                serde_json::from_str(&value::dynamodb_json(other)).unwrap_or_default();
            typed[tag.as_str()].to_string()
        }
    };
    (tag, text)
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
    /// Value placeholders: `:x` → (type tag, text).
    pub values: Vec<(String, String, String)>,
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

    /// Load a request the app made (an ADD edit or a repair): "open in builder".
    pub fn from_plan(plan: &UpdatePlan) -> Self {
        let mut input = Self::new(&plan.table);
        input.item = Some(plan.key.clone());
        input
            .texts
            .insert(Field::Update, plan.update_expression.clone());
        if let Some(condition) = &plan.condition_expression {
            input.texts.insert(Field::Condition, condition.clone());
        }
        input.set_maps(&plan.names, &plan.values);
        input
    }

    fn set_maps(
        &mut self,
        names: &HashMap<String, String>,
        values: &HashMap<String, AttributeValue>,
    ) {
        self.names = names.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        self.names.sort();
        self.values = values
            .iter()
            .map(|(k, v)| {
                let (tag, text) = value_text(v);
                (k.clone(), tag, text)
            })
            .collect();
        self.values.sort();
    }

    /// Parse a pasted low-level request (`{"TableName": …, "UpdateExpression": …,
    /// "ExpressionAttributeNames": …, "ExpressionAttributeValues": …}`) back into the builder.
    pub fn from_request_json(text: &str) -> Result<Self> {
        let json: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| Error::Invalid(format!("not a JSON request: {e}")))?;
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
        input.kind = if input.texts.contains_key(&Field::Update) {
            Kind::Update
        } else if input.texts.contains_key(&Field::KeyCondition) {
            Kind::Query
        } else if json.get("Item").is_some() {
            Kind::Put
        } else if json.get("Key").is_some() {
            Kind::Delete
        } else {
            Kind::Scan
        };
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

/// The compiled request, or what is wrong with the input.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    /// The request, when every field is valid.
    pub request: Option<Request>,
    /// Errors by field, with positions.
    pub errors: Vec<(Field, ExprError)>,
    /// Errors in the value rows, by placeholder, and other problems.
    pub problems: Vec<String>,
}

/// A key condition must read `pk = value`, optionally `AND` one condition on the sort key
/// (`=`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `begins_with`) — on the keys being queried.
pub fn check_key_condition(
    c: &Condition,
    partition: &str,
    sort: Option<&str>,
) -> std::result::Result<(), String> {
    let is_path = |o: &Operand, name: &str| matches!(o, Operand::Path(p) if p.0.len() == 1 && p.root() == name);
    let is_value = |o: &Operand| matches!(o, Operand::Value(_));
    let partition_part = |c: &Condition| matches!(c, Condition::Compare(a, Comparator::Eq, b) if is_path(a, partition) && is_value(b));
    let sort_part = |c: &Condition| {
        let Some(sort) = sort else { return false };
        match c {
            Condition::Compare(a, op, b) => {
                *op != Comparator::Ne && is_path(a, sort) && is_value(b)
            }
            Condition::Between(a, low, high) => is_path(a, sort) && is_value(low) && is_value(high),
            Condition::BeginsWith(p, v) => p.0.len() == 1 && p.root() == sort && is_value(v),
            _ => false,
        }
    };
    let ok = partition_part(c)
        || matches!(c, Condition::And(a, b) if (partition_part(a) && sort_part(b)) || (sort_part(a) && partition_part(b)));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "a key condition is `{partition} = value`{} — nothing else (use a filter for other attributes)",
            sort.map(|s| format!(
                ", optionally AND one condition on {s} (=, <, <=, >, >=, BETWEEN, begins_with)"
            ))
            .unwrap_or_default()
        ))
    }
}

/// The keys a key condition must use: those of the table or of the index queried.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryKeys {
    /// Partition key name.
    pub partition: String,
    /// Sort key name, if any.
    pub sort: Option<String>,
}

/// Compile `input`: parse each field (literals allowed), check the update against `key_names`
/// and a key condition against `query_keys` (the table's or the index's keys), and print
/// everything with fresh placeholders.
pub fn compile(input: &Input, key_names: &[String], query_keys: Option<&QueryKeys>) -> Compiled {
    let mut problems = Vec::new();
    let names: HashMap<String, String> = input
        .names
        .iter()
        .filter(|(k, _)| !k.trim().is_empty())
        .map(|(k, v)| (k.trim().to_owned(), v.clone()))
        .collect();
    let mut values = HashMap::new();
    for (placeholder, tag, text) in &input.values {
        if placeholder.trim().is_empty() {
            continue;
        }
        match typed_value(tag, text) {
            Ok(v) => {
                values.insert(placeholder.trim().to_owned(), v);
            }
            Err(e) => problems.push(format!("{placeholder}: {e}")),
        }
    }
    let maps = Maps {
        names: &names,
        values: &values,
        literals: true,
    };
    let mut p = Placeholders::default();
    let mut errors = Vec::new();
    let mut printed: HashMap<Field, String> = HashMap::new();
    for field in input.kind.fields() {
        let text = input.text(*field).trim();
        if text.is_empty() {
            if matches!(field, Field::Update | Field::KeyCondition) {
                problems.push(format!(
                    "{} is required for {}",
                    field.name(),
                    input.kind.label()
                ));
            }
            continue;
        }
        let result = match field {
            Field::Update => {
                parse_update(text, maps, key_names).map(|u| printer::update_text(&mut p, &u))
            }
            Field::Projection => parse_projection(text, maps).map(|paths| {
                paths
                    .iter()
                    .map(|x| printer::projection_path(&mut p, x))
                    .collect::<Vec<_>>()
                    .join(", ")
            }),
            Field::KeyCondition => parse_condition(text, maps).and_then(|c| {
                if let Some(keys) = query_keys {
                    check_key_condition(&c, &keys.partition, keys.sort.as_deref()).map_err(
                        |message| ExprError {
                            message,
                            position: 0,
                        },
                    )?;
                }
                Ok(printer::condition_text(&mut p, &c))
            }),
            _ => parse_condition(text, maps).map(|c| printer::condition_text(&mut p, &c)),
        };
        match result {
            Ok(out) => {
                printed.insert(*field, out);
            }
            Err(e) => errors.push((*field, e)),
        }
    }
    let needs_item = matches!(input.kind, Kind::Update | Kind::Delete | Kind::Put);
    if needs_item && input.item.is_none() {
        problems.push(format!(
            "{} needs an item: select a row in Browse",
            input.kind.label()
        ));
    }
    if input.table.trim().is_empty() {
        problems.push("no table".into());
    }
    let request = (errors.is_empty() && problems.is_empty()).then(|| {
        let expr = p.finish(String::new());
        let item = input.item.clone().unwrap_or_default();
        Request {
            table: input.table.clone(),
            operation: match input.kind {
                Kind::Update => Operation::Update(item),
                Kind::Delete => Operation::Delete(item),
                Kind::Put => Operation::Put(item),
                Kind::Query => Operation::Query(input.index.clone()),
                Kind::Scan => Operation::Scan(input.index.clone()),
            },
            update: printed.remove(&Field::Update),
            condition: printed.remove(&Field::Condition),
            key_condition: printed.remove(&Field::KeyCondition),
            filter: printed.remove(&Field::Filter),
            projection: printed.remove(&Field::Projection),
            names: expr.names,
            values: expr.values,
            options: Vec::new(),
        }
    });
    Compiled {
        request,
        errors,
        problems,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> Item {
        Item::from([
            ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
            ("SK".to_owned(), AttributeValue::S("META".into())),
        ])
    }

    #[test]
    fn builds_the_articles_like_update() {
        let mut input = Input::new("Social");
        input.item = Some(key());
        input
            .texts
            .insert(Field::Update, "ADD likeTally :one".into());
        input
            .texts
            .insert(Field::Condition, "attribute_not_exists(SK)".into());
        input.values.push((":one".into(), "N".into(), "1".into()));
        let compiled = compile(&input, &["PK".into(), "SK".into()], None);
        let request = compiled.request.unwrap();
        assert_eq!(request.update.as_deref(), Some("ADD #n0 :v0"));
        assert_eq!(
            request.condition.as_deref(),
            Some("attribute_not_exists(#n1)")
        );
        assert_eq!(request.values[":v0"], AttributeValue::N("1".into()));
    }

    #[test]
    fn errors_by_field_and_value() {
        let mut input = Input::new("Social");
        input.item = Some(key());
        input.texts.insert(Field::Update, "SET SK = :x".into());
        input
            .texts
            .insert(Field::Condition, "begins_with(a)".into());
        input.values.push((":x".into(), "N".into(), "abc".into()));
        let compiled = compile(&input, &["PK".into(), "SK".into()], None);
        assert!(compiled.request.is_none());
        assert!(
            compiled.problems.iter().any(|p| p.starts_with(":x:")),
            "{:?}",
            compiled.problems
        );
        let fields: Vec<Field> = compiled.errors.iter().map(|(f, _)| *f).collect();
        assert!(fields.contains(&Field::Condition));
    }

    #[test]
    fn every_value_type() {
        assert_eq!(
            typed_value("SS", r#"["a","b"]"#).unwrap(),
            AttributeValue::Ss(vec!["a".into(), "b".into()])
        );
        assert_eq!(
            typed_value("NS", r#"["1","2.5"]"#).unwrap(),
            AttributeValue::Ns(vec!["1".into(), "2.5".into()])
        );
        assert!(matches!(
            typed_value("L", r#"[{"N":"1"}]"#).unwrap(),
            AttributeValue::L(_)
        ));
        assert!(matches!(
            typed_value("M", r#"{"k":{"S":"v"}}"#).unwrap(),
            AttributeValue::M(_)
        ));
        assert!(matches!(
            typed_value("BS", r#"["AQI="]"#).unwrap(),
            AttributeValue::Bs(_)
        ));
        assert_eq!(
            typed_value("BOOL", "true").unwrap(),
            AttributeValue::Bool(true)
        );
        assert!(typed_value("N", "1e999").is_err());
        for tag in VALUE_TYPES {
            let sample = match tag {
                "S" => AttributeValue::S("x".into()),
                "N" => AttributeValue::N("12345678901234567890123456789012345678".into()),
                "B" => AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(vec![1, 2])),
                "BOOL" => AttributeValue::Bool(false),
                "NULL" => AttributeValue::Null(true),
                "L" => AttributeValue::L(vec![AttributeValue::N("1".into())]),
                "M" => AttributeValue::M(HashMap::from([(
                    "a".to_owned(),
                    AttributeValue::S("b".into()),
                )])),
                "SS" => AttributeValue::Ss(vec!["a".into()]),
                "NS" => AttributeValue::Ns(vec!["7".into()]),
                _ => AttributeValue::Bs(vec![aws_sdk_dynamodb::primitives::Blob::new(vec![3])]),
            };
            let (t, text) = value_text(&sample);
            assert_eq!(t, tag);
            assert_eq!(typed_value(&t, &text).unwrap(), sample, "{tag}");
        }
    }

    #[test]
    fn key_conditions_use_the_keys_and_nothing_else() {
        let mut input = Input::new("Social");
        input.kind = Kind::Query;
        let keys = QueryKeys {
            partition: "PK".into(),
            sort: Some("SK".into()),
        };
        for (text, ok) in [
            ("PK = 'POST#a91f'", true),
            ("PK = 'POST#a91f' AND begins_with(SK, 'LIKE#')", true),
            ("PK = 'POST#a91f' AND SK BETWEEN 'A' AND 'Z'", true),
            ("PK = 'POST#a91f' AND SK >= 'LIKE#'", true),
            ("PK = 'POST#a91f' AND SK <> 'META'", false),
            ("PK = 'POST#a91f' AND likeTally > 1", false),
            ("SK = 'META'", false),
            ("PK = 'x' OR PK = 'y'", false),
        ] {
            input.texts.insert(Field::KeyCondition, text.into());
            let compiled = compile(&input, &[], Some(&keys));
            assert_eq!(
                compiled.request.is_some(),
                ok,
                "{text}: {:?}",
                compiled.errors
            );
        }
    }

    #[test]
    fn a_pasted_request_comes_back_into_the_builder() {
        let pasted = r##"{"TableName": "Videos", "Key": {"PK": {"S": "VID#9f3a"}, "SK": {"S": "STATS#TOTAL"}},
            "UpdateExpression": "SET #pc = :next", "ConditionExpression": "#pc = :current",
            "ExpressionAttributeNames": {"#pc": "play_count"},
            "ExpressionAttributeValues": {":next": {"N": "42"}, ":current": {"N": "41"}}}"##;
        let input = Input::from_request_json(pasted).unwrap();
        assert_eq!(input.kind, Kind::Update);
        assert_eq!(input.text(Field::Condition), "#pc = :current");
        assert_eq!(input.names, [("#pc".to_owned(), "play_count".to_owned())]);
        let compiled = compile(&input, &[], None);
        let request = compiled.request.unwrap();
        assert_eq!(request.update.as_deref(), Some("SET #n0 = :v0"));
        assert_eq!(request.condition.as_deref(), Some("#n0 = :v1"));
        assert_eq!(request.values[":v1"], AttributeValue::N("41".into()));
    }
}
