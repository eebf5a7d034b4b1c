//! A Query or Scan, checked against the table's keys, and one page of it.

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::types::{AttributeValue, ConsumedCapacity, ReturnConsumedCapacity, Select};

use crate::condition::{self, FilterClause, Placeholders, SortCondition};
use crate::connection::Reader;
use crate::error::{Error, Result};
use crate::table::TableInfo;
use crate::throttle::one_attempt_within;
use crate::value::Item;

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
    /// Filter clauses (joined with `AND`, or with `OR` when `filter_any`).
    pub filter: Vec<FilterClause>,
    /// An item passes the filter when any clause holds, not all.
    pub filter_any: bool,
    /// Items evaluated per page (`Limit`); `None` lets the server fill 1 MB pages.
    pub page_size: Option<i32>,
    /// Ask only for the number of matching items (`Select: COUNT`), not the items.
    pub count_only: bool,
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
        if let Some((key, _)) = info.keys_of(index) {
            crate::validate::check_key_value_alone(key, &partition, true)?;
        }
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
            filter_any: false,
            page_size: None,
            count_only: false,
            partition_name: partition.name.clone(),
            sort_name: sort.map(|s| s.name.clone()),
        })
    }

    /// Whether its rows are whole items, as stored: a row read from an index may hold only the
    /// projected attributes, so it is not edited, copied or deleted as an item.
    pub fn reads_whole_items(&self) -> bool {
        self.index.is_none()
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
    /// The items returned (after the filter); none for a count-only request.
    pub items: Vec<Item>,
    /// Items matched on this page (after the filter): `items.len()`, or the server's count.
    pub count: i64,
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
        count: i32,
        scanned_count: i32,
        last_key: Option<Item>,
        consumed: Option<&ConsumedCapacity>,
    ) -> Self {
        Self {
            items: items.unwrap_or_default(),
            count: i64::from(count),
            scanned_count: i64::from(scanned_count),
            last_key,
            consumed_rcu: super::consumed_units(consumed),
        }
    }
}

/// Fetch one page of `req`, starting after `start_key`, evaluating at most the request's page
/// size. Sent once: the SDK's retries are off, since re-sending is the reader's decision.
pub async fn fetch_page(
    reader: &Reader,
    req: &BrowseRequest,
    start_key: Option<Item>,
) -> Result<Page> {
    let client = reader.sdk();
    fetch_limited(
        client,
        req,
        start_key,
        req.page_size,
        request_timeout(client),
    )
    .await
}

/// [`fetch_page`] with `limit` sent as `Limit` instead of the request's page size.
/// How long one request on `client` may take, all attempts included: its connection's timeout.
pub(crate) fn request_timeout(client: &Client) -> std::time::Duration {
    client
        .config()
        .timeout_config()
        .and_then(aws_sdk_dynamodb::config::timeout::TimeoutConfig::operation_timeout)
        .unwrap_or(crate::connection::DEFAULT_TIMEOUT)
}

pub(crate) async fn fetch_limited(
    client: &Client,
    req: &BrowseRequest,
    start_key: Option<Item>,
    limit: Option<i32>,
    budget: std::time::Duration,
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
            let filter_text =
                condition::filter_expression(&mut placeholders, &req.filter, req.filter_any)?;
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
                .set_select(req.count_only.then_some(Select::Count))
                .set_limit(limit)
                .set_exclusive_start_key(start_key)
                .return_consumed_capacity(ReturnConsumedCapacity::Total)
                .customize()
                .config_override(one_attempt_within(budget))
                .send()
                .await
                .map_err(|e| Error::from_sdk("Query", e))?;
            Ok(Page::from_parts(
                out.items,
                out.count,
                out.scanned_count,
                out.last_evaluated_key,
                out.consumed_capacity.as_ref(),
            ))
        }
        BrowseMode::Scan { segment } => {
            scan_page(client, req, *segment, start_key, limit, budget).await
        }
    }
}

/// One page of a Scan of `req` (of one segment, when given), from `start_key`.
async fn scan_page(
    client: &Client,
    req: &BrowseRequest,
    segment: Option<(i32, i32)>,
    start_key: Option<Item>,
    limit: Option<i32>,
    budget: std::time::Duration,
) -> Result<Page> {
    let mut placeholders = Placeholders::default();
    let filter_text = condition::filter_expression(&mut placeholders, &req.filter, req.filter_any)?;
    let expr = placeholders.finish(String::new());
    let (segment, total) = match segment {
        Some((s, t)) => (Some(s), Some(t)),
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
        .set_select(req.count_only.then_some(Select::Count))
        .set_limit(limit)
        .set_exclusive_start_key(start_key)
        .return_consumed_capacity(ReturnConsumedCapacity::Total)
        .customize()
        .config_override(one_attempt_within(budget))
        .send()
        .await
        .map_err(|e| Error::from_sdk("Scan", e))?;
    Ok(Page::from_parts(
        out.items,
        out.count,
        out.scanned_count,
        out.last_evaluated_key,
        out.consumed_capacity.as_ref(),
    ))
}
