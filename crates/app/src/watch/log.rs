//! What a watch showed so far: its start lines, the stream's last word, the records (newest
//! first, bounded), each parent's chart points (bounded) and its latest divergence. Taken in
//! from the watch's progress; nothing here draws.

use std::collections::{HashMap, VecDeque};

use bigdecimal::BigDecimal;

use dynoscope_core::stream::{StreamEvent, time_text};
use dynoscope_core::watch::{Change, Divergence, WatchEvent, WatchProgress};

/// The most records kept for the list (the oldest are dropped).
pub(super) const MAX_RECORDS: usize = 2000;
/// The most chart points kept per parent (the oldest are dropped).
pub(super) const MAX_POINTS: usize = 2000;
/// The most parents whose points are kept (a parent first seen after is not charted).
pub(super) const MAX_CHARTED: usize = 1000;

/// One chart point after a record: stream time, the stored tally, the children. Exact numbers;
/// the chart converts them to drawing coordinates only.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Sample {
    pub at_ms: i64,
    pub tally: Option<BigDecimal>,
    pub children: Option<BigDecimal>,
}

/// One parent's chart: its samples and when its divergences were reported and closed.
#[derive(Debug, Clone, Default)]
pub(super) struct Chart {
    pub samples: VecDeque<Sample>,
    /// Stream times a divergence was reported at (when it opened).
    pub diverged_at: Vec<i64>,
    /// Stream times a divergence closed at.
    pub closed_at: Vec<i64>,
    /// Write units in each second of stream time (ms at the second's start, units).
    pub load: VecDeque<(i64, u64)>,
}

/// Everything a watch showed so far.
#[derive(Debug, Default)]
pub(super) struct WatchLog {
    /// The tally attribute of the rule watched (to name it in lines).
    pub tally: String,
    /// What the watch said when it started.
    pub started: Vec<String>,
    /// The reader's last word (waited, recovered, caught up), in words.
    pub stream: Option<String>,
    /// Polls made and the read capacity of the last one (polling only).
    pub polled: Option<(u64, f64)>,
    /// The records, newest first.
    pub records: VecDeque<Change>,
    /// Records taken in since the start (those dropped from the list included).
    pub seen: u64,
    /// Each parent's chart.
    pub charts: HashMap<String, Chart>,
    /// Each parent's latest reported divergence (open, or closed again).
    pub divergences: HashMap<String, Divergence>,
}

impl WatchLog {
    /// A log of a watch of `tally`.
    pub(super) fn new(tally: &str) -> Self {
        Self {
            tally: tally.to_owned(),
            ..Self::default()
        }
    }

    /// Take in one report of the watch.
    pub(super) fn take(&mut self, progress: WatchProgress) {
        match progress {
            WatchProgress::Started(lines) => self.started = lines,
            WatchProgress::Stream(event) => self.stream = stream_text(&event),
            WatchProgress::Polled { poll, consumed_rcu } => {
                self.polled = Some((poll, consumed_rcu));
            }
            WatchProgress::Event(WatchEvent::Change(change)) => self.change(change),
            WatchProgress::Event(WatchEvent::Diverged(divergence)) => {
                // Marked where the write that moved it was made (or the start).
                let at = divergence
                    .causes
                    .last()
                    .map_or(divergence.opened_ms, |c| c.at_ms);
                self.chart_mut(&divergence.parent, |chart| chart.diverged_at.push(at));
                self.divergences
                    .insert(divergence.parent.clone(), divergence);
            }
            WatchProgress::Event(WatchEvent::Closed(divergence)) => {
                if let Some(at) = divergence.closed_ms {
                    self.chart_mut(&divergence.parent, |chart| chart.closed_at.push(at));
                }
                self.divergences
                    .insert(divergence.parent.clone(), divergence);
            }
        }
    }

