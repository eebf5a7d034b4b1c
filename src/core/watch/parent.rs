//! One watched parent: its stored tally as the stream shows it, its children counted, the gap
//! between them, and the divergences it had.

use std::collections::{HashMap, VecDeque};

use bigdecimal::BigDecimal;

use crate::core::number::to_dynamodb;
use crate::core::watch::change::{Change, gap_text};

/// What the watch starts a parent from.
#[derive(Debug, Clone, PartialEq)]
pub enum Base {
    /// One exact check when the watch started: the stored tally (`None`: missing) and the
    /// children counted.
    Checked {
        /// The stored tally.
        tally: Option<BigDecimal>,
        /// The children counted.
        children: u64,
    },
    /// History: nothing known at the start; the tally is taken from the parent's first record
    /// and every change compared from there (zero deltas).
    Deltas,
}

/// The tally before the changes a watch compares.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Before {
    /// Not known yet (history, before the parent's first record).
    Unknown,
    /// Missing (not 0).
    Missing,
    /// This number.
    Value(BigDecimal),
}

/// A time a parent's tally and children disagreed.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// The parent's partition key.
    pub parent: String,
    /// When it opened (stream time, ms); for a drift found by the start check, the start.
    pub opened_ms: i64,
    /// It was there when the watch started (the start check found it): no record opened it.
    pub before_watch: bool,
    /// When it closed, if it did.
    pub closed_ms: Option<i64>,
    /// Back at zero since then (stream time): it closes once it stays there for the settle
    /// window.
    pub closing_since: Option<i64>,
    /// Tally minus children now (or when it closed, the last before); `None`: tally missing.
    pub gap: Option<BigDecimal>,
    /// The records that moved the gap away from zero, first first (at most 20 kept).
    pub causes: Vec<Change>,
    /// Every record that moved the gap while it was open, the kept ones included.
    pub records: u64,
    /// Said to the user (it outlived the settle window, or was there at the start).
    pub reported: bool,
}

/// The most causes a divergence keeps.
pub const MAX_CAUSES: usize = 20;

impl Divergence {
    /// How long it stayed open, in ms, when it closed.
    pub fn open_for_ms(&self) -> Option<i64> {
        self.closed_ms.map(|c| c - self.opened_ms)
    }

    /// The divergence in one line: `POST#d71e drift +1: likeTally 226 → 227 at … with no child
    /// inserted`.
    pub fn headline(&self, tally: &str) -> String {
        let cause = match self.causes.first() {
            Some(change) => change.cause(tally),
            None if self.before_watch => format!(
                "{tally} and children already apart when the watch started (an earlier write: \
                 watch from the start of the stream to find it)"
            ),
            None => "no record kept".to_owned(),
        };
        let state = match self.open_for_ms() {
            Some(ms) => format!("closed after {}.{:03} s", ms / 1000, ms.rem_euclid(1000)),
            None => format!("drift {}", gap_text(self.gap.as_ref())),
        };
        format!("{} {state}: {cause}", self.parent)
    }

    /// Every line that names it: the headline, then each further cause.
    pub fn lines(&self, tally: &str) -> Vec<String> {
        let mut lines = vec![self.headline(tally)];
        for change in self.causes.iter().skip(1) {
            lines.push(format!("  then {}", change.cause(tally)));
        }
        if self.records > self.causes.len() as u64 {
            lines.push(format!(
                "  and {} more records while it was open",
                self.records - self.causes.len() as u64
            ));
        }
        lines
    }
}

/// A watched parent.
#[derive(Debug, Clone)]
pub struct ParentWatch {
    /// Its partition key, as shown.
    pub pk: String,
    /// How the watch started it.
    pub base: Base,
    pub(super) before: Before,
    /// The stored tally as last seen in a record; `None` until one is seen.
    pub(super) tally_seen: Option<Option<BigDecimal>>,
    /// Children inserted minus removed since the start.
    pub(super) children_delta: i64,
    /// How often each child was inserted and removed in this watch (at most
    /// [`MAX_TRACKED_CHILDREN`] children tracked).
    pub(super) child_touches: HashMap<String, (u32, u32)>,
    /// The divergence open now.
    pub open: Option<Divergence>,
    /// Divergences that closed after they were reported (the last 20).
    pub closed: Vec<Divergence>,
    /// Divergences that closed within the settle window (two records of one write apart).
    pub settled: u64,
    /// Records folded into it.
    pub records: u64,
    /// The last changes (at most the fold's `keep_changes`).
    pub recent: VecDeque<Change>,
    /// The write units its records cost in each second of stream time: the last second's and
    /// the busiest.
    pub load: Load,
}

