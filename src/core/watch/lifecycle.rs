//! A divergence's end, and the divergences a fold holds: closed (kept, or settled as the two
//! records of one write), open (said), unsettled (younger than the settle window at the end).

use crate::core::watch::parent::{Divergence, MAX_CAUSES};
use crate::core::watch::{CounterFold, WatchEvent};

impl CounterFold {
    /// Close parent `id`'s divergence, back at zero since `since`: kept as closed when it was
    /// reported (or outlived the settle window), counted as settled when it did not.
    pub(super) fn close(&mut self, id: &str, since: i64) -> Vec<WatchEvent> {
        let mut events = Vec::new();
        let Some(parent) = self.parents.get_mut(id) else {
            return events;
        };
        let Some(mut closed) = parent.open.take() else {
            return events;
        };
        closed.closed_ms = Some(since);
        closed.closing_since = None;
        self.pending.remove(&(closed.opened_ms, id.to_owned()));
        if !closed.reported && since - closed.opened_ms <= self.config.settle_ms {
            // Two records of one write, arrived apart: never a divergence.
            parent.settled += 1;
            return events;
        }
        if !closed.reported {
            closed.reported = true;
            events.push(WatchEvent::Diverged(closed.clone()));
        }
        if parent.closed.len() >= MAX_CAUSES {
            parent.closed.remove(0);
        }
        parent.closed.push(closed.clone());
        events.push(WatchEvent::Closed(closed));
        events
    }

    /// Gaps open at the end that had not outlived the settle window: not divergences (yet).
    pub fn unsettled(&self) -> Vec<&Divergence> {
        self.parents
            .values()
            .filter_map(|p| p.open.as_ref())
            .filter(|d| !d.reported && d.closing_since.is_none())
            .collect()
    }

    /// The divergences open now (reported: past the settle window, or found by the start
    /// check), worst first (a missing tally, then by size).
    pub fn open(&self) -> Vec<&Divergence> {
        let mut open: Vec<&Divergence> = self
            .parents
            .values()
            .filter_map(|p| p.open.as_ref())
            .filter(|d| d.reported)
            .collect();
        open.sort_by(|a, b| {
            let key = |d: &Divergence| {
                (
                    d.gap.is_some(),
                    std::cmp::Reverse(d.gap.clone().map(|g| g.abs())),
                )
            };
            key(a).cmp(&key(b)).then_with(|| a.parent.cmp(&b.parent))
        });
        open
    }
}
