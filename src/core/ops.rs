//! DynamoDB operations. Each takes the connection's `&Client` and maps errors to [`Error`].

use std::time::Duration;

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{
    AttributeValue, ConsumedCapacity, ReturnConsumedCapacity, ReturnValue,
    ReturnValuesOnConditionCheckFailure,
};

use crate::core::condition::{self, FilterClause, Placeholders, SortCondition};
use crate::core::counter::{Outcome, UpdatePlan};
use crate::core::error::{Error, Result};
use crate::core::table::TableInfo;
use crate::core::value::Item;

/// Every table name, following all pages of `ListTables`.
pub async fn list_tables(client: &Client) -> Result<Vec<String>> {
    let mut names = Vec::new();
    let mut start: Option<String> = None;
    loop {
        let out = client
            .list_tables()
            .set_exclusive_start_table_name(start.take())
            .send()
            .await
            .map_err(|e| Error::from_sdk("ListTables", e))?;
        names.extend(out.table_names().iter().cloned());
        match out.last_evaluated_table_name() {
            Some(last) => start = Some(last.to_owned()),
            None => break,
        }
    }
    Ok(names)
}

/// `DescribeTable` plus `DescribeTimeToLive`.
pub async fn describe_table(client: &Client, table: &str) -> Result<TableInfo> {
    let out = client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(|e| Error::from_sdk("DescribeTable", e))?;
    let mut info = out
        .table()
        .and_then(TableInfo::from_description)
        .ok_or_else(|| Error::Service {
            op: "DescribeTable",
            code: "IncompleteDescription".into(),
            message: format!("the server described `{table}` without a key schema"),
        })?;
    // TTL is extra detail: a server without DescribeTimeToLive still gets a describe panel.
    if let Ok(ttl) = client
        .describe_time_to_live()
        .table_name(table)
        .send()
        .await
        && let Some(desc) = ttl.time_to_live_description()
    {
        let status = desc.time_to_live_status().map_or("unknown", |s| s.as_str());
        info.ttl = Some(match desc.attribute_name() {
            Some(attr) => format!("{status} on `{attr}`"),
            None => status.to_owned(),
        });
    }
    Ok(info)
}

/// Query one partition, or Scan.
#[derive(Debug, Clone, PartialEq)]
pub enum BrowseMode {
    /// Query the item collection whose partition key equals `partition`.
    Query {
        /// The partition key value.
        partition: AttributeValue,
        /// An optional sort-key condition.
        sort: Option<SortCondition>,
        /// Ascending (`true`) or descending sort-key order.
        forward: bool,
    },
    /// Scan, optionally one segment of a parallel scan.
    Scan {
        /// `(segment, total_segments)`.
        segment: Option<(i32, i32)>,
    },
}

/// A browse request, checked and ready to page through.
#[derive(Debug, Clone, PartialEq)]
pub struct BrowseRequest {
    /// Table name.
    pub table: String,
    /// Index to read instead of the table.
    pub index: Option<String>,
    /// Query or Scan.
    pub mode: BrowseMode,
    /// Filter clauses (joined with `AND`).
    pub filter: Vec<FilterClause>,
    /// Items evaluated per page (`Limit`); `None` lets the server fill 1 MB pages.
    pub page_size: Option<i32>,
    /// Partition and sort key names of the table or index being read.
    pub partition_name: String,
    /// The sort key name, if any.
    pub sort_name: Option<String>,
}

impl BrowseRequest {
    /// A Query on `table` (or one of its indexes) for one partition.
    pub fn query(
        info: &TableInfo,
        index: Option<&str>,
        partition: AttributeValue,
        sort: Option<SortCondition>,
        forward: bool,
    ) -> Result<Self> {
        let has_sort_condition = sort.is_some();
        let mode = BrowseMode::Query {
            partition,
            sort,
            forward,
        };
        let request = Self::new(info, index, mode)?;
        if has_sort_condition && request.sort_name.is_none() {
            return Err(Error::Invalid(format!(
                "{} has no sort key, so it takes no sort-key condition",
                index.unwrap_or(&info.name)
            )));
        }
        Ok(request)
    }

    /// A Scan of `table` (or one of its indexes).
    pub fn scan(info: &TableInfo, index: Option<&str>) -> Result<Self> {
        Self::new(info, index, BrowseMode::Scan { segment: None })
    }

