//! The counter fold: stream records become changes of parents' stored tallies and counted
//! children under one tally rule; a gap between them that outlives the settle window is a
//! divergence, named by the records that opened it.

use std::collections::{BTreeSet, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::core::stream::StreamRecord;
use crate::core::tally::ChildSource;
use crate::core::watch::change::{Change, evidence_of, key_text};
use crate::core::watch::config::FoldConfig;
use crate::core::watch::effects::{child_effect, parent_effect};
use crate::core::watch::parent::{Base, Divergence, MAX_CAUSES, ParentWatch};

/// What the fold says as records arrive.
// A record's change is the common event: boxing it would allocate once more per record.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum WatchEvent {
    /// A record changed a watched parent's counter.
    Change(Change),
    /// A divergence outlived the settle window (or was there at the start): named.
    Diverged(Divergence),
    /// A reported divergence closed: tally and children agree again.
    Closed(Divergence),
}

/// The fold over one rule.
#[derive(Debug, Clone)]
pub struct CounterFold {
    pub(super) config: FoldConfig,
    pub(super) parents: HashMap<String, ParentWatch>,
    /// Open divergences not yet reported, by when they opened.
    pub(super) pending: BTreeSet<(i64, String)>,
    /// Open divergences back at zero, by since when: closed once they stay there.
    pub(super) closing: BTreeSet<(i64, String)>,
    /// The latest stream time seen (records, or this machine's clock while caught up).
    pub(super) now_ms: i64,
    /// Records folded into a parent.
    pub folded: u64,
    /// Records outside the rule (or of other parents).
    pub ignored: u64,
}

/// A record's place under the rule.
enum Role {
    Parent(String),
    Child(String),
}

fn text(item: &crate::core::value::Item, name: &str) -> Option<String> {
    match item.get(name)? {
        AttributeValue::S(s) => Some(s.clone()),
        AttributeValue::N(n) => Some(n.clone()),
        _ => None,
    }
}

impl CounterFold {
    /// A fold with no parent started.
    pub fn new(config: FoldConfig) -> Self {
        Self {
            config,
            parents: HashMap::new(),
            pending: BTreeSet::new(),
            closing: BTreeSet::new(),
            now_ms: 0,
            folded: 0,
            ignored: 0,
        }
    }

    /// The rule's tally attribute.
    pub fn tally_name(&self) -> &str {
        &self.config.rule.tally
    }

    /// How the fold was configured.
    pub fn config(&self) -> &FoldConfig {
        &self.config
    }

    /// Watch only parent `id` (its partition key, or the rule's id attribute's value).
    pub fn config_only(&mut self, id: &str) {
        self.config.only = Some(id.to_owned());
    }

    /// Keep `n` changes a parent (0: counters and divergences only).
    pub fn config_keep_changes(&mut self, n: usize) {
        self.config.keep_changes = n;
    }

    /// The watched parents.
    pub fn parents(&self) -> impl Iterator<Item = &ParentWatch> {
        self.parents.values()
    }

    /// The parent with id `id`.
    pub fn parent(&self, id: &str) -> Option<&ParentWatch> {
        self.parents.get(id)
    }

    /// Start parent `id` (partition key `pk`) from one exact check at `at_ms`; a drift found by
    /// it is reported at once, as there before the watch.
    pub fn start_checked(
        &mut self,
        id: &str,
        pk: &str,
        tally: Option<BigDecimal>,
        children: u64,
        at_ms: i64,
    ) -> Vec<WatchEvent> {
        let mut parent = ParentWatch::new(pk.to_owned(), Base::Checked { tally, children });
        let gap = parent.gap();
        let mut events = Vec::new();
        if gap != Some(BigDecimal::default()) {
            let divergence = Divergence {
                parent: pk.to_owned(),
                opened_ms: at_ms,
                before_watch: true,
                closed_ms: None,
                closing_since: None,
                gap,
                causes: Vec::new(),
                records: 0,
                reported: true,
            };
            events.push(WatchEvent::Diverged(divergence.clone()));
            parent.open = Some(divergence);
        }
        self.parents.insert(id.to_owned(), parent);
        events
    }

