//! Key conditions and filters, always written with `#name` / `:value` placeholders so that
//! reserved words (`count`, `size`, `views`, …) and odd characters just work.

use std::fmt;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;

use crate::error::{Error, Result};
use crate::number;
use crate::value::AttrType;

pub use crate::placeholders::{Expression, Placeholders};

/// A scalar type a value can be typed in as.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
pub enum ScalarType {
    /// String.
    S,
    /// Number (exact).
    N,
    /// Binary, typed as base64.
    B,
    /// Boolean (`true` / `false`); also read as DynamoDB's tag `BOOL`.
    #[serde(alias = "BOOL")]
    Bool,
    /// Null (the text is ignored); also read as DynamoDB's tag `NULL`.
    #[serde(alias = "NULL")]
    Null,
}

impl ScalarType {
    /// The types a key attribute can have.
    pub const KEY_TYPES: [Self; 3] = [Self::S, Self::N, Self::B];
    /// The types a filter value can have.
    pub const ALL: [Self; 5] = [Self::S, Self::N, Self::B, Self::Bool, Self::Null];

    /// From a key schema's `AttributeType` letter.
    pub(crate) fn from_key_letter(letter: &str) -> Option<Self> {
        match letter {
            "S" => Some(Self::S),
            "N" => Some(Self::N),
            "B" => Some(Self::B),
            _ => None,
        }
    }

    /// As one of the ten attribute types.
    pub fn attr_type(self) -> AttrType {
        match self {
            Self::S => AttrType::S,
            Self::N => AttrType::N,
            Self::B => AttrType::B,
            Self::Bool => AttrType::Bool,
            Self::Null => AttrType::Null,
        }
    }

    /// The DynamoDB type descriptor.
    pub fn tag(self) -> &'static str {
        self.attr_type().tag()
    }

    /// Turn typed text into a value of this type, checking it first; nothing invalid is sent.
    pub fn parse(self, text: &str) -> Result<AttributeValue> {
        match self {
            Self::S => Ok(AttributeValue::S(text.to_owned())),
            Self::N => number::parse(text)
                .map(|_| AttributeValue::N(text.trim().to_owned()))
                .map_err(|e| Error::Invalid(e.to_string())),
            Self::B => BASE64
                .decode(text.trim().as_bytes())
                .map(|b| AttributeValue::B(Blob::new(b)))
                .map_err(|e| Error::Invalid(format!("`{text}` is not base64: {e}"))),
            Self::Bool => match text.trim() {
                "true" => Ok(AttributeValue::Bool(true)),
                "false" => Ok(AttributeValue::Bool(false)),
                other => Err(Error::Invalid(format!("`{other}` is not true or false"))),
            },
            Self::Null => Ok(AttributeValue::Null(true)),
        }
    }
}

impl fmt::Display for ScalarType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// A comparison usable on a sort key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SortOp {
    /// `=`
    Eq,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `begins_with`
    BeginsWith,
    /// `BETWEEN … AND …`
    Between,
}

impl SortOp {
    /// Every sort-key condition DynamoDB supports.
    pub const ALL: [Self; 7] = [
        Self::Eq,
        Self::Lt,
        Self::Le,
        Self::Gt,
        Self::Ge,
        Self::BeginsWith,
        Self::Between,
    ];

    /// How the condition is written.
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Eq => "=",
            Self::Lt => "<",
            Self::Le => "<=",
            Self::Gt => ">",
            Self::Ge => ">=",
            Self::BeginsWith => "begins_with",
            Self::Between => "between",
        }
    }
}

/// A comparison usable in a filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum FilterOp {
    /// A sort-key style comparison.
    Sort(SortOp),
    /// `<>`
    Ne,
    /// `contains(a, v)`
    Contains,
    /// `attribute_exists(a)`
    Exists,
    /// `attribute_not_exists(a)`
    NotExists,
}

impl FilterOp {
    /// Every filter comparison offered.
    pub const ALL: [Self; 11] = [
        Self::Sort(SortOp::Eq),
        Self::Ne,
        Self::Sort(SortOp::Lt),
        Self::Sort(SortOp::Le),
        Self::Sort(SortOp::Gt),
        Self::Sort(SortOp::Ge),
        Self::Sort(SortOp::BeginsWith),
        Self::Sort(SortOp::Between),
        Self::Contains,
        Self::Exists,
        Self::NotExists,
    ];

    /// How the comparison is written.
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Sort(op) => op.symbol(),
            Self::Ne => "<>",
            Self::Contains => "contains",
            Self::Exists => "exists",
            Self::NotExists => "not exists",
        }
    }

    /// How many values the comparison takes.
    pub fn arity(self) -> usize {
        match self {
            Self::Exists | Self::NotExists => 0,
            Self::Sort(SortOp::Between) => 2,
            _ => 1,
        }
    }
}

/// A sort-key condition with its values.
#[derive(Debug, Clone, PartialEq)]
pub struct SortCondition {
    /// The comparison.
    pub op: SortOp,
    /// The value (the lower bound for `between`).
    pub value: AttributeValue,
    /// The upper bound, for `between` only.
    pub upper: Option<AttributeValue>,
}

/// One filter clause; clauses are joined with `AND` (or all with `OR`).
#[derive(Debug, Clone, PartialEq)]
pub struct FilterClause {
    /// The attribute name (top-level).
    pub attribute: String,
    /// The comparison.
    pub op: FilterOp,
    /// The values, as many as [`FilterOp::arity`].
    pub values: Vec<AttributeValue>,
}

