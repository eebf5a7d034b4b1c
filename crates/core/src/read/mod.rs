//! Reading: tables, descriptions, single items, and paging through Queries and Scans. Every
//! Query or Scan pages through [`read_pages`] / [`read_events`], the one reader, with one retry
//! policy ([`Backoff`]); a parallel scan is [`scan_segments`], each segment read the same way;
//! [`read_bounded`] stops at a number of items or page requests and says where to go on. Functions take the connection's
//! `&Client` and map errors to [`Error`].

mod bounded;
mod browse;
mod events;
mod load;
mod pages;
mod retry;
mod segments;
mod whole;

use aws_sdk_dynamodb::types::{AttributeValue, ConsumedCapacity};

use crate::connection::Reader;
use crate::error::{Error, Result};
use crate::table::TableInfo;
use crate::value::{Item, cell_text};

pub use bounded::Bounded;
pub use bounded::{ReadPlan, read_bounded};
pub use browse::{BrowseMode, BrowseRequest, Page, fetch_page};
pub use events::ReadEvent;
pub use load::{Halt, Load};
pub use pages::TableRead;
pub use pages::{Stopped, Until, read_all, read_events, read_pages, read_table};
pub use retry::Backoff;
pub(crate) use retry::failed_on_the_way;
pub use segments::SegmentsStopped;
pub(crate) use segments::scan_segments_into;
pub use segments::{SegmentEvent, SegmentStart, SegmentStarts, scan_segments};
pub(crate) use whole::scan_whole;
pub use whole::{ScanProgress, scan_table};

/// The capacity units a request reports it consumed (0 when it reports none).
pub(crate) fn consumed_units(consumed: Option<&ConsumedCapacity>) -> f64 {
    consumed
        .and_then(ConsumedCapacity::capacity_units)
        .unwrap_or_default()
}

/// Every table name, following all pages of `ListTables`.
pub async fn list_tables(reader: &Reader) -> Result<Vec<String>> {
    let client = reader.sdk();
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
pub async fn describe_table(reader: &Reader, table: &str) -> Result<TableInfo> {
    let client = reader.sdk();
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
            throttled: Vec::new(),
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

/// [`describe_table`], given up on once `stop` is cancelled: what every run reads first (a
/// read changes nothing, so it need not be waited for).
pub async fn describe_unless_stopped(
    reader: &Reader,
    table: &str,
    stop: &crate::cancel::CancelToken,
) -> Result<TableInfo> {
    crate::cancel::unless_stopped(stop, "DescribeTable", describe_table(reader, table)).await
}

/// Read one attribute of one item with a consistent read, shown exactly as stored.
pub async fn read_number(
    reader: &Reader,
    table: &str,
    key: &Item,
    attribute: &str,
) -> Result<Option<String>> {
    Ok(read_attribute(reader, table, key, attribute)
        .await?
        .as_ref()
        .map(cell_text))
}

/// Read one attribute of one item with a consistent read.
pub(crate) async fn read_attribute(
    reader: &Reader,
    table: &str,
    key: &Item,
    attribute: &str,
) -> Result<Option<AttributeValue>> {
    let client = reader.sdk();
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

/// Read one whole item with a consistent read; `None` when there is none at `key`.
pub async fn get_item(reader: &Reader, table: &str, key: Item) -> Result<Option<Item>> {
    get_item_costed(reader, table, key)
        .await
        .map(|(item, _)| item)
}

/// The item of `info` with `key`, read consistently, and the read capacity it consumed; no item
/// with that key is [`Error::NotFound`] naming the key (the data disagrees with the question).
pub async fn get_existing(
    reader: &Reader,
    info: &crate::table::TableInfo,
    key: Item,
) -> Result<(Item, f64)> {
    let missing = item_not_found(info, &key);
    let (item, rcu) = get_item_costed(reader, &info.name, key).await?;
    Ok((item.ok_or(missing)?, rcu))
}

/// No item of `info` has `key`: [`Error::NotFound`] naming the key and the table, the one
/// wording of a missing item (`there is no item PK = … · SK = … in table …`).
pub fn item_not_found(info: &crate::table::TableInfo, key: &Item) -> Error {
    let shown = crate::value::key_shown(key, &info.key_names());
    Error::NotFound {
        what: format!("item {shown} in table {}", info.name),
    }
}

/// [`get_item`], with the read capacity it consumed.
pub async fn get_item_costed(
    reader: &Reader,
    table: &str,
    key: Item,
) -> Result<(Option<Item>, f64)> {
    let client = reader.sdk();
    let out = client
        .get_item()
        .table_name(table)
        .set_key(Some(key))
        .consistent_read(true)
        .return_consumed_capacity(aws_sdk_dynamodb::types::ReturnConsumedCapacity::Total)
        .send()
        .await
        .map_err(|e| Error::from_sdk("GetItem", e))?;
    let rcu = consumed_units(out.consumed_capacity.as_ref());
    Ok((out.item, rcu))
}

#[cfg(all(test, feature = "sandbox"))]
mod client_errors;
