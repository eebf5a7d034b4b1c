//! Contributor Insights: whether it is on for a table, turning it on or off (a configuration
//! write through the gateway), and its reports: the most-accessed and most-throttled keys.

use aws_sdk_cloudwatch::operation::get_insight_rule_report::GetInsightRuleReportOutput;
use aws_sdk_cloudwatch::primitives::DateTime;
use bigdecimal::BigDecimal;

use crate::connection::Connection;
use crate::cost::units_of;
use crate::error::{Error, Result};
use crate::write::{Destination, TableSetting, WritePlan};

/// The most keys a report lists.
pub(crate) const TOP: i32 = 10;

/// Contributor Insights of one table, as DescribeContributorInsights says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Insights {
    /// `ENABLED`, `DISABLED`, `ENABLING`, `DISABLING`, `FAILED`.
    pub status: String,
    /// The CloudWatch rules it writes (their reports hold the keys).
    pub rules: Vec<String>,
    /// Why it failed, when it did.
    pub failure: Option<String>,
}

impl Insights {
    /// Whether its reports can be read.
    pub fn enabled(&self) -> bool {
        self.status == "ENABLED"
    }
}

/// What a rule counts, from its name (`DynamoDBContributorInsights-PKC-Social-…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleKind {
    /// The most-accessed partition keys.
    AccessedPartitions,
    /// The most-throttled partition keys.
    ThrottledPartitions,
    /// The most-accessed partition and sort keys.
    AccessedItems,
    /// The most-throttled partition and sort keys.
    ThrottledItems,
}

impl RuleKind {
    /// What a rule of this name counts; `None` for a name of another shape.
    pub fn of(rule: &str) -> Option<Self> {
        [
            ("-PKC-", Self::AccessedPartitions),
            ("-PKT-", Self::ThrottledPartitions),
            ("-SKC-", Self::AccessedItems),
            ("-SKT-", Self::ThrottledItems),
        ]
        .into_iter()
        .find_map(|(part, kind)| rule.contains(part).then_some(kind))
    }

    /// `Most-accessed partition keys`.
    pub fn title(self) -> &'static str {
        match self {
            Self::AccessedPartitions => "Most-accessed partition keys",
            Self::ThrottledPartitions => "Most-throttled partition keys",
            Self::AccessedItems => "Most-accessed keys (partition and sort)",
            Self::ThrottledItems => "Most-throttled keys (partition and sort)",
        }
    }
}

/// One key of a report and how much it counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Contributor {
    /// The key's values, in the rule's order (partition, then sort).
    pub keys: Vec<String>,
    /// Its approximate count over the report's time range.
    pub value: BigDecimal,
}

/// One rule's report: what it counts and its top keys, most first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InsightsReport {
    /// The rule.
    pub rule: String,
    /// What it counts.
    pub kind: Option<RuleKind>,
    /// The keys, most first.
    pub contributors: Vec<Contributor>,
}

/// Whether Contributor Insights is on for `table`.
pub async fn describe(connection: &Connection, table: &str) -> Result<Insights> {
    let out = connection
        .client
        .describe_contributor_insights()
        .table_name(table)
        .send()
        .await
        .map_err(|e| Error::from_sdk("DescribeContributorInsights", e))?;
    Ok(Insights {
        status: out
            .contributor_insights_status()
            .map_or("unknown".to_owned(), |s| s.as_str().to_owned()),
        rules: out.contributor_insights_rule_list().to_vec(),
        failure: out
            .failure_exception()
            .and_then(|f| f.exception_description())
            .map(str::to_owned),
    })
}

/// The plan that turns Contributor Insights on or off for `table`: a configuration write,
/// asked about off this machine and refused on a read-only connection, like every write.
pub fn switch_plan(destination: Destination, table: &str, enable: bool) -> WritePlan {
    WritePlan::table_setting(
        destination,
        TableSetting::ContributorInsights {
            table: table.to_owned(),
            enable,
        },
    )
}

