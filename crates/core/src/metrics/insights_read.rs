//! Contributor Insights as reports: its status and top keys read ([`InsightsRead`]), and a
//! switch on or off sent through the gateway ([`InsightsSwitch`]), so every output of the CLI
//! says the same words and JSON.

use serde::Serialize;
use serde_json::json;

use super::insights::{self, Insights, InsightsReport};
use crate::connection::Connection;
use crate::ending::Ending;
use crate::error::{Error, Result};
use crate::report::{Line, Listing, Report, Tone};
use crate::write::{self, Destination, WriteOutcome};

/// Whether Contributor Insights is on for a table, and its reports when it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InsightsRead {
    /// The table.
    pub table: String,
    /// Its status.
    pub now: Insights,
    /// Each rule's top keys (none while it is off).
    pub reports: Vec<InsightsReport>,
}

/// Read whether Contributor Insights is on for `table`, and when it is, its reports over the
/// `hours` before `now_ms`.
pub async fn read(
    connection: &Connection,
    table: &str,
    hours: u32,
    now_ms: i64,
) -> Result<InsightsRead> {
    let now = insights::describe(connection, table).await?;
    let reports = if now.enabled() {
        insights::reports(connection, &now.rules, hours, now_ms).await?
    } else {
        Vec::new()
    };
    Ok(InsightsRead {
        table: table.to_owned(),
        now,
        reports,
    })
}

/// What a report counts, in words: its rule's title, or the rule's name.
fn title(report: &InsightsReport) -> String {
    report
        .kind
        .map_or(report.rule.clone(), |k| k.title().to_owned())
}

