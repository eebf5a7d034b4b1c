//! What a reconcile run in Athena found: the drifted parents as every route says them, the
//! query, and what its scan cost.

use serde::Serialize;

use crate::cost::Pricing;
use crate::ending::Ending;
use crate::report::{Line, Report, Tone};
use crate::tally::{ParentCheck, ParentDocument};

/// A reconcile run in Athena.
#[derive(Debug, Clone, PartialEq)]
pub struct AthenaRun {
    /// The DynamoDB table.
    pub table: String,
    /// The export's table in Athena.
    pub athena_table: String,
    /// The export's `data/` folder.
    pub location: String,
    /// The drifted parents (the query returns only those).
    pub checks: Vec<ParentCheck>,
    /// The query's ID.
    pub query_id: String,
    /// Result pages read.
    pub pages: u32,
    /// Bytes the query scanned, as Athena says.
    pub scanned_bytes: Option<i64>,
    /// What the scan cost, in words.
    pub price: Option<String>,
    /// The prices, for each check's JSON.
    pub pricing: Pricing,
}

impl Report for AthenaRun {
    fn lines(&self) -> Vec<Line> {
        let mut lines = vec![Line::new(
            Tone::Title,
            format!(
                "Athena query {} over {} (as {}): {} drifted parent{} of table {}",
                self.query_id,
                self.location,
                self.athena_table,
                self.checks.len(),
                if self.checks.len() == 1 { "" } else { "s" },
                self.table
            ),
        )];
        lines.extend(self.checks.iter().map(|c| Line::new(Tone::Warn, c.line())));
        let scanned = self
            .scanned_bytes
            .map_or("scanned: not said".to_owned(), |b| {
                format!("scanned {b} bytes")
            });
        let price = self.price.as_deref().unwrap_or("no Athena price known");
        lines.push(Line::new(Tone::Plain, format!("{scanned}: {price}")));
        lines
    }

    /// Data that disagrees is refused (exit 1); none drifted is done.
    fn ending(&self) -> Ending {
        if self.checks.is_empty() {
            Ending::Done
        } else {
            Ending::Refused
        }
    }
}

impl AthenaRun {
    /// The run as its document.
    fn document(&self) -> AthenaDocument {
        AthenaDocument {
            table: self.table.clone(),
            athena_table: self.athena_table.clone(),
            location: self.location.clone(),
            query_id: self.query_id.clone(),
            pages: self.pages,
            checks: (self.checks.iter())
                .map(|c| ParentDocument::of(c, &self.pricing))
                .collect(),
            drifted: self.checks.len(),
            scanned_bytes: self.scanned_bytes,
            price: self.price.clone(),
        }
    }
}

crate::document_as!(AthenaRun => AthenaDocument, document);

/// A reconcile run in Athena over a table's export: the drifted parents and what the query cost.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub(crate) struct AthenaDocument {
    /// The DynamoDB table.
    pub(crate) table: String,
    /// The export's table in Athena.
    pub(crate) athena_table: String,
    /// The export's `data/` folder in S3.
    pub(crate) location: String,
    /// The Athena query's ID.
    pub(crate) query_id: String,
    /// Result pages read.
    pub(crate) pages: u32,
    /// Each drifted parent (the query returns only those).
    pub(crate) checks: Vec<ParentDocument>,
    /// How many parents drifted.
    pub(crate) drifted: usize,
    /// Bytes the query scanned, as Athena says; `null` when it does not.
    pub(crate) scanned_bytes: Option<i64>,
    /// What the scan cost, in words; `null` when no Athena price is known.
    pub(crate) price: Option<String>,
}
