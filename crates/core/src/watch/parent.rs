//! One watched parent: its stored tally as the stream shows it, its children counted, the gap
//! between them, and the divergences it had.

use std::collections::{HashMap, VecDeque};

use bigdecimal::BigDecimal;

use crate::number::to_dynamodb;
use crate::watch::change::{Change, gap_text};

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

/// A time a parent's tally and children disagreed, once settled: there when the watch started,
/// or opened by a write whose counterpart never came within the settle window.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// The parent's partition key.
    pub parent: String,
    /// When it opened (stream time, ms); for a drift found by the start check, the start.
    pub opened_ms: i64,
    /// It was there when the watch started (the start check found it): no record opened it.
    pub before_watch: bool,
    /// The gap the start check found (`None`: the tally was missing), when `before_watch`.
    pub start_gap: Option<BigDecimal>,
    /// When it closed, if it did.
    pub closed_ms: Option<i64>,
    /// Tally minus children as settled now (or when it closed, zero); `None`: tally missing.
    pub gap: Option<BigDecimal>,
    /// The writes that changed the gap while it was open, oldest first (the last
    /// [`MAX_CAUSES`] kept); each one's `gap_after` is the settled gap it left.
    pub causes: Vec<Change>,
    /// Writes that changed the gap beyond those kept.
    pub dropped: u64,
    /// Every record folded into the parent while it was open, the causes included.
    pub records: u64,
}

/// The most causes a divergence keeps.
pub(crate) const MAX_CAUSES: usize = 20;

impl Divergence {
    /// How long it stayed open, in ms, when it closed.
    pub(crate) fn open_for_ms(&self) -> Option<i64> {
        self.closed_ms.map(|c| c - self.opened_ms)
    }

    /// What it was at the start, in words: `likeTally and children already apart by +7 when
    /// the watch started`.
    fn start_text(&self, tally: &str) -> String {
        format!(
            "{tally} and children already apart by {} when the watch started (an earlier \
             write: watch from the start of the stream to find it)",
            gap_text(self.start_gap.as_ref())
        )
    }

    /// The divergence in one line, led by the newest write that changed the gap: `POST#d71e
    /// drift +1: likeTally 226 → 227 at … with no child inserted`.
    pub fn headline(&self, tally: &str) -> String {
        let cause = match self.causes.last() {
            Some(change) => change.cause(tally),
            None if self.before_watch => self.start_text(tally),
            None => "no record kept".to_owned(),
        };
        let state = match self.open_for_ms() {
            Some(ms) => format!("closed after {}.{:03} s", ms / 1000, ms.rem_euclid(1000)),
            None => format!("drift {}", gap_text(self.gap.as_ref())),
        };
        format!("{} {state}: {cause}", self.parent)
    }

    /// Every line that names it: the headline, the writes before it that changed the gap
    /// (newest first), then the gap the watch started from.
    pub fn lines(&self, tally: &str) -> Vec<String> {
        let mut lines = vec![self.headline(tally)];
        for change in self.causes.iter().rev().skip(1) {
            lines.push(format!("  before it: {}", change.cause(tally)));
        }
        if self.dropped > 0 {
            lines.push(format!(
                "  before them: {} more writes that changed the gap (not kept)",
                self.dropped
            ));
        }
        if self.before_watch && !self.causes.is_empty() {
            lines.push(format!("  at the start: {}", self.start_text(tally)));
        }
        let named = self.causes.len() as u64 + self.dropped;
        if self.records > named {
            lines.push(format!(
                "  and {} other records while it was open, none of which changed the gap",
                self.records - named
            ));
        }
        lines
    }

    /// Add `cause`, the newest write that changed the gap, keeping the last [`MAX_CAUSES`].
    pub(super) fn push_cause(&mut self, cause: Change) {
        if self.causes.len() >= MAX_CAUSES {
            self.causes.remove(0);
            self.dropped += 1;
        }
        self.gap.clone_from(&cause.gap_after);
        self.causes.push(cause);
    }
}

