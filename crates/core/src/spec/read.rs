//! A Query or a Scan as typed, checked against the table's keys.

use serde::{Deserialize, Serialize};

use crate::condition::{FilterClause, FilterOp, ScalarType, SortCondition, SortOp};
use crate::read::{BrowseRequest, ReadPlan};
use crate::spec::{InputError, limit_of, page_size_field, partition_value};
use crate::table::TableInfo;
use crate::validate;
use crate::value;

/// A read of one item collection (`pk` given: a Query) or of the whole table or index (a Scan).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadSpec {
    /// The table.
    pub table: String,
    /// Read this index instead of the table.
    #[serde(default)]
    pub index: Option<String>,
    /// The partition key value of the item collection to Query; none: Scan.
    #[serde(default)]
    pub pk: Option<String>,
    /// Sort key equals.
    #[serde(default)]
    pub sk_eq: Option<String>,
    /// Sort key less than.
    #[serde(default)]
    pub sk_lt: Option<String>,
    /// Sort key less than or equal.
    #[serde(default)]
    pub sk_le: Option<String>,
    /// Sort key greater than.
    #[serde(default)]
    pub sk_gt: Option<String>,
    /// Sort key greater than or equal.
    #[serde(default)]
    pub sk_ge: Option<String>,
    /// Sort key begins with.
    #[serde(default)]
    pub sk_begins_with: Option<String>,
    /// Sort key between two values, both included: `[low, high]`.
    #[serde(default)]
    pub sk_between: Option<Vec<String>>,
    /// Descending sort-key order.
    #[serde(default)]
    pub descending: bool,
    /// Stop after this many items.
    #[serde(default)]
    pub limit: Option<usize>,
    /// Items evaluated per request (DynamoDB's `Limit`); none: the server fills 1 MB pages.
    #[serde(default)]
    pub page_size: Option<usize>,
    /// Go on after this key (DynamoDB JSON), as a read that stopped early gave it.
    #[serde(default)]
    pub start_key: Option<String>,
    /// Send at most this many page requests (each reads up to 1 MB); none: to the limit or the
    /// end.
    #[serde(default)]
    pub max_pages: Option<usize>,
    /// Filters on other attributes, joined with AND (applied by the server after reading:
    /// they cost the same read capacity).
    #[serde(default)]
    pub filters: Vec<FilterSpec>,
    /// Join the filters with OR instead: an item passes when any holds.
    #[serde(default)]
    pub any_filter: bool,
}

/// One filter clause as typed: an attribute, a comparison, and its values as text of one type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FilterSpec {
    /// The attribute, e.g. `likedAt`.
    pub attribute: String,
    /// The comparison: `=`, `<>`, `<`, `<=`, `>`, `>=`, `begins_with`, `between`, `contains`,
    /// `exists` or `not exists`.
    pub op: String,
    /// The type the values are typed in: `S` (default), `N`, `B`, `BOOL` or `NULL`.
    #[serde(default = "text_type", rename = "type")]
    pub kind: ScalarType,
    /// The values: none for `exists`, two for `between`, else one.
    #[serde(default)]
    pub values: Vec<String>,
}

fn text_type() -> ScalarType {
    ScalarType::S
}

impl FilterSpec {
    /// The clause, checked: a known comparison with as many values as it takes, each of its
    /// type.
    pub fn plan(&self) -> Result<FilterClause, InputError> {
        let bad = |why: String| InputError::new("filters", why);
        let attribute = self.attribute.trim();
        if attribute.is_empty() {
            return Err(bad("a filter needs the attribute it compares".into()));
        }
        let op = FilterOp::ALL
            .into_iter()
            .find(|op| op.symbol() == self.op.trim())
            .ok_or_else(|| {
                let known: Vec<&str> = FilterOp::ALL.iter().map(|op| op.symbol()).collect();
                bad(format!(
                    "filter on `{attribute}`: `{}` is not a comparison ({})",
                    self.op,
                    known.join(", ")
                ))
            })?;
        let kind = self.kind;
        if self.values.len() != op.arity() {
            return Err(bad(format!(
                "filter on `{attribute}`: `{}` takes {} value(s), {} given",
                op.symbol(),
                op.arity(),
                self.values.len()
            )));
        }
        let values = self
            .values
            .iter()
            .map(|text| kind.parse(text))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| InputError::from_error("filters", e.at("filter")))?;
        Ok(FilterClause {
            attribute: attribute.to_owned(),
            op,
            values,
        })
    }
}

