//! Polling folded like a stream: each poll a sample of one parent's tally and children.

use bigdecimal::BigDecimal;

use crate::stream::{EventKind, SequenceNumber};
use crate::watch::change::{Change, Effect};
use crate::watch::parent::Base;
use crate::watch::{CounterFold, WatchEvent};

impl CounterFold {
    /// A poll of parent `id` (no stream): its stored tally read and its children counted at
    /// `at_ms`, poll number `poll`. The first starts it, as a check; a later one that differs is
    /// a change, and a move of the gap not undone within the settle window a divergence (with no
    /// write named).
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
        let gap_before = parent.gap();
        parent.rebase(base);
        parent.records += 1;
        let shown = tally.as_ref().map(crate::number::to_dynamodb);
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
        events.extend(self.track(id, change, gap_before));
        events
    }
}
