//! The pieces of dynamodb-toolbox code a request is written in: its values as JavaScript
//! values (numbers a `number` or a `BigInt`, exact or refused), its conditions as condition
//! objects, its update actions as the item's fields (`$add`, `$sum`, `$get`, `$remove`, …) and
//! the schema of every attribute it touches.

use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr as _;

use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use bigdecimal::BigDecimal;

use crate::error::{Error, Result};
use crate::expr::ast::{Comparator, Condition, Operand, Path, Step};

/// What dynamodb-toolbox cannot say, in words.
pub(in crate::expr::codegen) fn refused(what: &str) -> Error {
    Error::Invalid(format!("dynamodb-toolbox cannot say this request: {what}"))
}

/// The schema type of an attribute, as the request uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::expr::codegen) enum Kind {
    /// Used without a type (`attribute_exists`, `REMOVE`, a whole list or map).
    Any,
    String,
    Number,
    Binary,
    Boolean,
    Null,
    StringSet,
    NumberSet,
    BinarySet,
}

impl Kind {
    pub(in crate::expr::codegen) fn of(value: &AttributeValue) -> Self {
        match value {
            AttributeValue::S(_) => Self::String,
            AttributeValue::N(_) => Self::Number,
            AttributeValue::B(_) => Self::Binary,
            AttributeValue::Bool(_) => Self::Boolean,
            AttributeValue::Null(_) => Self::Null,
            AttributeValue::Ss(_) => Self::StringSet,
            AttributeValue::Ns(_) => Self::NumberSet,
            AttributeValue::Bs(_) => Self::BinarySet,
            _ => Self::Any,
        }
    }

    /// The schema builder call; numbers take a `BigInt` too (`.big()`), past 2^53.
    pub(in crate::expr::codegen) fn schema(self) -> &'static str {
        match self {
            Self::Any => "any()",
            Self::String => "string()",
            Self::Number => "number().big()",
            Self::Binary => "binary()",
            Self::Boolean => "boolean()",
            Self::Null => "nul()",
            Self::StringSet => "set(string())",
            Self::NumberSet => "set(number().big())",
            Self::BinarySet => "set(binary())",
        }
    }

    /// The key type a table declares (`"string"`, `"number"`, `"binary"`).
    pub(in crate::expr::codegen) fn key_type(self) -> Result<&'static str> {
        match self {
            Self::String => Ok("string"),
            Self::Number => Ok("number"),
            Self::Binary => Ok("binary"),
            _ => Err(refused("a key value is a string, a number or binary")),
        }
    }
}

/// Every attribute the request touches, with its kind, and the helpers (`$add`, …) used.
#[derive(Debug, Default)]
pub(in crate::expr::codegen) struct Schema {
    pub(in crate::expr::codegen) attributes: BTreeMap<String, Kind>,
    pub(in crate::expr::codegen) uses: BTreeSet<&'static str>,
}

impl Schema {
    /// `name` used as `kind`: a kind already known stays; two different ones are refused.
    pub(in crate::expr::codegen) fn note(&mut self, name: &str, kind: Kind) -> Result<()> {
        let known = self.attributes.entry(name.to_owned()).or_insert(kind);
        match (*known, kind) {
            (_, Kind::Any) => Ok(()),
            (Kind::Any, _) => {
                *known = kind;
                Ok(())
            }
            (a, b) if a == b => Ok(()),
            (a, b) => Err(refused(&format!(
                "{name:?} is used as {} and as {}: its schema has one type",
                a.schema(),
                b.schema()
            ))),
        }
    }
}

/// A top-level attribute's name, refused for a nested path.
pub(in crate::expr::codegen) fn root(path: &Path) -> Result<&str> {
    match path.0.as_slice() {
        [Step::Name(name)] => checked_key(name),
        _ => Err(refused(&format!(
            "{} is a nested path, which dynamodb-toolbox reaches only through its map's or \
             list's schema: dynoscope writes it for top-level attributes",
            path.display()
        ))),
    }
}

/// A name kept as an object key: dynamodb-toolbox copies an item by assignment, so an
/// attribute named `__proto__` would vanish without a word.
pub(in crate::expr::codegen) fn checked_key(name: &str) -> Result<&str> {
    if name == "__proto__" {
        return Err(refused(
            "an attribute named __proto__ is dropped by dynamodb-toolbox's item copy",
        ));
    }
    Ok(name)
}

/// A name as dynamodb-toolbox reads an attribute path (`attr:`, `$get`): plain only, since it
/// reads `['a b']` as `b` and skips characters it does not expect.
pub(in crate::expr::codegen) fn path_text(path: &Path) -> Result<String> {
    let name = root(path)?;
    let plain = !name.is_empty()
        && (name.chars()).all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '#' | '@' | '-'));
    if !plain {
        return Err(refused(&format!(
            "the name {name:?} is not one dynamodb-toolbox reads in an attribute path \
             (letters, digits, _ # @ -)"
        )));
    }
    Ok(string(name))
}

