//! Athena's result rows as the reconcile reads them: gathered from its `GetQueryResults` pages
//! by column name (the header row left out), and made the parent checks every route gives — a
//! row in step is no drifted parent, and a parent named twice is refused.

use aws_sdk_athena::types::{ResultSet, Row};
use aws_sdk_dynamodb::types::AttributeValue;

use crate::condition::ScalarType;
use crate::error::{Error, Result};
use crate::table::TableInfo;
use crate::tally::{Count, ParentCheck, TallyRule, drift};
use crate::value::Item;

/// One result row, by column name.
pub(super) type NamedRow = Vec<(String, Option<String>)>;

/// A query's rows gathered from its `GetQueryResults` pages: the column names from the
/// result's metadata, the first page's header row (a `SELECT`'s column names) left out, and no
/// other row, whatever it holds.
#[derive(Debug, Default)]
pub(super) struct Pages {
    pub(super) names: Vec<String>,
    pub(super) rows: Vec<NamedRow>,
    pub(super) read: u32,
}

impl Pages {
    /// Add one page's result set.
    pub(super) fn add(&mut self, set: Option<&ResultSet>) {
        self.read += 1;
        if self.names.is_empty() {
            self.names = (set.and_then(|s| s.result_set_metadata()))
                .map(|m| {
                    m.column_info()
                        .iter()
                        .map(|c| c.name().to_owned())
                        .collect()
                })
                .unwrap_or_default();
        }
        for (i, row) in set
            .map(ResultSet::rows)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let values = cells(row);
            let header = self.read == 1
                && i == 0
                && (values.iter().map(|v| v.as_deref()))
                    .eq(self.names.iter().map(|n| Some(n.as_str())));
            if !header {
                self.rows
                    .push(self.names.iter().cloned().zip(values).collect());
            }
        }
    }
}

/// The drifted parents of Athena's rows: a row whose exact drift is 0 is not one, and a parent
/// named by two rows is refused (its export holds the parent twice: two exports under one
/// folder), never counted twice.
pub(super) fn drifted_checks(
    info: &TableInfo,
    rule: &TallyRule,
    rows: &[NamedRow],
) -> Result<Vec<ParentCheck>> {
    let mut seen = std::collections::HashSet::with_capacity(rows.len());
    let mut checks = Vec::with_capacity(rows.len());
    for row in rows {
        let check = parent_check(info, rule, row)?;
        if !seen.insert(check.partition.clone()) {
            return Err(Error::Invalid(format!(
                "Athena's results name the parent `{}` twice: the export holds it twice (two \
                 exports under one folder?), so its children would be counted twice; point at \
                 one export's data/ folder",
                crate::terminal::escape_controls(&check.partition)
            )));
        }
        if check.drifted() {
            checks.push(check);
        }
    }
    Ok(checks)
}

fn cells(row: &Row) -> Vec<Option<String>> {
    row.data()
        .iter()
        .map(|d| d.var_char_value().map(str::to_owned))
        .collect()
}

/// One row (`pk`, `stored`, `counted`) as the parent check every route gives; the drift worked
/// out here, exactly.
pub(super) fn parent_check(
    info: &TableInfo,
    rule: &TallyRule,
    row: &[(String, Option<String>)],
) -> Result<ParentCheck> {
    let get = |name: &str| {
        row.iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.clone())
    };
    let pk = get("pk").ok_or_else(|| Error::Invalid("an Athena row without its pk".to_owned()))?;
    let stored = get("stored");
    let counted: u64 = get("counted")
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| Error::Invalid(format!("Athena's row of {pk}: no count of children")))?;
    let mut key = Item::new();
    let value = match info.partition.kind {
        ScalarType::N => AttributeValue::N(pk.clone()),
        _ => AttributeValue::S(pk.clone()),
    };
    key.insert(info.partition.name.clone(), value);
    if let Some(sort) = &info.sort {
        key.insert(
            sort.name.clone(),
            AttributeValue::S(rule.parents.sort_key.clone()),
        );
    }
    Ok(ParentCheck {
        key,
        partition: pk,
        drift: drift(stored.as_deref(), counted)?,
        stored,
        count: Count {
            count: counted,
            pages: 0,
            consumed_rcu: 0.0,
            elapsed_ms: 0,
            method: "counted by Athena over the export".to_owned(),
        },
        last_touched: None,
    })
}
