//! One PartiQL statement as typed.

use serde::{Deserialize, Serialize};

use crate::partiql::Statement;
use crate::spec::{InputError, limit_of, page_size_field};

/// One PartiQL statement, its `?` parameters in order, and (for a SELECT) when to stop.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatementSpec {
    /// The statement, e.g. `SELECT * FROM "Videos" WHERE PK = ?`.
    pub statement: String,
    /// The value of each `?` in order, as DynamoDB JSON: `{"S": "VID#9f3a"}`.
    #[serde(default)]
    pub params: Vec<serde_json::Value>,
    /// SELECT: stop after this many items.
    #[serde(default)]
    pub limit: Option<usize>,
    /// SELECT: evaluate at most this many items per request (ExecuteStatement's `Limit`).
    #[serde(default)]
    pub page_size: Option<usize>,
}

/// A checked statement, and how much of a SELECT to read.
#[derive(Debug, Clone)]
pub struct StatementPlan {
    /// The statement with its parameters.
    pub statement: Statement,
    /// Whether it writes.
    pub writes: bool,
    /// SELECT: the limit.
    pub limit: Option<usize>,
    /// SELECT: the page size.
    pub page_size: Option<i32>,
}

impl StatementSpec {
    /// The statement, parsed and checked; a limit or page size on a write is refused.
    pub fn plan(&self) -> Result<StatementPlan, InputError> {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| match p {
                serde_json::Value::String(text) => text.clone(),
                other => other.to_string(),
            })
            .collect();
        let statement = Statement::from_json(self.statement.as_str(), &params)
            .map_err(|e| InputError::from_error("statement", e))?;
        let writes = statement
            .check()
            .map_err(|e| InputError::from_error("statement", e))?
            .kind
            .writes();
        if writes && (self.limit.is_some() || self.page_size.is_some()) {
            let field = if self.limit.is_some() {
                "limit"
            } else {
                "page_size"
            };
            return Err(InputError::new(
                field,
                "a limit and a page size are for SELECT; nothing was sent",
            ));
        }
        Ok(StatementPlan {
            statement,
            writes,
            limit: limit_of("limit", self.limit)?,
            page_size: page_size_field(self.page_size)?,
        })
    }
}
