//! The counter fold: stream records become changes of parents' stored tallies and counted
//! children under one tally rule. Each record's move of the gap (tally minus children) waits
//! for its counterpart — a like's tally +1 for its child — for the settle window; a move left
//! unmatched then changes the settled gap and is named. A gap there when the watch started is
//! its baseline, said once: consistent writes on a drifted parent are never named.

use std::collections::{BTreeSet, HashMap};

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::stream::StreamRecord;
use crate::tally::ChildSource;
use crate::watch::change::{Change, evidence_of_record, key_text};
use crate::watch::config::FoldConfig;
use crate::watch::effects::{child_effect, parent_effect};
use crate::watch::parent::{Base, Divergence, ParentWatch, Unpaired};

/// Moves of one parent's gap kept waiting for their counterpart, at most.
const MAX_UNPAIRED: usize = 10_000;

/// What the fold says as records arrive.
#[derive(Debug, Clone, PartialEq)]
pub enum WatchEvent {
    /// A record changed a watched parent's counter.
    Change(Change),
    /// A write changed a parent's settled gap (or the start check found one): the divergence
    /// as it is now, led by that write.
    Diverged(Divergence),
    /// A divergence closed: a write brought tally and children together again.
    Closed(Divergence),
}

/// The fold over one rule.
#[derive(Debug, Clone)]
pub struct CounterFold {
    pub(super) config: FoldConfig,
    pub(super) parents: HashMap<String, ParentWatch>,
    /// Moves of a gap waiting for their counterpart, by when: (stream time, token, parent id).
    pub(super) pending: BTreeSet<(i64, u64, String)>,
    /// The next waiting move's token.
    pub(super) next_token: u64,
    /// This machine's clock at the last [`Self::tick`].
    pub(super) wall_ms: i64,
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

fn text(item: &crate::value::Item, name: &str) -> Option<String> {
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
            next_token: 0,
            wall_ms: i64::MIN,
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

    #[cfg(test)]
    /// Watch only parent `id` (its partition key, or the rule's id attribute's value).
    pub(crate) fn config_only(&mut self, id: &str) {
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

    /// Start parent `id` (partition key `pk`) from one exact check at `at_ms`; a gap found by
    /// it is the parent's baseline, said at once as there before the watch.
    pub(crate) fn start_checked(
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
                start_gap: gap.clone(),
                closed_ms: None,
                gap,
                causes: Vec::new(),
                dropped: 0,
                records: 0,
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
        let gap_before = parent.gap();
        let effect = match role {
            Some(Role::Parent(_)) => parent_effect(parent, record, &config.rule.tally),
            _ => child_effect(parent, record, &item_shown),
        };
        parent.records += 1;
        let write_units = record_units(record);
        parent.load.add(record.at_ms, write_units);
        let change = Change {
            sequence: record.sequence.clone(),
            at_ms: record.at_ms,
            kind: record.kind,
            parent: parent.pk.clone(),
            item: item_shown,
            effect,
            tally_after: parent.tally().map(|t| crate::number::to_dynamodb(&t)),
            children_after: parent.children(),
            gap_after: parent.gap(),
            evidence: evidence_of_record(record),
            old: record.old.clone(),
            new: record.new.clone(),
            write_units,
        };
        events.extend(self.track(&id, change, gap_before));
        events
    }

    /// Keep `change` of parent `id`, which moved its gap from `gap_before`: matched against a
    /// waiting counterpart, or left waiting for one for the settle window.
    pub(super) fn track(
        &mut self,
        id: &str,
        change: Change,
        gap_before: Option<BigDecimal>,
    ) -> Vec<WatchEvent> {
        let keep = self.config.keep_changes;
        let mut events = Vec::new();
        let Some(parent) = self.parents.get_mut(id) else {
            return events;
        };
        if keep > 0 {
            if parent.recent.len() >= keep {
                parent.recent.pop_front();
            }
            parent.recent.push_back(change.clone());
        }
        if let Some(open) = parent.open.as_mut() {
            open.records += 1;
        }
        let amount = match (gap_before, change.gap_after.as_ref()) {
            (Some(before), Some(after)) => Some(after - before),
            (None, None) => Some(BigDecimal::default()),
            _ => None,
        };
        let left = match amount {
            Some(amount) => {
                let (left, matched) = parent.pair(amount);
                for (at, token) in matched {
                    self.pending.remove(&(at, token, id.to_owned()));
                }
                (left != BigDecimal::default()).then_some(Some(left))
            }
            None => Some(None),
        };
        let (at_ms, token) = (change.at_ms, self.next_token);
        events.push(WatchEvent::Change(change.clone()));
        if let Some(amount) = left {
            self.next_token += 1;
            parent.unpaired.push_back(Unpaired {
                token,
                change,
                amount,
                arrived_wall_ms: self.wall_ms,
            });
            self.pending.insert((at_ms, token, id.to_owned()));
            if parent.unpaired.len() > MAX_UNPAIRED
                && let Some(oldest) = parent.unpaired.front().map(|w| (w.change.at_ms, w.token))
            {
                // Bounded: the oldest waiting move settles early.
                events.extend(self.settle_one(oldest.0, oldest.1, id));
            }
        }
        events
    }

    /// Stream time moved to `now_ms` (a record's time, or this machine's clock while the
    /// stream is idle): every move of a gap that waited longer than the settle window settles.
    pub(crate) fn advance(&mut self, now_ms: i64) -> Vec<WatchEvent> {
        self.now_ms = self.now_ms.max(now_ms);
        let mut events = Vec::new();
        while let Some((at, token, id)) = self.pending.first().cloned() {
            if self.now_ms - at <= self.config.settle_ms {
                break;
            }
            events.extend(self.settle_one(at, token, &id));
        }
        events
    }

    /// Records are about to be folded, read at `now_wall_ms` by this machine's clock: what
    /// waits for its counterpart waits from then.
    pub(crate) fn note_wall(&mut self, now_wall_ms: i64) {
        self.wall_ms = self.wall_ms.max(now_wall_ms);
    }

    /// This machine's clock moved to `now_wall_ms` while the stream is idle (caught up): every
    /// move read more than the settle window ago settles, so a lone write is named without
    /// waiting for the next record. Measured from when each was read, not from its stream time:
    /// a stream read behind a busy writer brings a write's two records late, but together.
    pub fn tick(&mut self, now_wall_ms: i64) -> Vec<WatchEvent> {
        self.wall_ms = self.wall_ms.max(now_wall_ms);
        let mut events = Vec::new();
        let settle = self.config.settle_ms;
        // Each waiting move once, by its parent (not a search of every parent per move).
        let due: Vec<(i64, u64, String)> = self
            .parents
            .iter()
            .flat_map(|(id, parent)| {
                parent
                    .unpaired
                    .iter()
                    .filter(|w| {
                        w.arrived_wall_ms != i64::MIN && now_wall_ms - w.arrived_wall_ms > settle
                    })
                    .map(move |w| (w.change.at_ms, w.token, id.clone()))
            })
            .collect();
        for (at, token, id) in due {
            events.extend(self.settle_one(at, token, &id));
        }
        events
    }

    /// The end of the watch: every move that waited longer than the settle window settles.
    ///
    /// `now_ms`: the stream time the watch read to (this machine's clock when it caught up
    /// with the stream; the last record's time when it was stopped before). Younger moves
    /// stay waiting — an in-flight write cut by the end is not a divergence — and are said
    /// apart ([`Self::unsettled`]).
    pub fn finish(&mut self, now_ms: i64) -> Vec<WatchEvent> {
        self.advance(now_ms)
    }

    /// The latest stream time seen.
    pub fn now_ms(&self) -> i64 {
        self.now_ms
    }
}

/// The write units a recorded write cost, from the larger of the item before and after (as
/// DynamoDB charges an update), at least one.
fn record_units(record: &StreamRecord) -> u64 {
    let size = |item: Option<&crate::value::Item>| {
        item.map_or(0, |i| {
            u64::try_from(crate::validate::item_size(i)).unwrap_or(u64::MAX)
        })
    };
    let bytes = size(record.old.as_ref()).max(size(record.new.as_ref()));
    bytes.div_ceil(crate::cost::units::WRITE_UNIT_BYTES).max(1)
}