impl ReadSpec {
    /// A Scan of `table`.
    pub fn scan(table: impl Into<String>) -> Self {
        Self {
            table: table.into(),
            ..Self::default()
        }
    }

    /// The sort-key condition given, if any: `(op, value, upper)`.
    pub fn set_sort(&mut self, op: SortOp, value: String, upper: String) {
        let slot = match op {
            SortOp::Eq => &mut self.sk_eq,
            SortOp::Lt => &mut self.sk_lt,
            SortOp::Le => &mut self.sk_le,
            SortOp::Gt => &mut self.sk_gt,
            SortOp::Ge => &mut self.sk_ge,
            SortOp::BeginsWith => &mut self.sk_begins_with,
            SortOp::Between => {
                self.sk_between = Some(vec![value, upper]);
                return;
            }
        };
        *slot = Some(value);
    }

    /// The read, checked against `info`: nothing DynamoDB would refuse is sent.
    pub fn plan(&self, info: &TableInfo) -> Result<ReadPlan, InputError> {
        let index = self.index.as_deref();
        let (partition, sort) = info.keys_of(index).ok_or_else(|| {
            InputError::new(
                "index",
                format!("{} has no index `{}`", info.name, index.unwrap_or_default()),
            )
        })?;
        let sort_kind = sort.map_or(ScalarType::S, |s| s.kind);
        let condition = self.sort_condition(sort_kind)?;
        if condition.is_some() && sort.is_none() {
            return Err(InputError::new(
                "sk",
                format!(
                    "{} has no sort key, so a sort-key condition cannot apply",
                    index.unwrap_or(&info.name)
                ),
            ));
        }
        let mut request = match &self.pk {
            Some(pk) => {
                let value = partition_value(partition, pk)?;
                BrowseRequest::query(info, index, value, condition, !self.descending)
                    .map_err(|e| InputError::from_error("pk", e))?
            }
            None if condition.is_some() || self.descending => {
                return Err(InputError::new(
                    "pk",
                    "a sort-key condition or order needs a partition key value (a Query); a Scan reads every partition",
                ));
            }
            None => {
                BrowseRequest::scan(info, index).map_err(|e| InputError::from_error("index", e))?
            }
        };
        for filter in &self.filters {
            request.filter.push(filter.plan()?);
        }
        request.filter_any = self.any_filter;
        request.page_size = page_size_field(self.page_size)?;
        let start = match self.start_key.as_deref() {
            None => None,
            Some(text) => {
                let key = value::item_from_dynamodb_json(text)
                    .map_err(|e| InputError::from_error("start_key", e.at("start key")))?;
                // A table's start key is one of its keys (an index's also holds the index's
                // keys, which the server checks).
                if !key.is_empty() && index.is_none() {
                    validate::check_key(&key, info)
                        .map_err(|e| InputError::from_error("start_key", e.at("start key")))?;
                }
                (!key.is_empty()).then_some(key)
            }
        };
        Ok(ReadPlan {
            request,
            start,
            limit: limit_of("limit", self.limit)?,
            max_pages: limit_of("max_pages", self.max_pages)?,
        })
    }

    fn sort_condition(&self, kind: ScalarType) -> Result<Option<SortCondition>, InputError> {
        let parse = |text: &str| {
            kind.parse(text)
                .map_err(|e| InputError::from_error("sk", e.at("sort key")))
        };
        let single = [
            (SortOp::Eq, &self.sk_eq),
            (SortOp::Lt, &self.sk_lt),
            (SortOp::Le, &self.sk_le),
            (SortOp::Gt, &self.sk_gt),
            (SortOp::Ge, &self.sk_ge),
            (SortOp::BeginsWith, &self.sk_begins_with),
        ];
        let mut conditions = Vec::new();
        for (op, value) in single {
            if let Some(value) = value {
                conditions.push(SortCondition {
                    op,
                    value: parse(value)?,
                    upper: None,
                });
            }
        }
        match self.sk_between.as_deref() {
            None => {}
            Some([low, high]) => conditions.push(SortCondition {
                op: SortOp::Between,
                value: parse(low)?,
                upper: Some(parse(high)?),
            }),
            Some(other) => {
                return Err(InputError::new(
                    "sk",
                    format!(
                        "a sort key between needs two values, low and high ({} given)",
                        other.len()
                    ),
                ));
            }
        }
        if conditions.len() > 1 {
            return Err(InputError::new(
                "sk",
                "give one sort-key condition: DynamoDB takes one per Query",
            ));
        }
        Ok(conditions.pop())
    }
}
