//! The route planner's report: each route with its dollars, its time here and its arithmetic,
//! and the one recommended with why.

use bigdecimal::BigDecimal;
use serde::Serialize;

use crate::cost::{Pricing, count, money};
use crate::ending::Ending;
use crate::report::{Line, Listing, Report, Tone};

/// A scan from here is recommended only while it ends within this many seconds: a longer scan
/// is a long way from a snapshot.
const SCAN_AT_MOST: u64 = 3600;

/// The table's size as read, or as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sized {
    /// Items.
    pub items: u64,
    /// Bytes.
    pub bytes: u64,
    /// Where the figures come from, in words.
    pub source: String,
}

/// `seconds` in words: `45 s`, `12 min`, `2 h 35 min`.
pub fn duration(seconds: u64) -> String {
    match seconds {
        0..=119 => format!("{seconds} s"),
        120..=7199 => format!("{} min", seconds.div_ceil(60)),
        _ => format!("{} h {} min", seconds / 3600, (seconds % 3600) / 60),
    }
}

/// One way to reconcile.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// Its name.
    pub name: &'static str,
    /// What it costs, when the prices are known.
    pub dollars: Option<BigDecimal>,
    /// Its time here, when it takes any.
    pub seconds: Option<u64>,
    /// How the figures were reached, in words.
    pub arithmetic: Vec<String>,
    /// What to know about it.
    pub caveat: String,
}

/// Every route, and the one recommended.
#[derive(Debug, Clone, PartialEq)]
pub struct RoutePlan {
    /// The size priced.
    pub size: Sized,
    /// The region priced as, and why when not the connection's own.
    pub region: String,
    /// Why that region, when assumed.
    pub assumed: Option<String>,
    /// The prices' source and date.
    pub source: String,
    /// The currency's sign.
    sign: String,
    /// The routes.
    pub routes: Vec<Route>,
    /// The index of the one recommended, when any is priced.
    pub recommended: Option<usize>,
    /// Why.
    pub why: String,
}

impl RoutePlan {
    /// The plan of `routes`: a scan from here when it ends within the hour, else the cheapest
    /// export route.
    pub(crate) fn of(size: Sized, pricing: &Pricing, routes: Vec<Route>) -> Self {
        let scan_in_time = routes
            .first()
            .is_some_and(|r| r.name == "scan from here" && r.seconds <= Some(SCAN_AT_MOST));
        // A scan ends within the hour: no export to wait for and no S3 to read (and on demand
        // it costs less a GB than an export). Else the cheapest snapshot of the whole table.
        let recommended = if scan_in_time {
            Some(0)
        } else {
            routes
                .iter()
                .enumerate()
                .filter(|(_, r)| r.dollars.is_some() && r.name.starts_with("export"))
                .min_by(|(_, a), (_, b)| a.dollars.cmp(&b.dollars))
                .map(|(i, _)| i)
        };
        let why = match recommended {
            None => "no route is priced: the region's prices are not known".to_owned(),
            Some(0) if scan_in_time => "scan from here: it ends within the hour, with no export \
                                         to wait for and no S3 to read"
                .to_owned(),
            Some(i) => format!(
                "{}: the cheapest of the whole-table routes that is a snapshot; a scan from here \
                 would take over an hour, and the table changes meanwhile",
                routes[i].name
            ),
        };
        let (source, sign) = pricing.prices.as_ref().map_or_else(
            || (String::new(), "$".to_owned()),
            |p| {
                let beyond = p.beyond.source.clone().unwrap_or_default();
                (format!("{} ({}); {beyond}", p.source, p.as_of), p.sign())
            },
        );
        Self {
            size,
            region: pricing.region.clone(),
            assumed: pricing.assumed.clone(),
            source,
            sign,
            routes,
            recommended,
            why,
        }
    }
}

