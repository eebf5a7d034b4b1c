//! A tally rule's reconcile as a whole program (`expr::codegen::ReconcileShape` writes it):
//! the rule and the table's keys checked for what the program reads — string keys, children in
//! the parent's partition.

use crate::condition::ScalarType;
use crate::error::{Error, Result};
use crate::expr::codegen::{ClientSetup, Program, ReconcileShape, Target};
use crate::table::TableInfo;
use crate::tally::{ChildSource, TallyRule};

/// The reconcile of `rule` on `info`'s table (of `only` one parent, or of every parent) as a
/// whole program in `target`, connecting as `setup` says.
pub fn program(
    info: &TableInfo,
    rule: &TallyRule,
    only: Option<String>,
    target: Target,
    setup: &ClientSetup,
) -> Result<Program> {
    let ChildSource::SortKeyPrefix(child_prefix) = &rule.children else {
        return Err(Error::Invalid(
            "a reconcile program counts children in the parent's partition (a sort-key prefix), not in an index".into(),
        ));
    };
    let sort = match &info.sort {
        Some(sort) if sort.kind == ScalarType::S && info.partition.kind == ScalarType::S => sort,
        _ => {
            return Err(Error::Invalid(format!(
                "a reconcile program is written for a table with string partition and sort keys; {} has not",
                info.name
            )));
        }
    };
    let shape = ReconcileShape {
        table: info.name.clone(),
        keys: (info.partition.name.clone(), sort.name.clone()),
        tally: rule.tally.clone(),
        parent_sk: rule.parents.sort_key.clone(),
        parent_prefix: rule.parents.partition_prefix.clone(),
        child_prefix: child_prefix.clone(),
        only,
    };
    shape.program(target, setup)
}
