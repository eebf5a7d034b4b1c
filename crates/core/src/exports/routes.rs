//! Which way to reconcile a table, priced and timed: a scan from this machine, an export then a
//! reconcile of its files read from S3 here, an export then Athena, or an incremental export of
//! the last hours. Each route with its dollars, its time here, and the arithmetic behind them;
//! the one recommended, and why. Prices from the price table (`beyond` for the export, S3's
//! transfer out and Athena); rates measured here, each said where it comes from.

use bigdecimal::BigDecimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cost::{Pricing, RegionPrices, count, money};
use crate::error::{Error, Result};
use crate::exports::route_report::{Route, RoutePlan, Sized, duration};

/// Items a second a scan from this machine reads: the grid's load of the sandbox's `Social`
/// (docs/browsing.md, "Speed and memory"), a machine's ceiling, not AWS's throughput.
pub const SCAN_ITEMS_PER_S: u64 = 107_000;

/// Items a second a reconcile reads from a gzipped export (`cargo bench --bench reconcile`).
pub const EXPORT_ITEMS_PER_S: u64 = 670_000;

/// One GB as AWS bills these: 2^30 bytes.
const GB: u64 = 1 << 30;

/// One TB as Athena bills it: 2^40 bytes.
const TB: u64 = 1 << 40;

/// The routes asked about: the table's size and items (as described, or given), the download
/// rate from S3 here, and an incremental window.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlanSpec {
    /// The table, when its size is read from DynamoDB.
    #[serde(default)]
    pub table: Option<String>,
    /// Items, instead of (or over) what DescribeTable says.
    #[serde(default)]
    pub items: Option<u64>,
    /// Bytes, instead of (or over) what DescribeTable says.
    #[serde(default)]
    pub bytes: Option<u64>,
    /// The download rate from S3 to this machine, in megabits a second (100 when not given).
    #[serde(default)]
    pub download_mbps: Option<u64>,
    /// An incremental export of the last this many hours (1 to 24).
    #[serde(default)]
    pub hours: Option<u64>,
    /// The data written in those hours, in bytes (what an incremental export is billed by).
    #[serde(default)]
    pub changed_bytes: Option<u64>,
}

impl PlanSpec {
    /// The size the routes are priced on: what was given over what `described` (items,
    /// bytes) says; refused when neither says it.
    pub fn sized(&self, described: Option<(Option<i64>, Option<i64>)>) -> Result<Sized> {
        let (items, bytes) = described.unwrap_or((None, None));
        let as_u64 = |n: Option<i64>| n.and_then(|n| u64::try_from(n).ok());
        let (items, bytes) = (self.items.or(as_u64(items)), self.bytes.or(as_u64(bytes)));
        let (Some(items), Some(bytes)) = (items, bytes) else {
            return Err(Error::Invalid(
                "items and bytes: name a table DynamoDB describes, or give both".to_owned(),
            ));
        };
        let source = match (self.items.is_some() || self.bytes.is_some(), &self.table) {
            (false, Some(table)) => {
                format!("table {table} as DescribeTable says (refreshed about every six hours)")
            }
            (true, Some(table)) => format!("table {table}, with the figures given"),
            (_, None) => "the figures given".to_owned(),
        };
        if let Some(hours) = self.hours
            && !(1..=24).contains(&hours)
        {
            return Err(Error::Invalid(format!(
                "hours: an incremental export covers 15 minutes to 24 hours, not {hours} hours"
            )));
        }
        if self.download_mbps == Some(0) {
            return Err(Error::Invalid("download_mbps: at least 1".to_owned()));
        }
        Ok(Sized {
            items,
            bytes,
            source,
        })
    }

    /// Every route for `size`, priced with `pricing`, and the one recommended.
    pub fn routes(&self, size: &Sized, pricing: &Pricing) -> RoutePlan {
        let mbps = self.download_mbps.unwrap_or(100);
        let mut routes = vec![
            scan_here(size, pricing),
            export_here(size, pricing, mbps),
            export_athena(size, pricing),
        ];
        if let Some(hours) = self.hours {
            routes.push(incremental(hours, self.changed_bytes, pricing));
        }
        RoutePlan::of(size.clone(), pricing, routes)
    }
}

fn sign(pricing: &Pricing) -> String {
    pricing
        .prices
        .as_ref()
        .map_or("$".to_owned(), RegionPrices::sign)
}

fn dec(n: u64) -> BigDecimal {
    BigDecimal::from(n)
}

fn gb_text(bytes: u64) -> String {
    let tenths = u128::from(bytes) * 10 / u128::from(GB);
    format!("{}.{} GB", tenths / 10, tenths % 10)
}

