//! A table's own metrics on AWS, read from CloudWatch: the read and write capacity it
//! consumed and how often it was throttled, for the table and each global secondary index,
//! over the last hours (`GetMetricData`, five-minute sums); and Contributor Insights
//! ([`insights`]): its status, switching it, and its most-accessed and most-throttled keys.

pub mod insights;
pub mod insights_read;

use aws_sdk_cloudwatch::primitives::DateTime;
use aws_sdk_cloudwatch::types::{Dimension, Metric, MetricDataQuery, MetricStat};
use bigdecimal::BigDecimal;
use serde::Serialize;

use crate::connection::Connection;
use crate::cost::units_of;
use crate::cost::usd::ExactNumber;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::report::{Line, Report, Tone, plain};
use crate::table::{IndexKind, TableInfo};

/// DynamoDB's namespace in CloudWatch.
pub const NAMESPACE: &str = "AWS/DynamoDB";
/// The period of each point: five minutes.
pub const PERIOD_SECONDS: i32 = 300;
/// The longest look back: 24 hours.
pub(crate) const MAX_HOURS: u32 = 24;
/// The metrics read for the table and each global secondary index.
pub(crate) const METRICS: [&str; 4] = [
    "ConsumedReadCapacityUnits",
    "ConsumedWriteCapacityUnits",
    "ReadThrottleEvents",
    "WriteThrottleEvents",
];
/// The operations `ThrottledRequests` is read for (its dimensions are the table and the
/// operation); their sums are added into one series.
pub(crate) const OPERATIONS: [&str; 10] = [
    "GetItem",
    "BatchGetItem",
    "Query",
    "Scan",
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "BatchWriteItem",
    "TransactWriteItems",
    "TransactGetItems",
];
/// CloudWatch answers at most this many pages of one request here.
const MAX_PAGES: usize = 50;

/// One point: the sum over the period that starts at `at_ms`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Point {
    /// The period's start, ms since the epoch.
    pub at_ms: i64,
    /// The sum over the period, as CloudWatch gave it.
    pub sum: BigDecimal,
}

/// One metric of the table or of one index, oldest point first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    /// The metric, e.g. `ConsumedWriteCapacityUnits`, or `ThrottledRequests`.
    pub metric: String,
    /// The index it is of (`None`: the table).
    pub index: Option<String>,
    /// Its points.
    pub points: Vec<Point>,
}

impl Series {
    /// The sum of every point.
    pub fn total(&self) -> BigDecimal {
        self.points.iter().map(|p| &p.sum).sum()
    }

    /// The busiest period's rate per second (its sum over the period's seconds).
    pub fn peak_per_second(&self) -> Option<BigDecimal> {
        self.points
            .iter()
            .map(|p| &p.sum)
            .max()
            .map(|sum| sum / BigDecimal::from(PERIOD_SECONDS))
    }

    /// `Social: ConsumedWriteCapacityUnits`, `Social / GSI1: …`.
    pub fn name(&self, table: &str) -> String {
        match &self.index {
            Some(index) => format!("{table} / {index}: {}", self.metric),
            None => format!("{table}: {}", self.metric),
        }
    }
}

/// The table's metrics over a time range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableMetrics {
    /// The table.
    pub table: String,
    /// From, ms since the epoch.
    pub from_ms: i64,
    /// To.
    pub to_ms: i64,
    /// Every series read (a metric with no data has no points).
    pub series: Vec<Series>,
}

impl TableMetrics {
    /// The series of `metric` for the table (`index` `None`) or one index.
    pub fn get(&self, metric: &str, index: Option<&str>) -> Option<&Series> {
        self.series
            .iter()
            .find(|s| s.metric == metric && s.index.as_deref() == index)
    }
}