/// A JavaScript string literal.
pub(in crate::expr::codegen) fn string(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

/// An object literal's key, quoted.
pub(in crate::expr::codegen) fn key(name: &str) -> Result<String> {
    Ok(string(checked_key(name)?))
}

/// Largest integer a JavaScript number holds exactly.
const SAFE_INTEGER: u64 = 9_007_199_254_740_991;

/// A number as dynamodb-toolbox takes it: a JavaScript number where it is exact (an integer
/// up to 2^53, a decimal of at most 15 digits), a `BigInt` for a larger integer; refused
/// otherwise, since it would be rounded.
pub(in crate::expr::codegen) fn number(text: &str) -> Result<String> {
    let value = BigDecimal::from_str(text.trim())
        .map_err(|_| refused(&format!("{text:?} is not a number")))?
        .normalized();
    let plain = value.to_plain_string();
    if value.is_integer() {
        let digits = plain.trim_start_matches('-');
        let safe = digits.len() <= 16 && digits.parse::<u64>().is_ok_and(|n| n <= SAFE_INTEGER);
        return Ok(if safe { plain } else { format!("{plain}n") });
    }
    let significant = (plain.trim_start_matches(['-', '0', '.']).chars())
        .filter(char::is_ascii_digit)
        .count();
    if significant <= 15 {
        Ok(plain)
    } else {
        Err(refused(&format!(
            "{text} has more digits than a JavaScript number holds, and dynamodb-toolbox \
             takes a decimal only as one: it would be rounded"
        )))
    }
}

/// A value as dynamodb-toolbox takes it (the DocumentClient's native values).
pub(in crate::expr::codegen) fn value(v: &AttributeValue) -> Result<String> {
    let bytes = |b: &[u8]| format!("Buffer.from({}, \"base64\")", string(&BASE64.encode(b)));
    let list = |items: Vec<String>| items.join(", ");
    Ok(match v {
        AttributeValue::S(s) => string(s),
        AttributeValue::N(n) => number(n)?,
        AttributeValue::Bool(b) => b.to_string(),
        AttributeValue::Null(_) => "null".to_owned(),
        AttributeValue::B(b) => bytes(b.as_ref()),
        AttributeValue::Ss(v) => {
            format!("new Set([{}])", list(v.iter().map(|s| string(s)).collect()))
        }
        AttributeValue::Ns(v) => {
            let numbers: Result<Vec<String>> = v.iter().map(|n| number(n)).collect();
            format!("new Set([{}])", list(numbers?))
        }
        AttributeValue::Bs(v) => {
            format!(
                "new Set([{}])",
                list(v.iter().map(|b| bytes(b.as_ref())).collect())
            )
        }
        AttributeValue::L(items) => {
            let items: Result<Vec<String>> = items.iter().map(nested).collect();
            format!("[{}]", list(items?))
        }
        AttributeValue::M(map) => {
            let mut names: Vec<&String> = map.keys().collect();
            names.sort();
            let fields: Result<Vec<String>> = (names.into_iter())
                .map(|name| Ok(format!("{}: {}", key(name)?, nested(&map[name])?)))
                .collect();
            format!("{{ {} }}", list(fields?))
        }
        _ => return Err(refused("a value of a type DynamoDB does not have")),
    })
}

/// A value inside a list or a map: a number past 2^53 is refused there, as the DocumentClient
/// refuses a BigInt it finds inside one.
fn nested(v: &AttributeValue) -> Result<String> {
    let text = value(v)?;
    let big = match v {
        AttributeValue::N(n) => number(n)?.ends_with('n'),
        AttributeValue::Ns(set) => set
            .iter()
            .any(|n| number(n).is_ok_and(|t| t.ends_with('n'))),
        _ => false,
    };
    if big {
        return Err(refused(
            "a number past 2^53 inside a list or a map: dynamodb-toolbox writes it as a BigInt, \
             which the DocumentClient refuses there",
        ));
    }
    Ok(text)
}

/// The condition operator's word.
fn word(op: Comparator) -> &'static str {
    match op {
        Comparator::Eq => "eq",
        Comparator::Ne => "ne",
        Comparator::Lt => "lt",
        Comparator::Le => "lte",
        Comparator::Gt => "gt",
        Comparator::Ge => "gte",
    }
}

/// `a < b` read from the other side: `b > a`.
fn flipped(op: Comparator) -> Comparator {
    match op {
        Comparator::Lt => Comparator::Gt,
        Comparator::Le => Comparator::Ge,
        Comparator::Gt => Comparator::Lt,
        Comparator::Ge => Comparator::Le,
        same => same,
    }
}

/// The right side of a comparison: a value, or another attribute (`{ attr: "b" }`).
fn right(operand: &Operand, schema: &mut Schema) -> Result<String> {
    match operand {
        Operand::Value(v) => value(&v.value),
        Operand::Path(p) => {
            schema.note(root(p)?, Kind::Any)?;
            Ok(format!("{{ attr: {} }}", path_text(p)?))
        }
        Operand::Size(_) => Err(refused("size() on the right of a comparison")),
    }
}