/// Write units in one second of stream time: the second now being counted and the busiest.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Load {
    /// The second being counted (ms since the epoch, rounded down to the second).
    pub second_ms: i64,
    /// Its units so far.
    pub units: u64,
    /// The busiest second seen.
    pub peak_ms: i64,
    /// Its units.
    pub peak_units: u64,
}

impl Load {
    /// `units` written at `at_ms`.
    pub fn add(&mut self, at_ms: i64, units: u64) {
        let second = at_ms.div_euclid(1000) * 1000;
        if second != self.second_ms {
            self.second_ms = second;
            self.units = 0;
        }
        self.units = self.units.saturating_add(units);
        if self.units > self.peak_units {
            self.peak_units = self.units;
            self.peak_ms = second;
        }
    }

    /// The busiest second as a rate on `pk` against one partition's ceiling.
    pub fn peak(&self, pk: &str) -> crate::core::cost::hot::KeyRate {
        crate::core::cost::hot::KeyRate {
            key: pk.to_owned(),
            kind: crate::core::cost::Kind::Write,
            units: bigdecimal::BigDecimal::from(self.peak_units),
            millis: 1000,
        }
    }
}

/// Children whose inserts and removes are told apart per parent, at most.
pub const MAX_TRACKED_CHILDREN: usize = 1000;

impl ParentWatch {
    pub(super) fn new(pk: String, base: Base) -> Self {
        let before = match &base {
            Base::Checked { tally: Some(t), .. } => Before::Value(t.clone()),
            Base::Checked { tally: None, .. } => Before::Missing,
            Base::Deltas => Before::Unknown,
        };
        Self {
            pk,
            base,
            before,
            tally_seen: None,
            children_delta: 0,
            child_touches: HashMap::new(),
            open: None,
            closed: Vec::new(),
            settled: 0,
            records: 0,
            recent: VecDeque::new(),
            load: Load::default(),
        }
    }

    /// The stored tally now, as the watch knows it: the last record's, else the start's.
    pub fn tally(&self) -> Option<BigDecimal> {
        match &self.tally_seen {
            Some(seen) => seen.clone(),
            None => match &self.before {
                Before::Value(v) => Some(v.clone()),
                _ => None,
            },
        }
    }

    /// The children now: counted at the start plus those since; from history, the tally before
    /// the first record plus those since (`None` until that tally is known).
    pub fn children(&self) -> Option<BigDecimal> {
        let start = match &self.base {
            Base::Checked { children, .. } => BigDecimal::from(*children),
            Base::Deltas => match &self.before {
                Before::Value(v) => v.clone(),
                _ => return None,
            },
        };
        Some(start + BigDecimal::from(self.children_delta))
    }

    /// Tally minus children (`None`: the tally is missing). From history before the tally is
    /// known, minus the children since (a tally never written is unchanged).
    pub fn gap(&self) -> Option<BigDecimal> {
        match (&self.base, &self.tally_seen, &self.before) {
            (_, Some(None), _) => None,
            (Base::Checked { .. }, _, _) => Some(self.tally()? - self.children()?),
            (Base::Deltas, None, _) | (Base::Deltas, Some(Some(_)), Before::Unknown) => {
                Some(-BigDecimal::from(self.children_delta))
            }
            (Base::Deltas, _, Before::Missing) => None,
            (Base::Deltas, Some(Some(now)), Before::Value(before)) => {
                Some(now - before - BigDecimal::from(self.children_delta))
            }
        }
    }

    /// The start, in words: `tally 227 and 226 children counted when the watch started`.
    pub fn start_text(&self, tally: &str) -> String {
        match &self.base {
            Base::Checked { tally: t, children } => format!(
                "{tally} {} and {children} children counted when the watch started",
                t.as_ref().map_or("missing".to_owned(), to_dynamodb)
            ),
            Base::Deltas => format!(
                "compared from the stream: {tally} changes against children inserted and removed"
            ),
        }
    }
}
