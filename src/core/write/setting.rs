//! A table's settings changed through the gateway: its stream, Contributor Insights.

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{StreamSpecification, StreamViewType};

use crate::core::error::Error;
use crate::core::throttle::one_attempt_within;
use crate::core::write::TableSetting;
use crate::core::write::attempt::Failure;

/// One `UpdateTable` changing a table's settings; it writes no item and consumes no capacity.
pub(super) async fn table_setting(
    client: &Client,
    setting: &TableSetting,
    budget: Duration,
) -> std::result::Result<(), Failure> {
    match setting {
        TableSetting::EnableStream { table } => client
            .update_table()
            .table_name(table)
            .stream_specification(
                StreamSpecification::builder()
                    .stream_enabled(true)
                    .stream_view_type(StreamViewType::NewAndOldImages)
                    .build()
                    .map_err(|e| {
                        Failure::Error(Error::Invalid(format!("a stream specification: {e}")))
                    })?,
            )
            .customize()
            .config_override(one_attempt_within(budget))
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("UpdateTable", e))),
        TableSetting::ContributorInsights { table, enable } => client
            .update_contributor_insights()
            .table_name(table)
            .contributor_insights_action(if *enable {
                aws_sdk_dynamodb::types::ContributorInsightsAction::Enable
            } else {
                aws_sdk_dynamodb::types::ContributorInsightsAction::Disable
            })
            .customize()
            .config_override(one_attempt_within(budget))
            .send()
            .await
            .map(|_| ())
            .map_err(|e| Failure::Error(Error::from_sdk("UpdateContributorInsights", e))),
    }
}