    fn new(info: &TableInfo, index: Option<&str>, mode: BrowseMode) -> Result<Self> {
        let (partition, sort) = info.keys_of(index).ok_or_else(|| {
            Error::Invalid(format!(
                "`{}` has no index `{}`",
                info.name,
                index.unwrap_or("")
            ))
        })?;
        Ok(Self {
            table: info.name.clone(),
            index: index.map(str::to_owned),
            mode,
            filter: Vec::new(),
            page_size: None,
            partition_name: partition.name.clone(),
            sort_name: sort.map(|s| s.name.clone()),
        })
    }

    /// The name of the operation, for messages.
    pub fn op(&self) -> &'static str {
        match self.mode {
            BrowseMode::Query { .. } => "Query",
            BrowseMode::Scan { .. } => "Scan",
        }
    }
}

/// One page of results.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Page {
    /// The items returned (after the filter).
    pub items: Vec<Item>,
    /// Items evaluated before the filter.
    pub scanned_count: i64,
    /// Where the next page starts; `None` on the last page.
    pub last_key: Option<Item>,
    /// Read capacity consumed by this page.
    pub consumed_rcu: f64,
}

impl Page {
    /// Build from the parts of a Query or Scan answer, taking the items without copying them.
    fn from_parts(
        items: Option<Vec<Item>>,
        scanned_count: i32,
        last_key: Option<Item>,
        consumed: Option<&ConsumedCapacity>,
    ) -> Self {
        Self {
            items: items.unwrap_or_default(),
            scanned_count: i64::from(scanned_count),
            last_key,
            consumed_rcu: consumed
                .and_then(|c| c.capacity_units())
                .unwrap_or_default(),
        }
    }
}

/// Fetch one page of `req`, starting after `start_key`.
pub async fn fetch_page(
    client: &Client,
    req: &BrowseRequest,
    start_key: Option<Item>,
) -> Result<Page> {
    let mut placeholders = Placeholders::default();
    match &req.mode {
        BrowseMode::Query {
            partition,
            sort,
            forward,
        } => {
            let sort = match (&req.sort_name, sort) {
                (Some(name), Some(cond)) => Some((name.as_str(), cond)),
                _ => None,
            };
            let key_text = condition::key_condition(
                &mut placeholders,
                &req.partition_name,
                partition.clone(),
                sort,
            )?;
            let filter_text = condition::filter_expression(&mut placeholders, &req.filter)?;
            let expr = placeholders.finish(key_text);
            let out = client
                .query()
                .table_name(&req.table)
                .set_index_name(req.index.clone())
                .key_condition_expression(expr.text)
                .set_filter_expression(filter_text)
                .set_expression_attribute_names(Some(expr.names))
                .set_expression_attribute_values(Some(expr.values))
                .scan_index_forward(*forward)
                .set_limit(req.page_size)
                .set_exclusive_start_key(start_key)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await
                .map_err(|e| Error::from_sdk("Query", e))?;
            Ok(Page::from_parts(
                out.items,
                out.scanned_count,
                out.last_evaluated_key,
                out.consumed_capacity.as_ref(),
            ))
        }
        BrowseMode::Scan { segment } => {
            let filter_text = condition::filter_expression(&mut placeholders, &req.filter)?;
            let expr = placeholders.finish(String::new());
            let (segment, total) = match segment {
                Some((s, t)) => (Some(*s), Some(*t)),
                None => (None, None),
            };
            let out = client
                .scan()
                .table_name(&req.table)
                .set_index_name(req.index.clone())
                .set_filter_expression(filter_text)
                .set_expression_attribute_names((!expr.names.is_empty()).then_some(expr.names))
                .set_expression_attribute_values((!expr.values.is_empty()).then_some(expr.values))
                .set_segment(segment)
                .set_total_segments(total)
                .set_limit(req.page_size)
                .set_exclusive_start_key(start_key)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .send()
                .await
                .map_err(|e| Error::from_sdk("Scan", e))?;
            Ok(Page::from_parts(
                out.items,
                out.scanned_count,
                out.last_evaluated_key,
                out.consumed_capacity.as_ref(),
            ))
        }
    }
}

/// A config override that turns the SDK's automatic retries off: for writes that are not
/// idempotent (`ADD`, `SET x = x + :d`), which must never be sent twice after they may have
/// reached the server.
pub fn without_retries() -> aws_sdk_dynamodb::config::Builder {
    aws_sdk_dynamodb::Config::builder().retry_config(RetryConfig::disabled())
}

/// Server error codes that mean "rejected, not applied": safe to send again after a pause.
const THROTTLED: [&str; 3] = [
    "ThrottlingException",
    "ProvisionedThroughputExceededException",
    "RequestLimitExceeded",
];
/// Server error codes after which the write may or may not have happened.
const MAYBE_APPLIED: [&str; 2] = ["InternalServerError", "ServiceUnavailable"];
/// Throttling rejections retried before giving up.
const MAX_THROTTLE_RETRIES: u32 = 3;