/// A scan from here: eventually consistent, half a read unit per 4 KB read, on demand.
fn scan_here(size: &Sized, pricing: &Pricing) -> Route {
    let units = dec(size.bytes.div_ceil(4096)) / dec(2);
    let per_million = pricing
        .prices
        .as_ref()
        .and_then(|p| p.standard.read_request_per_million.clone());
    let dollars = per_million.as_ref().map(|p| &units * p / dec(1_000_000));
    let seconds = size.items.div_ceil(SCAN_ITEMS_PER_S);
    let reads = size.bytes.div_ceil(4096);
    let half = if reads % 2 == 1 { ".5" } else { "" };
    let mut arithmetic = vec![format!(
        "{} bytes ÷ 4 KB = {} reads ÷ 2 (eventually consistent) = {}{half} read units",
        count(size.bytes),
        count(reads),
        count(reads / 2)
    )];
    if let (Some(p), Some(d)) = (&per_million, &dollars) {
        arithmetic.push(format!(
            "× {} per million on demand = {}",
            money(p, &sign(pricing)),
            money(d, &sign(pricing))
        ));
    }
    arithmetic.push(format!(
        "{} items ÷ {} items/s (the most this machine read from a scan) = {}",
        count(size.items),
        count(SCAN_ITEMS_PER_S),
        duration(seconds)
    ));
    Route {
        name: "scan from here",
        dollars,
        seconds: Some(seconds),
        arithmetic,
        caveat: "not a snapshot: the table changes while it is read; a provisioned table is \
                 read at its own capacity, paid by the hour"
            .to_owned(),
    }
}

/// An export, then its files read from S3 here (out of AWS, so S3's transfer out is paid).
fn export_here(size: &Sized, pricing: &Pricing, mbps: u64) -> Route {
    let beyond = pricing.prices.as_ref().map(|p| &p.beyond);
    let export = beyond.and_then(|b| b.export_full_gb.clone());
    let out = beyond.and_then(|b| b.s3_out_gb.clone());
    let gb = dec(size.bytes) / dec(GB);
    let dollars = match (&export, &out) {
        (Some(e), Some(o)) => Some(&gb * e + &gb * o),
        _ => None,
    };
    let download = (u128::from(size.bytes) * 8).div_ceil(u128::from(mbps) * 1_000_000);
    let parse = size.items.div_ceil(EXPORT_ITEMS_PER_S);
    let seconds = u64::try_from(download).unwrap_or(u64::MAX).max(parse);
    let s = sign(pricing);
    let mut arithmetic = Vec::new();
    if let (Some(e), Some(o)) = (&export, &out) {
        arithmetic.push(format!(
            "{} × ({} export + {} S3 transfer out) per GB = {}",
            gb_text(size.bytes),
            money(e, &s),
            money(o, &s),
            money(&(&gb * e + &gb * o), &s)
        ));
    }
    arithmetic.push(format!(
        "here: the larger of {} to download at {mbps} Mbit/s and {} items ÷ {} items/s read = {}, \
         after the export itself (AWS's time)",
        duration(u64::try_from(download).unwrap_or(u64::MAX)),
        count(size.items),
        count(EXPORT_ITEMS_PER_S),
        duration(seconds)
    ));
    Route {
        name: "export, then reconcile from S3 here",
        dollars,
        seconds: Some(seconds),
        arithmetic,
        caveat: "a snapshot; no read capacity used; the export's size is taken as the table's \
                 (gzip makes it smaller); on an EC2 machine in the region no transfer is paid"
            .to_owned(),
    }
}

/// An export, then Athena over it (its scan billed by the TB, at least 10 MB a query).
fn export_athena(size: &Sized, pricing: &Pricing) -> Route {
    let beyond = pricing.prices.as_ref().map(|p| &p.beyond);
    let export = beyond.and_then(|b| b.export_full_gb.clone());
    let athena = beyond.and_then(|b| b.athena_tb.clone());
    let least = beyond
        .and_then(|b| b.athena_min_mb.clone())
        .unwrap_or_default()
        * dec(1 << 20);
    let scanned = dec(size.bytes).max(least);
    let s = sign(pricing);
    let mut arithmetic = Vec::new();
    let dollars = match (&export, &athena) {
        (Some(e), Some(a)) => {
            let export_cost = dec(size.bytes) / dec(GB) * e;
            let query = &scanned / dec(TB) * a;
            arithmetic.push(format!(
                "{} × {} export per GB = {}; Athena scans it once: {} per TB (at least 10 MB) = {}",
                gb_text(size.bytes),
                money(e, &s),
                money(&export_cost, &s),
                money(a, &s),
                money(&query, &s)
            ));
            Some(export_cost + query)
        }
        _ => None,
    };
    arithmetic.push("no time here: Athena runs it on its own fleet".to_owned());
    Route {
        name: "export, then Athena",
        dollars,
        seconds: None,
        arithmetic,
        caveat:
            "a snapshot; each query scans the export again; Glue's catalogue and S3's requests \
                 are billed besides"
                .to_owned(),
    }
}