impl TableMetrics {
    /// The metrics as their document.
    fn document(&self) -> TableMetricsDocument {
        TableMetricsDocument {
            table: self.table.clone(),
            from: self.from_ms,
            to: self.to_ms,
            period_seconds: PERIOD_SECONDS,
            series: (self.series.iter())
                .map(|s| SeriesDocument {
                    metric: s.metric.clone(),
                    index: s.index.clone(),
                    total: ExactNumber(s.total()),
                    points: (s.points.iter())
                        .map(|p| PointDocument {
                            at: p.at_ms,
                            sum: ExactNumber(p.sum.clone()),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

crate::document_as!(TableMetrics => TableMetricsDocument, document);

/// A table's own metrics from CloudWatch over a time range, in five-minute sums.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct TableMetricsDocument {
    /// The table.
    pub table: String,
    /// The range's start, in milliseconds since 1970.
    pub from: i64,
    /// The range's end, in milliseconds since 1970.
    pub to: i64,
    /// The seconds each point sums over.
    pub period_seconds: i32,
    /// Every series read (a metric with no data has no points).
    pub series: Vec<SeriesDocument>,
}

/// One metric of the table or of one of its global secondary indexes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct SeriesDocument {
    /// The metric, e.g. `ConsumedWriteCapacityUnits` or `ThrottledRequests`.
    pub metric: String,
    /// The index it is of; `null` for the table.
    pub index: Option<String>,
    /// The sum of every point, exactly.
    pub total: ExactNumber,
    /// Its points, oldest first.
    pub points: Vec<PointDocument>,
}

/// One point: the sum over the period that starts at `at`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PointDocument {
    /// The period's start, in milliseconds since 1970.
    pub at: i64,
    /// The sum over the period, exactly as CloudWatch gave it.
    pub sum: ExactNumber,
}

impl Report for TableMetrics {
    /// The metrics in lines, a series each: its total and its busiest five minutes per second.
    fn lines(&self) -> Vec<Line> {
        let texts = self.series.iter().map(|s| {
            let total = crate::report::capacity_exact(&s.total());
            match s.peak_per_second() {
                Some(peak) => format!(
                    "{}: {total} in all, busiest 5 minutes {}/s, {} points",
                    s.name(&self.table),
                    crate::report::capacity_exact(
                        &peak.with_scale_round(3, bigdecimal::RoundingMode::HalfUp)
                    ),
                    s.points.len()
                ),
                None => format!("{}: no data", s.name(&self.table)),
            }
        });
        plain(Tone::Plain, texts)
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }
}

/// What is read: a query id for each metric of the table and each global index, and one per
/// operation for `ThrottledRequests`.
fn queries(info: &TableInfo) -> Vec<(String, Option<String>, MetricDataQuery)> {
    let dimension = |name: &str, value: &str| Dimension::builder().name(name).value(value).build();
    let query = |id: String, metric: &str, dimensions: Vec<Dimension>| {
        MetricDataQuery::builder()
            .id(id)
            .metric_stat(
                MetricStat::builder()
                    .metric(
                        Metric::builder()
                            .namespace(NAMESPACE)
                            .metric_name(metric)
                            .set_dimensions(Some(dimensions))
                            .build(),
                    )
                    .period(PERIOD_SECONDS)
                    .stat("Sum")
                    .build(),
            )
            .return_data(true)
            .build()
    };
    let mut out = Vec::new();
    let globals = info
        .indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Global)
        .map(|i| Some(i.name.clone()));
    for (n, index) in std::iter::once(None).chain(globals).enumerate() {
        for (m, metric) in METRICS.iter().enumerate() {
            let mut dimensions = vec![dimension("TableName", &info.name)];
            if let Some(index) = &index {
                dimensions.push(dimension("GlobalSecondaryIndexName", index));
            }
            out.push((
                (*metric).to_owned(),
                index.clone(),
                query(format!("m{n}_{m}"), metric, dimensions),
            ));
        }
    }
    for (o, operation) in OPERATIONS.iter().enumerate() {
        let dimensions = vec![
            dimension("TableName", &info.name),
            dimension("Operation", operation),
        ];
        out.push((
            "ThrottledRequests".to_owned(),
            None,
            query(format!("t{o}"), "ThrottledRequests", dimensions),
        ));
    }
    out
}

/// Read `info`'s metrics for the `hours` before `now_ms` (1 to [`MAX_HOURS`]) from the
/// connection's CloudWatch.
pub async fn read_metrics(
    connection: &Connection,
    info: &TableInfo,
    hours: u32,
    now_ms: i64,
) -> Result<TableMetrics> {
    if hours == 0 || hours > MAX_HOURS {
        return Err(Error::Invalid(format!(
            "hours: 1 to {MAX_HOURS} (CloudWatch keeps five-minute points for 15 days; dynoscope charts a day at most)"
        )));
    }
    let client = connection.cloudwatch();
    let from_ms = now_ms - i64::from(hours) * 3_600_000;
    let wanted = queries(info);
    let mut series: Vec<Series> = Vec::new();
    let mut points: std::collections::HashMap<String, Vec<Point>> =
        std::collections::HashMap::default();
    let mut next: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let out = client
            .get_metric_data()
            .set_metric_data_queries(Some(wanted.iter().map(|(_, _, q)| q.clone()).collect()))
            .start_time(DateTime::from_millis(from_ms))
            .end_time(DateTime::from_millis(now_ms))
            .set_next_token(next.take())
            .send()
            .await
            .map_err(|e| Error::from_sdk("GetMetricData", e))?;
        for result in out.metric_data_results() {
            let Some(id) = result.id() else { continue };
            let list = points.entry(id.to_owned()).or_default();
            for (at, value) in result.timestamps().iter().zip(result.values()) {
                let at_ms = at.to_millis().unwrap_or_default();
                list.push(Point {
                    at_ms,
                    sum: units_of(*value),
                });
            }
        }
        next = out.next_token().map(str::to_owned);
        if next.is_none() {
            break;
        }
    }
    for (metric, index, query) in &wanted {
        let mut got = points
            .remove(query.id().unwrap_or_default())
            .unwrap_or_default();
        match series
            .iter_mut()
            .find(|s| &s.metric == metric && &s.index == index)
        {
            // The operations' throttled requests, added per period.
            Some(existing) => existing.points.append(&mut got),
            None => series.push(Series {
                metric: metric.clone(),
                index: index.clone(),
                points: got,
            }),
        }
    }
    for s in &mut series {
        s.points = by_period(std::mem::take(&mut s.points));
    }
    Ok(TableMetrics {
        table: info.name.clone(),
        from_ms,
        to_ms: now_ms,
        series,
    })
}

/// Points sorted by time, those of one period added together.
fn by_period(mut points: Vec<Point>) -> Vec<Point> {
    points.sort_by_key(|p| p.at_ms);
    let mut out: Vec<Point> = Vec::with_capacity(points.len());
    for point in points {
        match out.last_mut() {
            Some(last) if last.at_ms == point.at_ms => last.sum += point.sum,
            _ => out.push(point),
        }
    }
    out
}
