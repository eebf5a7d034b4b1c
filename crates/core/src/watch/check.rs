//! One parent read at the start of a watch (or of a poll): its stored tally beside its children
//! counted, the base every change is folded onto.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::number::parse;
use crate::table::TableInfo;
use crate::tally;
use crate::watch::WatchPlan;

/// One parent's stored tally (`None`: missing; a tally that is not a number is an error) and
/// its children counted, with the read capacity it took.
pub(super) async fn start_check(
    connection: &Connection,
    info: &TableInfo,
    plan: &WatchPlan,
    pk: &str,
    partition: AttributeValue,
) -> Result<(Option<bigdecimal::BigDecimal>, u64, f64)> {
    let (parent, rcu) =
        tally::load_parent_costed(&connection.reader(), info, &plan.rule, partition).await?;
    let parent = parent.ok_or_else(|| tally::missing_parent(info, &plan.rule, pk))?;
    let check = tally::check_parent(&connection.reader(), info, &plan.rule, &parent).await?;
    let tally = match check.stored.as_deref() {
        None => None,
        Some(text) => Some(parse(text).map_err(|e| {
            Error::Invalid(format!(
                "the tally `{}` is not a number: {e}",
                plan.rule.tally
            ))
        })?),
    };
    Ok((tally, check.count.count, rcu + check.count.consumed_rcu))
}
