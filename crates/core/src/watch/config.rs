//! How a fold reads records: the rule, the table's keys, one parent or all, the settle window,
//! and how much it keeps.

use crate::error::{Error, Result};
use crate::table::TableInfo;
use crate::tally::{ChildSource, TallyRule};

/// How the fold reads records: which are parents and children, and how much it keeps.
#[derive(Debug, Clone)]
pub struct FoldConfig {
    /// The rule.
    pub rule: TallyRule,
    /// The table's partition key name.
    pub pk: String,
    /// The table's sort key name, if any.
    pub sk: Option<String>,
    /// Children in an index: the index's partition key (the parent's id) and sort key names.
    pub index_keys: Option<(String, Option<String>)>,
    /// Only this parent (its id: its partition key, or the rule's id attribute's value).
    pub only: Option<String>,
    /// How long a gap may stay open before it is a divergence (stream time, ms): the records
    /// of one transaction can arrive apart.
    pub settle_ms: i64,
    /// Changes kept per parent (the front ends keep their own record lists from the events).
    pub keep_changes: usize,
}

impl FoldConfig {
    /// A fold of `rule` over `info`'s table, settling for `settle_ms`.
    pub fn new(info: &TableInfo, rule: &TallyRule, settle_ms: i64) -> Result<Self> {
        let index_keys = match &rule.children {
            ChildSource::SortKeyPrefix(_) => None,
            ChildSource::Index { index, .. } => {
                let found = info
                    .indexes
                    .iter()
                    .find(|i| &i.name == index)
                    .ok_or_else(|| {
                        Error::Invalid(format!("table {} has no index {index}", info.name))
                    })?;
                Some((
                    found.partition.name.clone(),
                    found.sort.as_ref().map(|s| s.name.clone()),
                ))
            }
        };
        Ok(Self {
            rule: rule.clone(),
            pk: info.partition.name.clone(),
            sk: info.sort.as_ref().map(|s| s.name.clone()),
            index_keys,
            only: None,
            settle_ms,
            keep_changes: 20,
        })
    }
}
