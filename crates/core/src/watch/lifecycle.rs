//! A waiting move of a gap settling: the settled gap it changes, the divergence it opens, grows,
//! narrows or closes; and the divergences a fold holds: open (said), unsettled (moves younger
//! than the settle window at the end).

use bigdecimal::BigDecimal;

use crate::watch::change::Change;
use crate::watch::parent::{Divergence, MAX_CAUSES};
use crate::watch::{CounterFold, WatchEvent};

impl CounterFold {
    /// Settle parent `id`'s move `token` (waiting since `at`): it changed the settled gap, so
    /// its record is named — opening a divergence, moving it, or closing it at zero.
    pub(super) fn settle_one(&mut self, at: i64, token: u64, id: &str) -> Vec<WatchEvent> {
        self.pending.remove(&(at, token, id.to_owned()));
        let mut events = Vec::new();
        let Some(parent) = self.parents.get_mut(id) else {
            return events;
        };
        let Some(place) = parent.unpaired.iter().position(|w| w.token == token) else {
            return events;
        };
        let Some(waiting) = parent.unpaired.remove(place) else {
            return events;
        };
        let now = parent.gap_settled_now();
        if now == parent.settled_gap {
            return events;
        }
        parent.settled_gap.clone_from(&now);
        let cause = Change {
            gap_after: now.clone(),
            ..waiting.change
        };
        let Some(mut open) = parent.open.take() else {
            let divergence = Divergence {
                parent: parent.pk.clone(),
                opened_ms: cause.at_ms,
                before_watch: false,
                start_gap: None,
                closed_ms: None,
                gap: now,
                causes: vec![cause],
                dropped: 0,
                records: 1,
            };
            events.push(WatchEvent::Diverged(divergence.clone()));
            parent.open = Some(divergence);
            return events;
        };
        let closes_at = cause.at_ms;
        open.push_cause(cause);
        if now == Some(BigDecimal::default()) {
            open.closed_ms = Some(closes_at);
            if parent.closed.len() >= MAX_CAUSES {
                parent.closed.remove(0);
            }
            parent.closed.push(open.clone());
            events.push(WatchEvent::Closed(open));
        } else {
            events.push(WatchEvent::Diverged(open.clone()));
            parent.open = Some(open);
        }
        events
    }

    /// Moves of a gap waiting at the end for less than the settle window: not divergences
    /// (yet), each with its record.
    pub(crate) fn unsettled(&self) -> Vec<&Change> {
        let mut waiting: Vec<&Change> = self
            .parents
            .values()
            .flat_map(|p| p.unpaired.iter().map(|w| &w.change))
            .collect();
        waiting.sort_by(|a, b| a.at_ms.cmp(&b.at_ms).then_with(|| a.parent.cmp(&b.parent)));
        waiting
    }

    /// The divergences open now, worst first (a missing tally, then by size).
    pub fn open(&self) -> Vec<&Divergence> {
        let mut open: Vec<&Divergence> = self
            .parents
            .values()
            .filter_map(|p| p.open.as_ref())
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
