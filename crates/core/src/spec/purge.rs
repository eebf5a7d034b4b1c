//! A delete of many items as asked, the same for the app's Delete items and the CLI's
//! `truncate` and `delete --from-query`: every item of the table, one partition's (under a
//! sort-key prefix, when given), or these keys — planned into what the delete reads.

use crate::error::Result;
use crate::purge::{PurgeSource, TallyChoice};
use crate::spec::ReadSpec;
use crate::table::TableInfo;
use crate::value::Item;

/// Which items a delete takes.
#[derive(Debug, Clone, PartialEq)]
pub enum PurgeScope {
    /// Every item (the table is kept).
    Table,
    /// One partition's items, as typed, only those whose sort key begins with `sk_prefix`
    /// when one is given (blank: all of them).
    Partition {
        /// The partition key value, as typed.
        pk: String,
        /// The sort-key prefix, as typed.
        sk_prefix: Option<String>,
    },
    /// These items, by their keys (read again when counted).
    Keys(Vec<Item>),
}

/// A delete of many items, as asked.
#[derive(Debug, Clone, PartialEq)]
pub struct PurgeSpec {
    /// The table.
    pub table: String,
    /// Which items.
    pub scope: PurgeScope,
    /// What becomes of the tallies of deleted counted children; `None`: not chosen (a delete
    /// that moves tallies is then refused).
    pub tallies: Option<TallyChoice>,
}

impl PurgeSpec {
    /// What the delete reads on `info`'s table: a Scan, a Query of the partition, or the keys;
    /// refused in the reader's words when the partition or the prefix does not fit the keys.
    pub fn plan(&self, info: &TableInfo) -> Result<PurgeSource> {
        let mut read = ReadSpec::scan(self.table.clone());
        match &self.scope {
            PurgeScope::Keys(keys) => return Ok(PurgeSource::Keys(keys.clone())),
            PurgeScope::Table => {}
            PurgeScope::Partition { pk, sk_prefix } => {
                read.pk = Some(pk.clone());
                read.sk_begins_with = sk_prefix
                    .as_deref()
                    .map(str::trim)
                    .filter(|prefix| !prefix.is_empty())
                    .map(str::to_owned);
            }
        }
        Ok(PurgeSource::Read(Box::new(read.plan(info)?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::BrowseMode;
    use crate::spec::tests::{numbers, social};

    fn spec(scope: PurgeScope) -> PurgeSpec {
        PurgeSpec {
            table: "Social".into(),
            scope,
            tallies: None,
        }
    }

    #[test]
    fn the_table_is_a_scan_a_partition_a_query_and_keys_are_read_again() {
        let Ok(PurgeSource::Read(plan)) = spec(PurgeScope::Table).plan(&social()) else {
            panic!("a read");
        };
        assert!(
            matches!(plan.request.mode, BrowseMode::Scan { .. }),
            "{plan:?}"
        );
        let partition = PurgeScope::Partition {
            pk: "POST#a91f".into(),
            sk_prefix: Some(" LIKE# ".into()),
        };
        let Ok(PurgeSource::Read(plan)) = spec(partition).plan(&social()) else {
            panic!("a read");
        };
        assert!(
            matches!(plan.request.mode, BrowseMode::Query { .. }),
            "{plan:?}"
        );
        let keys = PurgeScope::Keys(vec![Item::new()]);
        assert_eq!(
            spec(keys).plan(&social()).unwrap(),
            PurgeSource::Keys(vec![Item::new()])
        );
    }

    #[test]
    fn a_partition_that_is_not_the_keys_type_is_refused_in_the_readers_words() {
        let mut numbers_spec = spec(PurgeScope::Partition {
            pk: "abc".into(),
            sk_prefix: None,
        });
        numbers_spec.table = "Numbers".into();
        let error = numbers_spec.plan(&numbers()).unwrap_err().to_string();
        assert!(error.contains("abc"), "{error}");
    }
}