/// The subject of a condition: `attr: "a"` or `size: "a"`, noting the kind its value gives.
fn subject(operand: &Operand, with: Option<&Operand>, schema: &mut Schema) -> Result<String> {
    match operand {
        Operand::Path(p) => {
            let kind = match with {
                Some(Operand::Value(v)) => Kind::of(&v.value),
                _ => Kind::Any,
            };
            schema.note(root(p)?, kind)?;
            Ok(format!("attr: {}", path_text(p)?))
        }
        Operand::Size(p) => {
            schema.note(root(p)?, Kind::Any)?;
            Ok(format!("size: {}", path_text(p)?))
        }
        Operand::Value(_) => Err(refused("a comparison of two values")),
    }
}

/// Values compared with one attribute are of one type: dynamodb-toolbox checks each against
/// the attribute's schema, and drops (from an `in`) or refuses the others.
fn same_kind(values: &[Operand]) -> Result<()> {
    let kinds: BTreeSet<String> = (values.iter())
        .filter_map(|o| match o {
            Operand::Value(v) => Some(format!("{:?}", Kind::of(&v.value))),
            _ => None,
        })
        .collect();
    if kinds.len() > 1 {
        return Err(refused(
            "values of more than one type compared with one attribute: dynamodb-toolbox checks \
             each against the attribute's one type",
        ));
    }
    Ok(())
}

/// `contains(a, v)` where `a`'s type is known: `v` is what it holds (a string in a string,
/// an element of the set's type); dynamodb-toolbox refuses another.
fn contained(p: &Path, v: &Operand, schema: &Schema) -> Result<()> {
    let (Ok(name), Operand::Value(v)) = (root(p), v) else {
        return Ok(());
    };
    let holds = match schema.attributes.get(name) {
        Some(Kind::String | Kind::StringSet) => Kind::String,
        Some(Kind::NumberSet) => Kind::Number,
        Some(Kind::BinarySet | Kind::Binary) => Kind::Binary,
        _ => return Ok(()),
    };
    if Kind::of(&v.value) != holds {
        return Err(refused(&format!(
            "contains({name}, …) with a value of another type than {name} holds"
        )));
    }
    Ok(())
}

/// A condition as a dynamodb-toolbox condition object.
pub(in crate::expr::codegen) fn condition(c: &Condition, schema: &mut Schema) -> Result<String> {
    let on = |p: &Path, with: Kind, schema: &mut Schema| -> Result<String> {
        schema.note(root(p)?, with)?;
        path_text(p)
    };
    Ok(match c {
        Condition::Compare(a @ Operand::Value(_), op, b) if !matches!(b, Operand::Value(_)) => {
            condition(
                &Condition::Compare(b.clone(), flipped(*op), a.clone()),
                schema,
            )?
        }
        Condition::Compare(a, op, b) => {
            let subject = subject(a, Some(b), schema)?;
            format!("{{ {subject}, {}: {} }}", word(*op), right(b, schema)?)
        }
        Condition::Between(a, low, high) => {
            same_kind(&[low.clone(), high.clone()])?;
            let subject = subject(a, Some(low), schema)?;
            let (low, high) = (right(low, schema)?, right(high, schema)?);
            format!("{{ {subject}, between: [{low}, {high}] }}")
        }
        Condition::In(a, list) => {
            same_kind(list)?;
            let subject = subject(a, list.first(), schema)?;
            let list: Result<Vec<String>> = list.iter().map(|o| right(o, schema)).collect();
            format!("{{ {subject}, in: [{}] }}", list?.join(", "))
        }
        Condition::Exists(p) => format!("{{ attr: {}, exists: true }}", on(p, Kind::Any, schema)?),
        Condition::NotExists(p) => {
            format!("{{ attr: {}, exists: false }}", on(p, Kind::Any, schema)?)
        }
        Condition::Type(p, t) => {
            let attr = on(p, Kind::Any, schema)?;
            format!("{{ attr: {attr}, type: {} }}", right(t, schema)?)
        }
        Condition::BeginsWith(p, v) => {
            let kind = if let Operand::Value(v) = v {
                Kind::of(&v.value)
            } else {
                Kind::Any
            };
            let attr = on(p, kind, schema)?;
            format!("{{ attr: {attr}, beginsWith: {} }}", right(v, schema)?)
        }
        Condition::Contains(p, v) => {
            contained(p, v, schema)?;
            let attr = on(p, Kind::Any, schema)?;
            format!("{{ attr: {attr}, contains: {} }}", right(v, schema)?)
        }
        Condition::And(a, b) => format!(
            "{{ and: [{}, {}] }}",
            condition(a, schema)?,
            condition(b, schema)?
        ),
        Condition::Or(a, b) => format!(
            "{{ or: [{}, {}] }}",
            condition(a, schema)?,
            condition(b, schema)?
        ),
        Condition::Not(a) => format!("{{ not: {} }}", condition(a, schema)?),
    })
}

#[cfg(test)]
mod tests;
