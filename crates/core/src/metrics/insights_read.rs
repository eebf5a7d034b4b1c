//! Contributor Insights as reports: its status and top keys read ([`InsightsRead`]), and a
//! switch on or off sent through the gateway ([`InsightsSwitch`]), so every output of the CLI
//! says the same words and JSON.

use serde_json::{Value, json};

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

    fn to_json(&self) -> Value {
        let reports: Vec<Value> = (self.reports.iter())
            .map(|report| {
                json!({
                    "rule": report.rule,
                    "title": title(report),
                    "contributors": report.contributors.iter().map(|c| json!({
                        "keys": c.keys,
                        "value": c.value.normalized().to_plain_string(),
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        json!({
            "table": self.table,
            "status": self.now.status,
            "failure": self.now.failure,
            "rules": self.now.rules,
            "reports": reports,
        })
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

/// Contributor Insights switched on or off.
#[derive(Debug, Clone)]
pub struct InsightsSwitch {
    /// The table.
    pub table: String,
    /// The change, in words.
    pub what: String,
    /// What the gateway said.
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
            outcome => vec![Line::new(
                Tone::Bad,
                outcome
                    .failure()
                    .map_or_else(String::new, ToString::to_string),
            )],
        }
    }

    fn to_json(&self) -> Value {
        json!({ "table": self.table, "change": self.what })
    }

    fn ending(&self) -> Ending {
        self.outcome.ending()
    }

    fn failure(&self) -> Option<&Error> {
        match &self.outcome {
            WriteOutcome::Applied { .. } | WriteOutcome::Unknown { .. } => None,
            outcome => outcome.failure(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
