//! Polling folded like a stream: each poll a sample of one parent's tally and children.

use bigdecimal::BigDecimal;

use crate::core::stream::{EventKind, SequenceNumber};
use crate::core::watch::change::{Change, Effect};
use crate::core::watch::parent::{Base, ParentWatch};
use crate::core::watch::{CounterFold, WatchEvent};

impl CounterFold {
    /// A poll of parent `id` (no stream): its stored tally read and its children counted at
    /// `at_ms`, poll number `poll`. The first starts it, as a check; a later one that differs is
    /// a change, and a gap that outlives the settle window a divergence (with no write named).
    pub fn sample(
        &mut self,
        id: &str,
        pk: &str,
        tally: Option<BigDecimal>,
        children: u64,
        at_ms: i64,
        poll: u64,
    ) -> Vec<WatchEvent> {
        let mut events = self.advance(at_ms);
        let Some(parent) = self.parents.get_mut(id) else {
            events.extend(self.start_checked(id, pk, tally, children, at_ms));
            return events;
        };
        let base = Base::Checked {
            tally: tally.clone(),
            children,
        };
        if parent.base == base {
            return events;
        }
        self.folded += 1;
        *parent = ParentWatch {
            recent: std::mem::take(&mut parent.recent),
            open: parent.open.take(),
            closed: std::mem::take(&mut parent.closed),
            settled: parent.settled,
            records: parent.records + 1,
            ..ParentWatch::new(pk.to_owned(), base)
        };
        let shown = tally.as_ref().map(crate::core::number::to_dynamodb);
        let change = Change {
            sequence: SequenceNumber(poll.to_string()),
            at_ms,
            kind: EventKind::Modify,
            parent: pk.to_owned(),
            item: pk.to_owned(),
            effect: Effect::Polled {
                tally: shown.clone(),
                children,
            },
            tally_after: shown,
            children_after: parent.children(),
            gap_after: parent.gap(),
            evidence: Vec::new(),
            old: None,
            new: None,
            write_units: 0,
        };
        if self.config.keep_changes > 0 {
            if parent.recent.len() >= self.config.keep_changes {
                parent.recent.pop_front();
            }
            parent.recent.push_back(change.clone());
        }
        events.extend(self.track(id, pk, change));
        events
    }
}
