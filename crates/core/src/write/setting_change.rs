//! A change to an existing table's settings, sent once: its TTL, its point-in-time recovery,
//! or one `UpdateTable`.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{
    BillingMode, DeleteGlobalSecondaryIndexAction, GlobalSecondaryIndexUpdate,
    PointInTimeRecoverySpecification, ProvisionedThroughput, StreamSpecification, StreamViewType,
    TableClass, TimeToLiveSpecification, UpdateGlobalSecondaryIndexAction,
};

use crate::error::Error;
use crate::schema::{BillingSpec, TableChange, request};
use crate::throttle::one_attempt_within;
use crate::write::attempt::Failure;

fn invalid(what: &str) -> impl Fn(aws_sdk_dynamodb::error::BuildError) -> Failure + '_ {
    move |e| Failure::Error(Error::Invalid(format!("{what}: {e}")))
}

fn throughput(rcu: u64, wcu: u64) -> Result<ProvisionedThroughput, Failure> {
    ProvisionedThroughput::builder()
        .read_capacity_units(i64::try_from(rcu).unwrap_or(i64::MAX))
        .write_capacity_units(i64::try_from(wcu).unwrap_or(i64::MAX))
        .build()
        .map_err(invalid("provisioned throughput"))
}

/// Send a change of the table `table` once, within `budget`: its TTL, its point-in-time
/// recovery, or an `UpdateTable`.
pub(super) async fn change_setting(
    client: &Client,
    table: &str,
    change: &TableChange,
    budget: Duration,
) -> std::result::Result<(), Failure> {
    let once = || one_attempt_within(budget);
    match change {
        TableChange::Ttl { attribute, enabled } => client
            .update_time_to_live()
            .table_name(table)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(attribute)
                    .enabled(*enabled)
                    .build()
                    .map_err(invalid("a TTL specification"))?,
            )
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("UpdateTimeToLive", e))),
        TableChange::Pitr(on) => client
            .update_continuous_backups()
            .table_name(table)
            .point_in_time_recovery_specification(
                PointInTimeRecoverySpecification::builder()
                    .point_in_time_recovery_enabled(*on)
                    .build()
                    .map_err(invalid("a point-in-time recovery specification"))?,
            )
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("UpdateContinuousBackups", e))),
        change => update_table(client, table, change)?
            .customize()
            .config_override(once())
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("UpdateTable", e))),
    }
}

/// The `UpdateTable` request making `change`.
fn update_table(
    client: &Client,
    table: &str,
    change: &TableChange,
) -> Result<aws_sdk_dynamodb::operation::update_table::builders::UpdateTableFluentBuilder, Failure>
{
    let update = client.update_table().table_name(table);
    Ok(match change {
        TableChange::Billing {
            billing: BillingSpec::OnDemand,
            ..
        } => update.billing_mode(BillingMode::PayPerRequest),
        TableChange::Billing {
            billing: BillingSpec::Provisioned { rcu, wcu },
            indexes,
        } => {
            let mut updates = Vec::new();
            for name in indexes {
                let action = UpdateGlobalSecondaryIndexAction::builder()
                    .index_name(name)
                    .provisioned_throughput(throughput(*rcu, *wcu)?)
                    .build()
                    .map_err(invalid("an index's capacity"))?;
                updates.push(GlobalSecondaryIndexUpdate::builder().update(action).build());
            }
            update
                .billing_mode(BillingMode::Provisioned)
                .provisioned_throughput(throughput(*rcu, *wcu)?)
                .set_global_secondary_index_updates((!updates.is_empty()).then_some(updates))
        }
        TableChange::AddGlobal { index, billing } => {
            let definitions = [Some(&index.partition), index.sort.as_ref()]
                .into_iter()
                .flatten()
                .map(request::definition)
                .collect::<crate::error::Result<Vec<_>>>()
                .map_err(Failure::Error)?;
            let action = request::create_global(index, *billing).map_err(Failure::Error)?;
            update
                .set_attribute_definitions(Some(definitions))
                .global_secondary_index_updates(
                    GlobalSecondaryIndexUpdate::builder().create(action).build(),
                )
        }
        TableChange::DeleteGlobal(name) => update.global_secondary_index_updates(
            GlobalSecondaryIndexUpdate::builder()
                .delete(
                    DeleteGlobalSecondaryIndexAction::builder()
                        .index_name(name)
                        .build()
                        .map_err(invalid("an index to delete"))?,
                )
                .build(),
        ),
        TableChange::Stream(view) => update.stream_specification(
            StreamSpecification::builder()
                .stream_enabled(view.is_some())
                .set_stream_view_type(view.map(|v| StreamViewType::from(v.name())))
                .build()
                .map_err(invalid("a stream specification"))?,
        ),
        TableChange::DeletionProtection(on) => update.deletion_protection_enabled(*on),
        TableChange::Class(class) => update.table_class(TableClass::from(class.name())),
        TableChange::Ttl { .. } | TableChange::Pitr(_) => {
            return Err(Failure::Error(Error::Invalid(format!(
                "{} is not made by UpdateTable",
                change.words()
            ))));
        }
    })
}
