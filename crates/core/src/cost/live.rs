//! AWS's live price list: one region's DynamoDB prices read with the Price List API's
//! `GetProducts`, and [`parse`], which turns its `PriceList` (one JSON text per product) into
//! [`RegionPrices`] of the shipped shape.
//!
//! A product names what it prices by its usage type: `WriteRequestUnits`,
//! `IA-ReadCapacityUnit-Hrs`, `TimedStorage-ByteHrs`, after a region prefix (`EU-`, `APN1-`,
//! `USE1-`) everywhere but in us-east-1, where most have none. Its on-demand terms hold one
//! price dimension per tier; a free tier is one at price 0 (storage's first 25 GB, the first
//! 18,600 capacity-unit hours), so the paid tier is the one read.

use std::str::FromStr;

use aws_sdk_pricing::types::{Filter, FilterType};
use bigdecimal::BigDecimal;
use serde_json::Value;

use crate::cost::prices::{BeyondPrices, ClassPrices, RegionPrices};
use crate::cost::{Class, Kind};
use crate::error::{Error, Result};

/// DynamoDB's service code in the price list.
pub(crate) const SERVICE_CODE: &str = "AmazonDynamoDB";

/// The most pages read: a region's DynamoDB products fit in one (a few dozen of them).
pub const MAX_PAGES: usize = 20;

/// Products asked for per page (the API's largest page).
const PAGE_SIZE: i32 = 100;

/// The prices of `region` from the live price list, through `client` (which must reach the
/// Price List API: us-east-1); `None` when it lists none of the prices dynoscope uses.
/// Reads at most [`MAX_PAGES`] pages. A refusal (no `pricing:GetProducts`) is an error.
pub(crate) async fn region_prices(
    client: &aws_sdk_pricing::Client,
    region: &str,
) -> Result<Option<RegionPrices>> {
    let filter = Filter::builder()
        .r#type(FilterType::TermMatch)
        .field("regionCode")
        .value(region)
        .build()
        .map_err(|e| Error::Invalid(format!("GetProducts: {e}")))?;
    let mut price_list = Vec::new();
    let mut token: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let page = client
            .get_products()
            .service_code(SERVICE_CODE)
            .filters(filter.clone())
            .max_results(PAGE_SIZE)
            .set_next_token(token.take())
            .send()
            .await
            .map_err(|e| Error::from_sdk("GetProducts", e))?;
        price_list.extend(page.price_list().iter().cloned());
        match page.next_token() {
            Some(next) if !next.is_empty() => token = Some(next.to_owned()),
            _ => break,
        }
    }
    Ok(parse(region, &price_list, &today()))
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default();
    let days = i64::try_from(secs / 86_400).unwrap_or_default();
    let (year, month, day) = crate::value::civil_date(days);
    format!("{year:04}-{month:02}-{day:02}")
}

/// What a usage type prices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Figure {
    /// One request unit on demand (the table keeps a million's price).
    Request(Kind),
    /// One capacity unit for an hour.
    Hour(Kind),
    /// One GB for a month.
    Storage,
}

/// The usage types read, without their region prefix.
const USAGES: [(&str, Class, Figure); 10] = [
    (
        "WriteRequestUnits",
        Class::Standard,
        Figure::Request(Kind::Write),
    ),
    (
        "ReadRequestUnits",
        Class::Standard,
        Figure::Request(Kind::Read),
    ),
    (
        "WriteCapacityUnit-Hrs",
        Class::Standard,
        Figure::Hour(Kind::Write),
    ),
    (
        "ReadCapacityUnit-Hrs",
        Class::Standard,
        Figure::Hour(Kind::Read),
    ),
    ("TimedStorage-ByteHrs", Class::Standard, Figure::Storage),
    (
        "IA-WriteRequestUnits",
        Class::StandardIa,
        Figure::Request(Kind::Write),
    ),
    (
        "IA-ReadRequestUnits",
        Class::StandardIa,
        Figure::Request(Kind::Read),
    ),
    (
        "IA-WriteCapacityUnit-Hrs",
        Class::StandardIa,
        Figure::Hour(Kind::Write),
    ),
    (
        "IA-ReadCapacityUnit-Hrs",
        Class::StandardIa,
        Figure::Hour(Kind::Read),
    ),
    (
        "IA-TimedStorage-ByteHrs",
        Class::StandardIa,
        Figure::Storage,
    ),
];