/// Send a counter edit with `UpdateItem`, `ReturnValues: UPDATED_NEW` and consumed capacity.
///
/// `ADD` and `SET … + :d` are not idempotent, so for them the SDK's automatic retries are off:
/// only a throttling rejection (which the server did not apply) is sent again. When the outcome
/// is unknown (timeout, connection lost after sending, a 5xx), nothing is re-sent: the value is
/// read again and reported. The exact mode is safe to retry and keeps the SDK's retries.
pub async fn update_counter(client: &Client, plan: &UpdatePlan) -> Outcome {
    let mut attempts = 0;
    loop {
        attempts += 1;
        let mut request = client
            .update_item()
            .table_name(&plan.table)
            .set_key(Some(plan.key.clone()))
            .update_expression(&plan.update_expression)
            .set_condition_expression(plan.condition_expression.clone())
            .set_expression_attribute_names(Some(plan.names.clone()))
            .set_expression_attribute_values(Some(plan.values.clone()))
            .return_values(ReturnValue::UpdatedNew)
            .return_consumed_capacity(ReturnConsumedCapacity::Total);
        if plan.condition_expression.is_some() {
            request = request.return_values_on_condition_check_failure(
                ReturnValuesOnConditionCheckFailure::AllOld,
            );
        }
        let result = if plan.mode.retry_is_safe() {
            request.send().await
        } else {
            request
                .customize()
                .config_override(without_retries())
                .send()
                .await
        };
        let err = match result {
            Ok(out) => {
                return Outcome::Applied {
                    new_value: out
                        .attributes
                        .as_ref()
                        .and_then(|a| a.get(&plan.attribute))
                        .map(crate::core::value::cell_text),
                    consumed_wcu: out
                        .consumed_capacity
                        .as_ref()
                        .and_then(|c| c.capacity_units())
                        .unwrap_or_default(),
                    attempts,
                };
            }
            Err(err) => err,
        };
        if let SdkError::ServiceError(service) = &err {
            if let UpdateItemError::ConditionalCheckFailedException(failed) = service.err() {
                return Outcome::ConditionFailed {
                    current: failed
                        .item()
                        .and_then(|i| i.get(&plan.attribute))
                        .map(crate::core::value::cell_text),
                };
            }
            let code = service.err().code().unwrap_or_default();
            if THROTTLED.contains(&code) && attempts <= MAX_THROTTLE_RETRIES {
                tokio::time::sleep(Duration::from_millis(50 << attempts)).await;
                continue;
            }
            let maybe_applied = MAYBE_APPLIED.contains(&code);
            let error = Error::from_sdk("UpdateItem", err);
            if !maybe_applied {
                return Outcome::Failed(error);
            }
            return unknown(client, plan, error).await;
        }
        let error = Error::from_sdk("UpdateItem", err);
        if may_have_been_sent(&error) {
            return unknown(client, plan, error).await;
        }
        return Outcome::Failed(error);
    }
}

async fn unknown(client: &Client, plan: &UpdatePlan, error: Error) -> Outcome {
    Outcome::Unknown {
        error,
        stored_now: read_number(client, &plan.table, &plan.key, &plan.attribute).await,
    }
}

/// Whether a request that failed this way may have reached the server.
fn may_have_been_sent(error: &Error) -> bool {
    match error {
        // A refused connection never carried the request.
        Error::Unreachable { detail, .. } => !detail.to_lowercase().contains("connection refused"),
        Error::Timeout { .. } => true,
        _ => false,
    }
}

/// Read one attribute of one item with a consistent read, shown exactly as stored.
pub async fn read_number(
    client: &Client,
    table: &str,
    key: &Item,
    attribute: &str,
) -> Result<Option<String>> {
    Ok(read_attribute(client, table, key, attribute)
        .await?
        .as_ref()
        .map(crate::core::value::cell_text))
}

/// Read one attribute of one item with a consistent read.
pub async fn read_attribute(
    client: &Client,
    table: &str,
    key: &Item,
    attribute: &str,
) -> Result<Option<AttributeValue>> {
    let out = client
        .get_item()
        .table_name(table)
        .set_key(Some(key.clone()))
        .consistent_read(true)
        .projection_expression("#a")
        .expression_attribute_names("#a", attribute)
        .send()
        .await
        .map_err(|e| Error::from_sdk("GetItem", e))?;
    Ok(out.item.and_then(|mut i| i.remove(attribute)))
}