/// A record's move of the gap not yet matched by its counterpart (a like's child waiting for
/// its tally): it settles, and changes the gap, once older than the settle window.
#[derive(Debug, Clone)]
pub(super) struct Unpaired {
    /// Its place in the fold's queue.
    pub(super) token: u64,
    /// The record.
    pub(super) change: Change,
    /// What is left of its move of the gap (`None`: to or from a missing tally, never matched).
    pub(super) amount: Option<BigDecimal>,
    /// This machine's clock (ms) at the last tick before it arrived: a record read late (a
    /// stream behind a busy writer) waits the settle window from when it was read, not from
    /// its stream time.
    pub(super) arrived_wall_ms: i64,
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
    #[expect(
        clippy::option_option,
        reason = "None: no record seen yet; Some(None): a record showed the tally missing"
    )]
    pub(super) tally_seen: Option<Option<BigDecimal>>,
    /// Children inserted minus removed since the start.
    pub(super) children_delta: i64,
    /// How often each child was inserted and removed in this watch (at most
    /// [`MAX_TRACKED_CHILDREN`] children tracked).
    pub(super) child_touches: HashMap<String, (u32, u32)>,
    /// Tally minus children as settled: the start's gap, moved by each write whose move was
    /// not matched within the settle window (`None`: the tally is missing).
    pub settled_gap: Option<BigDecimal>,
    /// Moves of the gap still waiting for their counterpart, oldest first.
    pub(super) unpaired: VecDeque<Unpaired>,
    /// The divergence open now.
    pub open: Option<Divergence>,
    /// Divergences that closed (the last 20).
    pub closed: Vec<Divergence>,
    /// Moves of the gap matched by their counterpart within the settle window (a like's child
    /// and its tally): consistent writes.
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
    pub fn peak(&self, pk: &str) -> crate::cost::hot::KeyRate {
        crate::cost::hot::KeyRate {
            key: pk.to_owned(),
            kind: crate::cost::Kind::Write,
            units: bigdecimal::BigDecimal::from(self.peak_units),
            millis: 1000,
        }
    }
}

/// Children whose inserts and removes are told apart per parent, at most.
pub(crate) const MAX_TRACKED_CHILDREN: usize = 1000;

impl ParentWatch {
    pub(super) fn new(pk: String, base: Base) -> Self {
        let before = match &base {
            Base::Checked { tally: Some(t), .. } => Before::Value(t.clone()),
            Base::Checked { tally: None, .. } => Before::Missing,
            Base::Deltas => Before::Unknown,
        };
        let mut parent = Self {
            pk,
            base,
            before,
            tally_seen: None,
            children_delta: 0,
            child_touches: HashMap::new(),
            settled_gap: None,
            unpaired: VecDeque::new(),
            open: None,
            closed: Vec::new(),
            settled: 0,
            records: 0,
            recent: VecDeque::new(),
            load: Load::default(),
        };
        parent.settled_gap = parent.gap();
        parent
    }

    /// Start again from `base` (a poll read the parent anew), keeping what was seen.
    pub(super) fn rebase(&mut self, base: Base) {
        let fresh = Self::new(self.pk.clone(), base);
        self.base = fresh.base;
        self.before = fresh.before;
        self.tally_seen = None;
        self.children_delta = 0;
    }

    /// Match `amount`, a record's move of the gap, against the moves still waiting, oldest
    /// first: a like's tally +1 against its child's -1. Returns what is left of it and the
    /// (stream time, token) of the moves it matched whole.
    pub(super) fn pair(&mut self, amount: BigDecimal) -> (BigDecimal, Vec<(i64, u64)>) {
        let zero = BigDecimal::default();
        let mut left = amount;
        let mut matched = Vec::new();
        for waiting in &mut self.unpaired {
            if left == zero {
                break;
            }
            let Some(other) = waiting.amount.as_mut() else {
                continue;
            };
            if (&*other * &left) >= zero {
                continue;
            }
            let taken = other.abs().min(left.abs());
            let sign = |v: &BigDecimal| {
                if *v > zero {
                    taken.clone()
                } else {
                    -taken.clone()
                }
            };
            let (from_other, from_left) = (sign(other), sign(&left));
            *other -= from_other;
            left -= from_left;
            if *other == zero {
                matched.push((waiting.change.at_ms, waiting.token));
            }
        }
        self.unpaired
            .retain(|w| !matched.contains(&(w.change.at_ms, w.token)));
        self.settled += matched.len() as u64;
        (left, matched)
    }

    /// The settled gap now: the gap minus the moves still waiting (`None`: tally missing).
    pub(super) fn gap_settled_now(&self) -> Option<BigDecimal> {
        let waiting: BigDecimal = self.unpaired.iter().filter_map(|w| w.amount.clone()).sum();
        self.gap().map(|g| g - waiting)
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
    pub(crate) fn start_text(&self, tally: &str) -> String {
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