    fn change(&mut self, change: Change) {
        self.seen += 1;
        let sample = Sample {
            at_ms: change.at_ms,
            tally: change
                .tally_after
                .as_deref()
                .and_then(|t| dynoscope_core::number::parse(t).ok()),
            children: change.children_after.clone(),
        };
        let (second, units) = (change.at_ms.div_euclid(1000) * 1000, change.write_units);
        self.chart_mut(&change.parent, |chart| {
            chart.samples.push_back(sample);
            if chart.samples.len() > MAX_POINTS {
                chart.samples.pop_front();
            }
            match chart.load.back_mut() {
                Some((at, sum)) if *at == second => *sum += units,
                _ if units > 0 => chart.load.push_back((second, units)),
                _ => {}
            }
            if chart.load.len() > MAX_POINTS {
                chart.load.pop_front();
            }
        });
        self.records.push_front(change);
        self.records.truncate(MAX_RECORDS);
    }

    /// Change `parent`'s chart, made when there is room for another.
    fn chart_mut(&mut self, parent: &str, change: impl FnOnce(&mut Chart)) {
        if let Some(chart) = self.charts.get_mut(parent) {
            change(chart);
        } else if self.charts.len() < MAX_CHARTED {
            let mut chart = Chart::default();
            change(&mut chart);
            self.charts.insert(parent.to_owned(), chart);
        }
    }

    /// The parents whose tally diverged, worst first: open ones first, then a missing tally,
    /// then the widest gap; ties by name.
    pub(super) fn diverged(&self) -> Vec<&Divergence> {
        let mut all: Vec<&Divergence> = self.divergences.values().collect();
        all.sort_by(|a, b| {
            let open = |d: &Divergence| d.closed_ms.is_none();
            let width = |d: &Divergence| d.gap.as_ref().map(BigDecimal::abs);
            open(b)
                .cmp(&open(a))
                .then_with(|| match (width(a), width(b)) {
                    (None, None) => std::cmp::Ordering::Equal,
                    (None, Some(_)) => std::cmp::Ordering::Less,
                    (Some(_), None) => std::cmp::Ordering::Greater,
                    (Some(x), Some(y)) => y.cmp(&x),
                })
                .then_with(|| a.parent.cmp(&b.parent))
        });
        all
    }

    /// The divergences open now.
    pub(super) fn open_count(&self) -> usize {
        self.divergences
            .values()
            .filter(|d| d.closed_ms.is_none())
            .count()
    }
}

/// The reader's word, as the status line says it (`None`: nothing to say).
fn stream_text(event: &StreamEvent) -> Option<String> {
    match event {
        StreamEvent::Waited(why) => Some(format!("Waiting: {why}")),
        StreamEvent::Recovered(what) => Some(format!("Recovered: {what}")),
        StreamEvent::CaughtUp { now_ms } => Some(format!(
            "Caught up with the stream at {}",
            time_text(*now_ms, false)
        )),
        StreamEvent::Positioned | StreamEvent::Records(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn divergence(parent: &str, gap: Option<i64>, closed: bool) -> Divergence {
        Divergence {
            parent: parent.to_owned(),
            opened_ms: 1,
            before_watch: false,
            start_gap: None,
            closed_ms: closed.then_some(2),
            gap: gap.map(BigDecimal::from),
            causes: Vec::new(),
            dropped: 0,
            records: 0,
        }
    }

    #[test]
    fn diverged_parents_are_open_first_then_worst() {
        let mut log = WatchLog::new("likeTally");
        for d in [
            divergence("A", Some(1), false),
            divergence("B", Some(-3), false),
            divergence("C", Some(9), true),
            divergence("D", None, false),
        ] {
            log.take(WatchProgress::Event(WatchEvent::Diverged(d)));
        }
        let order: Vec<&str> = log.diverged().iter().map(|d| d.parent.as_str()).collect();
        assert_eq!(order, ["D", "B", "A", "C"]);
        assert_eq!(log.open_count(), 3);
        assert_eq!(log.charts["A"].diverged_at, [1]);
    }
}