/// What `usage` prices: the usage type as it is (us-east-1 names most without a prefix), or
/// after its region prefix (`EU-`, `APN1-`: capitals and digits). `IA-WriteRequestUnits` is
/// Standard-IA, never `WriteRequestUnits` behind an `IA` prefix.
fn usage_of(usage: &str) -> Option<(Class, Figure)> {
    let find = |name: &str| {
        USAGES
            .iter()
            .find(|(n, ..)| *n == name)
            .map(|&(_, class, figure)| (class, figure))
    };
    find(usage).or_else(|| {
        let (prefix, rest) = usage.split_once('-')?;
        let region_like = !prefix.is_empty()
            && prefix
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        region_like.then(|| find(rest)).flatten()
    })
}

/// The paid price in US dollars among a product's on-demand terms: of the price dimensions
/// whose price is above 0, the one whose tier begins lowest.
fn paid_price(on_demand: &Value) -> Option<BigDecimal> {
    let zero = BigDecimal::default();
    let mut best: Option<(BigDecimal, BigDecimal)> = None;
    for term in on_demand.as_object()?.values() {
        let Some(dimensions) = term["priceDimensions"].as_object() else {
            continue;
        };
        for dimension in dimensions.values() {
            let Some(price) = dimension["pricePerUnit"]["USD"]
                .as_str()
                .and_then(|t| BigDecimal::from_str(t.trim()).ok())
            else {
                continue;
            };
            if price <= zero {
                continue;
            }
            let begin = dimension["beginRange"]
                .as_str()
                .and_then(|t| BigDecimal::from_str(t.trim()).ok())
                .unwrap_or_default();
            if best.as_ref().is_none_or(|(lowest, _)| begin < *lowest) {
                best = Some((begin, price));
            }
        }
    }
    best.map(|(_, price)| price)
}

/// The prices of `region` in a `GetProducts` answer's `PriceList` (each entry a product as
/// JSON text), read on `today` (`YYYY-MM-DD`): on-demand and provisioned throughput and
/// storage, Standard and Standard-IA, in US dollars. An entry that is not JSON, is of another
/// region or prices something else is passed over; `None` when none is of use.
pub fn parse(region: &str, price_list: &[String], today: &str) -> Option<RegionPrices> {
    let mut standard = ClassPrices::default();
    let mut standard_ia = ClassPrices::default();
    let mut found = false;
    for entry in price_list {
        let Ok(product) = serde_json::from_str::<Value>(entry) else {
            continue;
        };
        let attributes = &product["product"]["attributes"];
        if attributes["regionCode"]
            .as_str()
            .is_some_and(|r| r != region)
        {
            continue;
        }
        let Some((class, figure)) = attributes["usagetype"].as_str().and_then(usage_of) else {
            continue;
        };
        let Some(price) = paid_price(&product["terms"]["OnDemand"]) else {
            continue;
        };
        let prices = match class {
            Class::Standard => &mut standard,
            Class::StandardIa => &mut standard_ia,
        };
        let (slot, value) = match figure {
            Figure::Request(Kind::Write) => (
                &mut prices.write_request_per_million,
                price * BigDecimal::from(1_000_000),
            ),
            Figure::Request(Kind::Read) => (
                &mut prices.read_request_per_million,
                price * BigDecimal::from(1_000_000),
            ),
            Figure::Hour(Kind::Write) => (&mut prices.wcu_hour, price),
            Figure::Hour(Kind::Read) => (&mut prices.rcu_hour, price),
            Figure::Storage => (&mut prices.storage_gb_month, price),
        };
        // The first product of a usage type is kept (us-east-1 lists storage both as
        // `TimedStorage-ByteHrs` and `USE1-TimedStorage-ByteHrs`, at one price).
        if slot.is_none() {
            *slot = Some(value.normalized());
            found = true;
        }
    }
    found.then(|| RegionPrices {
        region: region.to_owned(),
        currency: "USD".to_owned(),
        source: format!("AWS Price List API (GetProducts), read {today}"),
        as_of: today.to_owned(),
        standard,
        standard_ia,
        beyond: BeyondPrices::default(),
    })
}

#[cfg(test)]
mod tests;
