//! Reference counters: rules that say where a parent's tally and its children are, suggestions
//! of rules from a loaded collection, the arithmetic of drift, counting children exactly,
//! reconciling many parents, guarded repairs, sharded counters, and rules saved per connection.

mod athena;
mod athena_report;
mod athena_rows;
mod athena_run;
mod checked;
mod count;
mod deleted;
mod document;
mod drift;
mod export_at;
mod imported;
mod one_pass;
mod plan;
mod program;
mod reconcile;
mod repair;
mod rule;
mod rulebook;
mod shards;
mod suggest;
mod window;
mod window_files;

pub use athena::{AthenaStatements, athena_sql, athena_statements, athena_table, data_folder};
pub use athena_report::AthenaRun;
pub use athena_run::{AthenaRunSpec, run_in_athena};
pub use checked::Checked;
pub use checked::Totals;
pub use count::ChildQuery;
pub use count::{Count, ParentCheck, check_parent, check_partition, load_parent};
pub(crate) use count::{count_children, load_parent_costed, missing_parent};
pub use document::{ParentDocument, RepairDocument, TotalsDocument};
pub(crate) use drift::stored_tally;
pub use drift::{drift, last_touched};
pub use export_at::{ExportAt, ExportChecked, check_export_at};
pub use imported::ImportTallies;
pub use one_pass::OnePass;
pub use plan::{
    Cheaper, Estimate, ParentSource, PassRead, ReconcilePlan, check_export, estimate,
    estimate_loaded,
};
pub use program::program;
pub use reconcile::{ReconcileEvent, Reconciled, find_parents, reconcile, reconcile_checked};
pub use repair::{
    RepairAll, RepairReport, repair, repair_all, repair_all_confirmation, repair_plan,
};
pub use rule::{ChildSource, ParentMatch, Rule, RuledTable, ShardRule, TallyRule};
pub use rulebook::RuleBook;
pub use rulebook::SavedRules;
pub use shards::{ShardTotal, sum_shards};
pub use suggest::suggest;
pub(crate) use window::read_window;
pub use window::{MAX_RECORDS_NAMED, RecordAt, Window, WindowParent};
pub(crate) use window_files::view_of_summary;
pub use window_files::{WindowFiles, window_files};

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::HashMap;

    use aws_sdk_dynamodb::types::AttributeValue;

    use crate::condition::ScalarType;
    use crate::table::{KeyAttr, TableInfo};
    use crate::tally::{ChildSource, ParentMatch, TallyRule};
    use crate::value::Item;

    /// The sample `Social` table's keys: `PK` and `SK`, both strings.
    pub(crate) fn social_info() -> TableInfo {
        let key = |name: &str| KeyAttr::new(name, ScalarType::S);
        TableInfo::with_keys("Social", key("PK"), Some(key("SK")))
    }

    /// The likes rule: `likeTally` on `POST#…`/`META` counts the partition's `LIKE#…` items.
    pub(crate) fn likes_rule() -> TallyRule {
        TallyRule {
            parents: ParentMatch {
                sort_key: "META".into(),
                partition_prefix: "POST#".into(),
            },
            tally: "likeTally".into(),
            children: ChildSource::SortKeyPrefix("LIKE#".into()),
        }
    }

    /// An item keyed `PK`/`SK` with number attributes.
    pub(crate) fn item(pk: &str, sk: &str, numbers: &[(&str, &str)]) -> Item {
        let mut item = HashMap::from([
            ("PK".to_owned(), AttributeValue::S(pk.into())),
            ("SK".to_owned(), AttributeValue::S(sk.into())),
        ]);
        for (k, v) in numbers {
            item.insert((*k).to_owned(), AttributeValue::N((*v).into()));
        }
        item
    }
}