/// An incremental export of the last `hours`: billed by the data written in them.
fn incremental(hours: u64, changed: Option<u64>, pricing: &Pricing) -> Route {
    let per_gb = pricing
        .prices
        .as_ref()
        .and_then(|p| p.beyond.export_incremental_gb.clone());
    let s = sign(pricing);
    let (dollars, arithmetic) = match (changed, &per_gb) {
        (Some(bytes), Some(p)) => {
            let d = dec(bytes) / dec(GB) * p;
            let words = format!(
                "{} written in {hours} h × {} per GB = {}",
                gb_text(bytes),
                money(p, &s),
                money(&d, &s)
            );
            (Some(d), vec![words])
        }
        (None, Some(p)) => (
            None,
            vec![format!(
                "{} per GB written in the {hours} h (give the bytes written to price it)",
                money(p, &s)
            )],
        ),
        (_, None) => (None, Vec::new()),
    };
    Route {
        name: "incremental export of the last hours",
        dollars,
        seconds: None,
        arithmetic,
        caveat: "finds which parents gained a drift in the window, not drifts from before it"
            .to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cost::{Billing, PriceBook};
    use crate::document::Document;

    fn us_east() -> Pricing {
        Pricing::new(&PriceBook::shipped(), "us-east-1", None, Billing::default())
    }

    fn planned(items: u64, bytes: u64) -> RoutePlan {
        let spec = PlanSpec {
            items: Some(items),
            bytes: Some(bytes),
            hours: Some(6),
            changed_bytes: Some(2 << 30),
            ..PlanSpec::default()
        };
        spec.routes(&spec.sized(None).unwrap(), &us_east())
    }

    fn dollars(plan: &RoutePlan, name: &str) -> String {
        let route = plan.routes.iter().find(|r| r.name == name).unwrap();
        money(route.dollars.as_ref().unwrap(), "$")
    }

    #[test]
    fn a_billion_likes_go_to_athena_and_a_small_table_is_scanned() {
        // 10,000,000 posts and 1,000,000,000 likes of 135 bytes each: 127 GiB.
        let items = 1_010_000_000;
        let plan = planned(items, items * 135);
        // 136,350,000,000 bytes ÷ 4096 ÷ 2 = 16,644,287.1 units × $0.125 per million.
        assert_eq!(dollars(&plan, "scan from here"), "$2.08");
        assert_eq!(plan.routes[0].seconds, Some(9440), "1.01e9 ÷ 107,000");
        // 126.99 GiB × ($0.10 + $0.09).
        assert_eq!(
            dollars(&plan, "export, then reconcile from S3 here"),
            "$24.13"
        );
        // 126.99 GiB × $0.10 + 0.124 TiB × $5.
        assert_eq!(dollars(&plan, "export, then Athena"), "$13.32");
        assert_eq!(
            dollars(&plan, "incremental export of the last hours"),
            "$0.2"
        );
        let recommended = plan.recommended.map(|i| plan.routes[i].name);
        assert_eq!(recommended, Some("export, then Athena"), "{:?}", plan.why);
        assert!(plan.why.contains("over an hour"), "{}", plan.why);
        let json = plan.to_json();
        assert_eq!(json["recommended"], "export, then Athena");
        assert_eq!(json["routes"][0]["seconds"], 9440);

        let small = planned(26_524, 3_580_000);
        let recommended = small.recommended.map(|i| small.routes[i].name);
        assert_eq!(recommended, Some("scan from here"));
        // 3,580,000 ÷ 4096 → 875 reads of 4 KB ÷ 2 = 437.5 units × $0.125 per million.
        assert_eq!(dollars(&small, "scan from here"), "$0.0000547");
        // A hundred bytes cost less to export than to scan, on paper: the scan, within the
        // hour, is still the way (no export to wait for).
        let tiny = planned(5, 100);
        assert_eq!(tiny.recommended, Some(0), "{}", tiny.why);
        assert!(tiny.why.contains("within the hour"), "{}", tiny.why);
    }

    #[test]
    fn sizes_come_from_the_table_or_are_given_and_odd_ones_are_refused() {
        let spec = PlanSpec {
            table: Some("Social".to_owned()),
            ..PlanSpec::default()
        };
        let sized = spec.sized(Some((Some(10), Some(2048)))).unwrap();
        assert_eq!((sized.items, sized.bytes), (10, 2048));
        assert!(sized.source.contains("DescribeTable"));
        assert!(spec.sized(Some((None, Some(1)))).is_err());
        let hours = PlanSpec {
            items: Some(1),
            bytes: Some(1),
            hours: Some(25),
            ..PlanSpec::default()
        };
        assert!(
            hours
                .sized(None)
                .unwrap_err()
                .to_string()
                .contains("24 hours")
        );
        assert_eq!(duration(9440), "2 h 37 min");
        assert_eq!(duration(600), "10 min");
    }
}