fn sort_clause(p: &mut Placeholders, name: &str, cond: &SortCondition) -> Result<String> {
    let n = p.name(name);
    let v = p.value(cond.value.clone());
    Ok(match cond.op {
        SortOp::BeginsWith => format!("begins_with({n}, {v})"),
        SortOp::Between => {
            let upper = cond
                .upper
                .clone()
                .ok_or_else(|| Error::Invalid("between needs an upper bound".into()))?;
            let u = p.value(upper);
            format!("{n} BETWEEN {v} AND {u}")
        }
        op => format!("{n} {} {v}", op.symbol()),
    })
}

/// `#pk = :pk [AND <sort condition>]`, with placeholders taken from `p`.
pub fn key_condition(
    p: &mut Placeholders,
    partition_name: &str,
    partition_value: AttributeValue,
    sort: Option<(&str, &SortCondition)>,
) -> Result<String> {
    let n = p.name(partition_name);
    let v = p.value(partition_value);
    let mut text = format!("{n} = {v}");
    if let Some((sort_name, cond)) = sort {
        text.push_str(" AND ");
        text.push_str(&sort_clause(p, sort_name, cond)?);
    }
    Ok(text)
}

/// Add `clauses` to placeholders `p`, joined with `AND`, or with `OR` when `any` (each clause
/// then in parentheses); `None` when there are none.
pub(crate) fn filter_expression(
    p: &mut Placeholders,
    clauses: &[FilterClause],
    any: bool,
) -> Result<Option<String>> {
    let mut parts = Vec::with_capacity(clauses.len());
    for clause in clauses {
        if clause.attribute.trim().is_empty() {
            return Err(Error::Invalid("a filter needs an attribute name".into()));
        }
        if clause.values.len() != clause.op.arity() {
            return Err(Error::Invalid(format!(
                "`{}` takes {} value(s)",
                clause.op.symbol(),
                clause.op.arity()
            )));
        }
        let mut values = clause.values.iter().cloned();
        let part = match clause.op {
            FilterOp::Sort(op) => {
                let cond = SortCondition {
                    op,
                    value: values.next().unwrap_or(AttributeValue::Null(true)),
                    upper: values.next(),
                };
                sort_clause(p, &clause.attribute, &cond)?
            }
            FilterOp::Ne => {
                let n = p.name(&clause.attribute);
                let v = p.value(values.next().unwrap_or(AttributeValue::Null(true)));
                format!("{n} <> {v}")
            }
            FilterOp::Contains => {
                let n = p.name(&clause.attribute);
                let v = p.value(values.next().unwrap_or(AttributeValue::Null(true)));
                format!("contains({n}, {v})")
            }
            FilterOp::Exists => format!("attribute_exists({})", p.name(&clause.attribute)),
            FilterOp::NotExists => format!("attribute_not_exists({})", p.name(&clause.attribute)),
        };
        parts.push(part);
    }
    Ok(match parts.len() {
        0 => None,
        1 => parts.pop(),
        _ if any => Some(format!("({})", parts.join(") OR ("))),
        _ => Some(parts.join(" AND ")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_condition_uses_placeholders() {
        let cond = SortCondition {
            op: SortOp::Between,
            value: AttributeValue::S("LIKE#".into()),
            upper: Some(AttributeValue::S("LIKE$".into())),
        };
        let mut p = Placeholders::default();
        let text = key_condition(
            &mut p,
            "PK",
            AttributeValue::S("POST#a91f".into()),
            Some(("SK", &cond)),
        )
        .unwrap();
        assert_eq!(text, "#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2");
        let e = p.finish(text);
        assert_eq!(e.names["#n1"], "SK");
        assert_eq!(e.values[":v2"], AttributeValue::S("LIKE$".into()));
    }

    #[test]
    fn reserved_words_are_always_aliased() {
        let mut p = Placeholders::default();
        let clauses = [
            FilterClause {
                attribute: "count".into(),
                op: FilterOp::Sort(SortOp::Ge),
                values: vec![AttributeValue::N("3".into())],
            },
            FilterClause {
                attribute: "count".into(),
                op: FilterOp::Exists,
                values: vec![],
            },
        ];
        let text = filter_expression(&mut p, &clauses, false).unwrap().unwrap();
        assert_eq!(text, "#n0 >= :v0 AND attribute_exists(#n0)");
        assert_eq!(p.finish(text).names.len(), 1);
        // Any of them: each in parentheses, so a BETWEEN's AND stays its own.
        let mut p = Placeholders::default();
        let between = FilterClause {
            attribute: "n".into(),
            op: FilterOp::Sort(SortOp::Between),
            values: vec![AttributeValue::N("1".into()), AttributeValue::N("2".into())],
        };
        let text = filter_expression(&mut p, &[between, clauses[1].clone()], true)
            .unwrap()
            .unwrap();
        assert_eq!(text, "(#n0 BETWEEN :v0 AND :v1) OR (attribute_exists(#n1))");
        let mut p = Placeholders::default();
        let one = filter_expression(&mut p, &clauses[1..], true)
            .unwrap()
            .unwrap();
        assert_eq!(
            one, "attribute_exists(#n0)",
            "one clause needs no parentheses"
        );
    }

    #[test]
    fn typed_values_are_checked() {
        assert!(ScalarType::N.parse("1e400").is_err());
        assert!(ScalarType::N.parse("abc").is_err());
        assert_eq!(
            ScalarType::N.parse(" 42 ").unwrap(),
            AttributeValue::N("42".into())
        );
        assert!(ScalarType::B.parse("***").is_err());
        assert!(ScalarType::Bool.parse("yes").is_err());
    }

    #[test]
    fn wrong_arity_is_refused() {
        let mut p = Placeholders::default();
        let clause = FilterClause {
            attribute: "a".into(),
            op: FilterOp::Sort(SortOp::Between),
            values: vec![AttributeValue::N("1".into())],
        };
        assert!(filter_expression(&mut p, &[clause], false).is_err());
    }
}