    fn role(&self, record: &StreamRecord) -> Option<Role> {
        let config = &self.config;
        let item = record.item();
        let keyed = |name: &str| text(&record.keys, name).or_else(|| text(item, name));
        let pk = keyed(&config.pk)?;
        let sk = config.sk.as_deref().and_then(keyed);
        let parents = &config.rule.parents;
        if sk.as_deref() == Some(parents.sort_key.as_str())
            && pk.starts_with(&parents.partition_prefix)
        {
            let id = match &config.rule.children {
                ChildSource::Index {
                    id_attribute: Some(attr),
                    ..
                } => text(item, attr)?,
                _ => pk,
            };
            return Some(Role::Parent(id));
        }
        match (&config.rule.children, &config.index_keys) {
            (ChildSource::SortKeyPrefix(prefix), _) => sk
                .filter(|s| s.starts_with(prefix.as_str()))
                .map(|_| Role::Child(pk)),
            (ChildSource::Index { sort_prefix, .. }, Some((ipk, isk))) => {
                let id = text(item, ipk)?;
                let sorted = isk.as_deref().and_then(|n| text(item, n));
                (sort_prefix.is_empty()
                    || sorted.is_some_and(|s| s.starts_with(sort_prefix.as_str())))
                .then_some(Role::Child(id))
            }
            (ChildSource::Index { .. }, None) => None,
        }
    }

    /// Fold one record: the changes it made and the divergences it opened past their settle
    /// window or closed.
    pub fn apply(&mut self, record: &StreamRecord) -> Vec<WatchEvent> {
        let mut events = self.advance(record.at_ms);
        let role = self.role(record);
        let id = match &role {
            Some(Role::Parent(id) | Role::Child(id)) => id.clone(),
            None => {
                self.ignored += 1;
                return events;
            }
        };
        if self.config.only.as_ref().is_some_and(|only| *only != id) {
            self.ignored += 1;
            return events;
        }
        self.folded += 1;
        let config = &self.config;
        let pk_shown = key_text(record, &config.pk).unwrap_or_default();
        let item_shown = config
            .sk
            .as_deref()
            .and_then(|sk| key_text(record, sk))
            .unwrap_or_else(|| pk_shown.clone());
        let parent = self
            .parents
            .entry(id.clone())
            .or_insert_with(|| ParentWatch::new(pk_shown.clone(), Base::Deltas));
        let effect = match role {
            Some(Role::Parent(_)) => parent_effect(parent, record, &config.rule.tally),
            _ => child_effect(parent, record, &item_shown),
        };
        parent.records += 1;
        let write_units = record_units(record);
        parent.load.add(record.at_ms, write_units);
        let gap = parent.gap();
        let change = Change {
            sequence: record.sequence.clone(),
            at_ms: record.at_ms,
            kind: record.kind,
            parent: parent.pk.clone(),
            item: item_shown,
            effect,
            tally_after: parent.tally().map(|t| crate::core::number::to_dynamodb(&t)),
            children_after: parent.children(),
            gap_after: gap.clone(),
            evidence: evidence_of(record.new.as_ref().or(record.old.as_ref())),
            old: record.old.clone(),
            new: record.new.clone(),
            write_units,
        };
        if config.keep_changes > 0 {
            if parent.recent.len() >= config.keep_changes {
                parent.recent.pop_front();
            }
            parent.recent.push_back(change.clone());
        }
        let pk = parent.pk.clone();
        events.extend(self.track(&id, &pk, change));
        events
    }

