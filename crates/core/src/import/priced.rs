//! A finished import said as a report: its summary priced for the table written, what was not
//! written and why, and how it ended.

use serde_json::{Value, json};

use crate::cost::Pricing;
use crate::ending::Ending;
use crate::import::ImportReport;
use crate::report::{Line, Report, Tone};

/// An import's report with the prices of the table it wrote to.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportRun {
    /// What the import did.
    pub report: ImportReport,
    /// What the table's writes cost.
    pub pricing: Pricing,
}

impl Report for ImportRun {
    fn lines(&self) -> Vec<Line> {
        let tone = match self.ending() {
            Ending::Done => Tone::Good,
            _ => Tone::Warn,
        };
        let mut lines = vec![Line::new(tone, self.report.summary(&self.pricing))];
        lines.extend(
            self.report
                .details()
                .into_iter()
                .map(|text| Line::new(Tone::Plain, text)),
        );
        lines
    }

    fn to_json(&self) -> Value {
        let r = &self.report;
        let places = |list: &[crate::import::NotWritten]| {
            list.iter()
                .map(|n| json!({"items": n.items, "reason": n.reason, "bad_input": n.bad_input}))
                .collect::<Vec<_>>()
        };
        json!({
            "read": r.read,
            "written": r.written,
            "refused": r.refused_count(),
            "unknown": r.unknown_count(),
            "not_sent": r.not_sent,
            "requests": r.requests,
            "wcu": r.wcu,
            "usd": self.pricing.write(r.wcu).usd_json(),
            "seconds": r.elapsed.as_secs_f64(),
            "dry_run": r.dry_run,
            "skipped": r.skipped,
            "stopped": r.stopped,
            "refusals": places(&r.refused),
            "unknowns": places(&r.unknown),
            "rejected_file": r.rejected_file.as_ref().map(|f| f.display().to_string()),
        })
    }

    fn ending(&self) -> Ending {
        self.report.ending()
    }
}
