//! Checked parents: sorted by severity with running totals (every request's read capacity
//! included), and their export as CSV or JSON.

use bigdecimal::BigDecimal;

use crate::number::{self, to_dynamodb};
use crate::tally::ParentCheck;
use crate::tally::plan::PassRead;

/// Totals over the checks so far, kept as results arrive rather than recounted.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    /// Parents whose tally disagrees (a missing tally included).
    pub drifted: usize,
    /// Parents with no tally.
    pub missing: usize,
    /// Sum of the stored tallies, exactly.
    pub stored: BigDecimal,
    /// Sum of the counted children.
    pub counted: u64,
    /// Read capacity consumed by every request of the run.
    pub rcu: f64,
    /// Pages read to find parents or in one pass (per-parent queries count in their checks).
    pub pages: usize,
    /// Items read to find parents or in one pass.
    pub items_read: u64,
}

impl Totals {
    /// Count `c` in (`add`) or out of the totals.
    fn apply(&mut self, c: &ParentCheck, add: bool) {
        let stored = c
            .stored
            .as_deref()
            .and_then(|s| number::parse(s).ok())
            .unwrap_or_default();
        let (drifted, missing) = (usize::from(c.drifted()), usize::from(c.stored.is_none()));
        if add {
            self.drifted += drifted;
            self.missing += missing;
            self.stored += stored;
            self.counted += c.count.count;
            self.rcu += c.count.consumed_rcu;
        } else {
            self.drifted -= drifted;
            self.missing -= missing;
            self.stored -= stored;
            self.counted -= c.count.count;
            self.rcu -= c.count.consumed_rcu;
        }
    }
}

/// Checked parents, most severe first (missing tallies, then by |drift|), with their totals.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Checked {
    /// The checks, sorted.
    pub checks: Vec<ParentCheck>,
    /// Totals over `checks`.
    pub totals: Totals,
}

impl Checked {
    /// Add one result, keeping the order.
    pub fn add(&mut self, check: ParentCheck) {
        self.totals.apply(&check, true);
        let key = |c: &ParentCheck| (std::cmp::Reverse(c.severity()), c.partition.clone());
        let at = self
            .checks
            .binary_search_by_key(&key(&check), key)
            .unwrap_or_else(|i| i);
        self.checks.insert(at, check);
    }

    /// Count the cost of reading items that were not one parent's check (finding parents, a
    /// one pass) into the totals.
    pub fn add_read(&mut self, read: &PassRead) {
        self.totals.rcu += read.rcu;
        self.totals.pages += read.pages;
        self.totals.items_read += read.items;
    }

    /// Put a newer check of a parent in place of its old one (after a repair).
    pub fn replace(&mut self, check: ParentCheck) {
        if let Some(at) = self
            .checks
            .iter()
            .position(|c| c.partition == check.partition)
        {
            let old = self.checks.remove(at);
            self.totals.apply(&old, false);
        }
        self.add(check);
    }

    /// The totals in one line.
    pub fn summary(&self) -> String {
        let t = &self.totals;
        format!(
            "{} checked · {} drifted ({} missing a tally) · stored total {} · counted total {}",
            crate::report::plural(self.checks.len(), "parent"),
            t.drifted,
            t.missing,
            to_dynamodb(&t.stored),
            t.counted
        )
    }

    /// The checks as CSV: `pk,stored,counted,drift,pages,rcu`, one parent a line.
    pub fn csv(&self) -> String {
        let field = |text: &str| {
            if text.contains([',', '"', '\n']) {
                format!("\"{}\"", text.replace('"', "\"\""))
            } else {
                text.to_owned()
            }
        };
        let mut out = String::from("pk,stored,counted,drift,pages,rcu\n");
        for c in &self.checks {
            out += &format!(
                "{},{},{},{},{},{}\n",
                field(&c.partition),
                c.stored.as_deref().unwrap_or(""),
                c.count.count,
                c.drift.as_ref().map(to_dynamodb).unwrap_or_default(),
                c.count.pages,
                c.count.consumed_rcu
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tally::{Count, drift};
    use crate::value::Item;

    fn check(pk: &str, stored: Option<&str>, counted: u64) -> ParentCheck {
        ParentCheck {
            key: Item::new(),
            partition: pk.to_owned(),
            stored: stored.map(str::to_owned),
            count: Count {
                count: counted,
                pages: 1,
                consumed_rcu: 0.5,
                elapsed_ms: 1,
                method: String::new(),
            },
            drift: drift(stored, counted).unwrap(),
            last_touched: None,
        }
    }

    #[test]
    fn exports_and_ordering() {
        let mut checked = Checked::default();
        for c in [
            check("POST#ok", Some("3"), 3),
            check("POST#plus", Some("4"), 3),
            check("POST#missing", None, 7),
            check("POST#minus,odd", Some("1"), 3),
        ] {
            checked.add(c);
        }
        let order: Vec<&str> = checked
            .checks
            .iter()
            .map(|c| c.partition.as_str())
            .collect();
        assert_eq!(
            order,
            ["POST#missing", "POST#minus,odd", "POST#plus", "POST#ok"]
        );
        let csv = checked.csv();
        assert!(
            csv.starts_with("pk,stored,counted,drift,pages,rcu\nPOST#missing,,7,,1,0.5\n"),
            "{csv}"
        );
        assert!(csv.contains("\"POST#minus,odd\",1,3,-2,1,0.5"), "{csv}");
        let json: serde_json::Value =
            serde_json::from_str(&checked.json(&crate::cost::Pricing::for_connection(
                &crate::cost::PriceBook::shipped(),
                None,
                None,
                crate::cost::Billing::default(),
            )))
            .unwrap();
        assert_eq!(json[2]["drift"], "1");
        assert_eq!(checked.checks[2].drift_text(), "+1");
    }

    #[test]
    fn running_totals_equal_a_recount() {
        let mut r = Checked::default();
        r.add(check("POST#1", Some("3"), 3));
        r.add(check("POST#2", Some("226"), 225));
        r.add(check("POST#3", None, 298));
        // A repair re-checks POST#2.
        r.replace(check("POST#2", Some("225"), 225));
        assert_eq!(r.checks.len(), 3);
        assert_eq!(r.totals.drifted, 1);
        assert_eq!(r.totals.missing, 1);
        assert_eq!(to_dynamodb(&r.totals.stored), "228");
        assert_eq!(r.totals.counted, 526);
        assert_eq!(r.checks[0].partition, "POST#3", "missing tally first");
        assert_eq!(
            r.summary(),
            "3 parents checked · 1 drifted (1 missing a tally) · stored total 228 · counted total 526"
        );
    }
}