impl InsightsRead {
    /// The status and reports as their document.
    fn document(&self) -> InsightsReadDocument {
        InsightsReadDocument {
            table: self.table.clone(),
            status: self.now.status.clone(),
            failure: self.now.failure.clone(),
            rules: self.now.rules.clone(),
            reports: (self.reports.iter())
                .map(|report| InsightsReportDocument {
                    rule: report.rule.clone(),
                    title: title(report),
                    contributors: (report.contributors.iter())
                        .map(|c| ContributorDocument {
                            keys: c.keys.clone(),
                            value: c.value.normalized().to_plain_string(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

crate::document_as!(InsightsRead => InsightsReadDocument, document);

/// Whether Contributor Insights is on for a table, and its reports when it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct InsightsReadDocument {
    /// The table.
    pub table: String,
    /// `ENABLED`, `DISABLED`, `ENABLING`, `DISABLING` or `FAILED`.
    pub status: String,
    /// Why it failed; `null` when it did not.
    pub failure: Option<String>,
    /// The CloudWatch rules it writes.
    pub rules: Vec<String>,
    /// Each rule's top keys (none while it is off).
    pub reports: Vec<InsightsReportDocument>,
}

/// One rule's report: what it counts and its top keys, most first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct InsightsReportDocument {
    /// The rule's name.
    pub rule: String,
    /// What it counts, in words: its title, or the rule's name.
    pub title: String,
    /// The keys, most first.
    pub contributors: Vec<ContributorDocument>,
}

/// One key of a report and its count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct ContributorDocument {
    /// The key's values, in the rule's order (partition, then sort).
    pub keys: Vec<String>,
    /// Its approximate count over the report's time range, exactly as CloudWatch gave it.
    pub value: String,
}

impl Report for InsightsRead {
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![Line::new(
            Tone::Title,
            format!(
                "Contributor Insights on {}: {}",
                self.table, self.now.status
            ),
        )];
        lines.extend(
            (self.now.failure.iter()).map(|f| Line::new(Tone::Bad, format!("failed: {f}"))),
        );
        for report in &self.reports {
            let lines_of = insights::report_lines(report);
            lines.extend(
                lines_of.into_iter().enumerate().map(|(i, text)| {
                    Line::new(if i == 0 { Tone::Plain } else { Tone::Figure }, text)
                }),
            );
        }
        lines
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }

    /// A row per key counted: the report it is in, the key (its values joined by ` / `, and
    /// as the document's `keys`), its count exactly as the document has it.
    fn listing(&self) -> Option<Listing> {
        let objects = (self.reports.iter())
            .flat_map(|report| {
                report.contributors.iter().map(|c| {
                    json!({
                        "report": title(report),
                        "key": c.keys.join(" / "),
                        "keys": c.keys,
                        "value": c.value.normalized().to_plain_string(),
                    })
                })
            })
            .collect();
        // The status, and a failure, beside the rows.
        let lines = self.lines();
        let summary = lines
            .into_iter()
            .take_while(|l| l.tone != Tone::Plain)
            .collect();
        Some(Listing::of_objects(
            objects,
            &["report", "key", "value"],
            summary,
        ))
    }
}

/// Contributor Insights switched on or off: a typed report, its document made by serde alone.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct InsightsSwitch {
    /// The table.
    pub table: String,
    /// The change, in words.
    #[serde(rename = "change")]
    pub what: String,
    /// What the gateway said.
    #[serde(skip)]
    pub outcome: WriteOutcome,
}

/// Switch Contributor Insights on (`enable`) or off for `table`, through the gateway.
pub async fn switch(
    connection: &Connection,
    table: &str,
    enable: bool,
    confirmed: bool,
) -> InsightsSwitch {
    let plan = insights::switch_plan(Destination::of(connection), table, enable);
    let outcome = write::send(connection, &plan, confirmed).await;
    InsightsSwitch {
        table: table.to_owned(),
        what: plan.what(),
        outcome,
    }
}

impl Report for InsightsSwitch {
    fn lines(&self) -> Vec<Line> {
        let (what, table) = (&self.what, &self.table);
        match &self.outcome {
            WriteOutcome::Applied { .. } => {
                vec![Line::new(Tone::Good, format!("{what} on {table}"))]
            }
            WriteOutcome::Unknown { .. } => vec![Line::new(
                Tone::Warn,
                format!(
                    "outcome unknown: {what} on {table} may have been applied; it was not sent again"
                ),
            )],
            outcome @ WriteOutcome::Refused { .. } => vec![Line::new(
                Tone::Bad,
                outcome
                    .failure()
                    .map_or_else(String::new, ToString::to_string),
            )],
        }
    }

    fn ending(&self) -> Ending {
        self.outcome.ending()
    }

    fn failure(&self) -> Option<&Error> {
        match &self.outcome {
            WriteOutcome::Applied { .. } | WriteOutcome::Unknown { .. } => None,
            outcome @ WriteOutcome::Refused { .. } => outcome.failure(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Document;
    use crate::metrics::insights::{Contributor, RuleKind};

    fn read() -> InsightsRead {
        let rule = "DynamoDBContributorInsights-PKC-Social-1700000000000".to_owned();
        InsightsRead {
            table: "Social".into(),
            now: Insights {
                status: "ENABLED".into(),
                rules: vec![rule.clone()],
                failure: None,
            },
            reports: vec![InsightsReport {
                kind: RuleKind::of(&rule),
                rule,
                contributors: vec![
                    Contributor {
                        keys: vec!["POST#f00d".into()],
                        value: "28200".parse().unwrap(),
                    },
                    Contributor {
                        keys: vec!["POST#a91f".into()],
                        value: "1900.5".parse().unwrap(),
                    },
                ],
            }],
        }
    }

    #[test]
    fn the_top_keys_are_rows_words_and_json_alike() {
        let read = read();
        let listing = read.listing().unwrap();
        assert_eq!(listing.columns, ["report", "key", "value"]);
        assert_eq!(
            listing.rows,
            [
                ["Most-accessed partition keys", "POST#f00d", "28200"],
                ["Most-accessed partition keys", "POST#a91f", "1900.5"],
            ]
        );
        let texts: Vec<String> = read.lines().into_iter().map(|l| l.text).collect();
        assert_eq!(
            texts,
            [
                "Contributor Insights on Social: ENABLED",
                "Most-accessed partition keys",
                "  POST#f00d: 28,200",
                "  POST#a91f: 1,900.5",
            ]
        );
        let json = read.to_json();
        let contributor = &json["reports"][0]["contributors"][1];
        assert_eq!(contributor["value"], listing.objects[1]["value"]);
        assert_eq!(contributor["keys"], listing.objects[1]["keys"]);
        assert_eq!(contributor["value"], "1900.5");
        // The status (and a failure) are said beside the rows.
        assert_eq!(listing.summary.len(), 1);
        assert_eq!(json["status"], "ENABLED");
        assert_eq!(read.ending(), Ending::Done);
    }
}