impl RoutePlan {
    /// The plan as its document.
    fn document(&self) -> RoutePlanDocument {
        RoutePlanDocument {
            items: self.size.items,
            bytes: self.size.bytes,
            source: self.size.source.clone(),
            region: self.region.clone(),
            assumed: self.assumed.clone(),
            routes: (self.routes.iter())
                .map(|r| RouteDocument {
                    route: r.name.to_owned(),
                    dollars: r.dollars.as_ref().map(|d| d.normalized().to_string()),
                    seconds: r.seconds,
                    arithmetic: r.arithmetic.clone(),
                    caveat: r.caveat.clone(),
                })
                .collect(),
            recommended: (self.recommended)
                .and_then(|i| self.routes.get(i))
                .map(|r| r.name.to_owned()),
            why: self.why.clone(),
            prices: self.source.clone(),
        }
    }
}

crate::document_as!(RoutePlan => RoutePlanDocument, document);

/// Every way to reconcile a table, priced, and the one recommended with why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct RoutePlanDocument {
    /// The table's items, as read or given.
    pub(crate) items: u64,
    /// The table's bytes, as read or given.
    pub(crate) bytes: u64,
    /// Where the size comes from, in words.
    pub(crate) source: String,
    /// The region priced as.
    pub(crate) region: String,
    /// Why that region, when it is not the connection's own; `null` when it is.
    pub(crate) assumed: Option<String>,
    /// Each route.
    pub(crate) routes: Vec<RouteDocument>,
    /// The route recommended, by name; `null` when no route is priced.
    pub(crate) recommended: Option<String>,
    /// Why it is recommended.
    pub(crate) why: String,
    /// The prices' source and date, in words.
    pub(crate) prices: String,
}

/// One way to reconcile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct RouteDocument {
    /// Its name: `scan from here`, `export, then Athena`, ….
    pub(crate) route: String,
    /// What it costs in the prices' currency, exactly, as text; `null` when not priced.
    pub(crate) dollars: Option<String>,
    /// Its time here in seconds; `null` when it takes none here.
    pub(crate) seconds: Option<u64>,
    /// How the figures were reached, a step each.
    pub(crate) arithmetic: Vec<String>,
    /// What to know about it.
    pub(crate) caveat: String,
}

impl Report for RoutePlan {
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![Line::new(
            Tone::Title,
            format!(
                "{} items, {} bytes: {}; priced as {}",
                count(self.size.items),
                count(self.size.bytes),
                self.size.source,
                self.region
            ),
        )];
        if let Some(assumed) = &self.assumed {
            lines.push(Line::new(Tone::Quiet, assumed.clone()));
        }
        for (i, route) in self.routes.iter().enumerate() {
            let dollars = route
                .dollars
                .as_ref()
                .map_or("not priced".to_owned(), |d| money(d, &self.sign));
            let time = route.seconds.map_or("no time here".to_owned(), |s| {
                format!("{} here", duration(s))
            });
            let mark = if self.recommended == Some(i) {
                " (recommended)"
            } else {
                ""
            };
            lines.push(Line::new(
                if mark.is_empty() {
                    Tone::Title
                } else {
                    Tone::Good
                },
                format!("{}: {dollars}, {time}{mark}", route.name),
            ));
            for step in &route.arithmetic {
                lines.push(Line::new(Tone::Plain, format!("  {step}")));
            }
            lines.push(Line::new(Tone::Quiet, format!("  {}", route.caveat)));
        }
        lines.push(Line::new(Tone::Plain, format!("recommended: {}", self.why)));
        lines.push(Line::new(
            Tone::Quiet,
            format!(
                "prices: {}; never billed on AWS by dynoscope's tests",
                self.source
            ),
        ));
        lines
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }

    /// A row per route; the recommendation and why beside them.
    fn listing(&self) -> Option<Listing> {
        let keys = ["route", "dollars", "seconds", "caveat"];
        let recommended = self.recommended.map(|i| self.routes[i].name);
        let summary = (recommended.iter())
            .map(|name| Line::new(Tone::Good, format!("recommended: {name} — {}", self.why)))
            .collect();
        let document = crate::document::Document::to_json(self);
        Some(Listing::of(&document, "routes", &keys, summary))
    }
}