/// A report's keys, most first, as CloudWatch's `GetInsightRuleReport` answers them.
pub(crate) fn contributors(out: &GetInsightRuleReportOutput) -> Vec<Contributor> {
    let mut list: Vec<Contributor> = out
        .contributors()
        .iter()
        .map(|c| Contributor {
            keys: c.keys().to_vec(),
            value: units_of(c.approximate_aggregate_value().unwrap_or_default()),
        })
        .collect();
    list.sort_by(|a, b| b.value.cmp(&a.value));
    list
}

/// Read the reports of `rules` over the `hours` before `now_ms`, their top [`TOP`] keys each.
pub async fn reports(
    connection: &Connection,
    rules: &[String],
    hours: u32,
    now_ms: i64,
) -> Result<Vec<InsightsReport>> {
    let client = connection.cloudwatch();
    let mut out = Vec::with_capacity(rules.len());
    for rule in rules {
        let answer = client
            .get_insight_rule_report()
            .rule_name(rule)
            .start_time(DateTime::from_millis(
                now_ms - i64::from(hours.max(1)) * 3_600_000,
            ))
            .end_time(DateTime::from_millis(now_ms))
            .period(super::PERIOD_SECONDS)
            .max_contributor_count(TOP)
            .order_by("Sum")
            .send()
            .await
            .map_err(|e| Error::from_sdk("GetInsightRuleReport", e))?;
        out.push(InsightsReport {
            rule: rule.clone(),
            kind: RuleKind::of(rule),
            contributors: contributors(&answer),
        });
    }
    Ok(out)
}

/// A report in lines: its title, then `POST#f00d: 18,200` a key each.
pub fn report_lines(report: &InsightsReport) -> Vec<String> {
    let mut lines = vec![
        report
            .kind
            .map_or(report.rule.clone(), |k| k.title().to_owned()),
    ];
    if report.contributors.is_empty() {
        lines.push("  none in this time range".to_owned());
    }
    for c in &report.contributors {
        lines.push(format!(
            "  {}: {}",
            c.keys.join(" / "),
            crate::report::capacity_exact(&c.value)
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use aws_sdk_cloudwatch::types::InsightRuleContributor;

    use super::*;

    /// A report of the shape GetInsightRuleReport documents: `KeyLabels`, `AggregationStatistic`,
    /// `AggregateValue`, `ApproximateUniqueCount` and `Contributors`, each with `Keys` and
    /// `ApproximateAggregateValue` (here out of order, as nothing promises an order).
    #[test]
    fn a_report_lists_its_keys_most_first() {
        let out = GetInsightRuleReportOutput::builder()
            .key_labels("PK")
            .aggregation_statistic("Sum")
            .aggregate_value(30_100.0)
            .approximate_unique_count(3)
            .contributors(
                InsightRuleContributor::builder()
                    .keys("POST#a91f")
                    .approximate_aggregate_value(1_900.0)
                    .build(),
            )
            .contributors(
                InsightRuleContributor::builder()
                    .keys("POST#f00d")
                    .approximate_aggregate_value(28_200.0)
                    .build(),
            )
            .build();
        let list = contributors(&out);
        assert_eq!(list[0].keys, vec!["POST#f00d".to_owned()]);
        assert_eq!(list[0].value, BigDecimal::from(28_200));
        let rule = "DynamoDBContributorInsights-PKC-Social-1733000000000";
        assert_eq!(RuleKind::of(rule), Some(RuleKind::AccessedPartitions));
        assert_eq!(
            RuleKind::of("DynamoDBContributorInsights-SKT-Social-1"),
            Some(RuleKind::ThrottledItems)
        );
        assert_eq!(RuleKind::of("MyOwnRule"), None);
        let report = InsightsReport {
            rule: rule.to_owned(),
            kind: RuleKind::of(rule),
            contributors: list,
        };
        assert_eq!(
            report_lines(&report),
            vec![
                "Most-accessed partition keys".to_owned(),
                "  POST#f00d: 28,200".to_owned(),
                "  POST#a91f: 1,900".to_owned()
            ]
        );
    }
}