    /// Keep the divergence of parent `id` after `change`: opened, grown, back at zero (closed
    /// once it stays there; said when reported, dropped within the settle window).
    pub(super) fn track(&mut self, id: &str, pk: &str, change: Change) -> Vec<WatchEvent> {
        let mut events = Vec::new();
        let Some(parent) = self.parents.get_mut(id) else {
            return events;
        };
        let gap = change.gap_after.clone();
        let at_ms = change.at_ms;
        let zero = BigDecimal::default();
        let closes = gap == Some(zero.clone());
        let Some(open) = parent.open.as_mut() else {
            if !closes {
                parent.open = Some(Divergence {
                    parent: pk.to_owned(),
                    opened_ms: at_ms,
                    before_watch: false,
                    closed_ms: None,
                    closing_since: None,
                    gap,
                    causes: vec![change.clone()],
                    records: 1,
                    reported: false,
                });
                self.pending.insert((at_ms, id.to_owned()));
            }
            events.push(WatchEvent::Change(change));
            return events;
        };
        open.records += 1;
        if closes && !open.reported {
            // Back at zero before the settle window ended: the two records of one write,
            // arrived apart.
            events.push(WatchEvent::Change(change));
            events.extend(self.close(id, at_ms));
            return events;
        }
        if closes {
            // A divergence said is closed once the gap stays at zero for the settle window: a
            // write's two records arriving apart (its child, then its tally) leave it as it was.
            if open.closing_since.is_none() {
                open.closing_since = Some(at_ms);
                self.closing.insert((at_ms, id.to_owned()));
            }
        } else {
            if let Some(since) = open.closing_since.take() {
                self.closing.remove(&(since, id.to_owned()));
                if !open.reported {
                    // Due to be reported again, if it is old enough.
                    self.pending.insert((open.opened_ms, id.to_owned()));
                }
            }
            // A cause moved the gap further than the divergence had it (a write whose halves
            // arrived apart, leaving it where it was, is not one).
            let further = match (open.gap.as_ref(), gap.as_ref()) {
                (Some(was), Some(now)) => now.abs() > was.abs() || (was * now) < zero,
                (Some(_), None) => true,
                (None, _) => false,
            };
            if further && open.causes.len() < MAX_CAUSES {
                open.causes.push(change.clone());
            }
            open.gap = gap;
        }
        events.push(WatchEvent::Change(change));
        events
    }

    /// Stream time moved to `now_ms` (a record's time, or this machine's clock while the
    /// stream is idle): every open divergence older than the settle window is reported.
    pub fn advance(&mut self, now_ms: i64) -> Vec<WatchEvent> {
        self.now_ms = self.now_ms.max(now_ms);
        let mut events = Vec::new();
        while let Some((since, id)) = self.closing.first().cloned() {
            if self.now_ms - since <= self.config.settle_ms {
                break;
            }
            self.closing.pop_first();
            events.extend(self.close(&id, since));
        }
        while let Some((opened, id)) = self.pending.first().cloned() {
            if self.now_ms - opened <= self.config.settle_ms {
                break;
            }
            self.pending.pop_first();
            if let Some(open) = self.parents.get_mut(&id).and_then(|p| p.open.as_mut())
                && open.closing_since.is_none()
            {
                open.reported = true;
                events.push(WatchEvent::Diverged(open.clone()));
            }
        }
        events
    }

    /// The end of the watch: every divergence still open is reported, whatever its age.
    ///
    /// `now_ms`: the stream time the watch read to (this machine's clock when it caught up
    /// with the stream; the last record's time when it was stopped before). Gaps older than the
    /// settle window by then are reported; younger ones stay unsettled — an in-flight write
    /// cut by the end is not a divergence — and are said apart ([`Self::unsettled`]).
    pub fn finish(&mut self, now_ms: i64) -> Vec<WatchEvent> {
        let mut events = self.advance(now_ms);
        // Back at zero when the watch ended: closed.
        for (since, id) in std::mem::take(&mut self.closing) {
            events.extend(self.close(&id, since));
        }
        events
    }

    /// The latest stream time seen.
    pub fn now_ms(&self) -> i64 {
        self.now_ms
    }
}

/// The write units a recorded write cost, from the larger of the item before and after (as
/// DynamoDB charges an update), at least one.
fn record_units(record: &StreamRecord) -> u64 {
    let size = |item: Option<&crate::core::value::Item>| {
        item.map_or(0, |i| {
            u64::try_from(crate::core::validate::item_size(i)).unwrap_or(u64::MAX)
        })
    };
    let bytes = size(record.old.as_ref()).max(size(record.new.as_ref()));
    bytes
        .div_ceil(crate::core::cost::units::WRITE_UNIT_BYTES)
        .max(1)
}
