//! A stream's shards in the order they must be read: a child only once its parent is read to
//! its end, so the records of one item come in the order they were written. Pure: it learns the
//! shards from DescribeStream's pages and is told when a shard is finished; the reader asks it
//! which shards are ready.

use std::collections::BTreeMap;

use crate::stream::record::SequenceNumber;

/// One shard as DescribeStream lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShardInfo {
    /// Its id.
    pub id: String,
    /// The shard it was split from, if any.
    pub parent: Option<String>,
    /// Its first record's sequence number.
    pub starting: Option<SequenceNumber>,
    /// Its last record's sequence number, once it is closed (no more records will come).
    pub ending: Option<SequenceNumber>,
}

/// Where a shard is in the walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShardState {
    /// Waiting for its parent to be finished.
    Waiting,
    /// Being read.
    Reading,
    /// Read to its end (or skipped: before where the walk starts).
    Finished,
}

/// Every shard of a stream that the walk knows, with where each is.
#[derive(Debug, Clone, Default)]
pub(crate) struct ShardWalk {
    shards: BTreeMap<String, (ShardInfo, ShardState)>,
}

impl ShardWalk {
    /// An empty walk.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Learn the shards of one DescribeStream page; a shard already known keeps its state (its
    /// ending sequence number is updated once it closes).
    pub(crate) fn learn(&mut self, page: impl IntoIterator<Item = ShardInfo>) {
        for shard in page {
            match self.shards.get_mut(&shard.id) {
                Some((known, _)) => *known = shard,
                None => {
                    self.shards
                        .insert(shard.id.clone(), (shard, ShardState::Waiting));
                }
            }
        }
    }

    /// Whether shard `info` is closed: it has an ending sequence number and a child split from
    /// it. An emulator may give its one shard the last record's number as an end while still
    /// writing to it; a shard with no child is read until GetRecords says it ended.
    fn closed(&self, info: &ShardInfo) -> bool {
        info.ending.is_some()
            && self
                .shards
                .values()
                .any(|(other, _)| other.parent.as_deref() == Some(info.id.as_str()))
    }

    /// Mark as finished every closed shard that ends before `sequence` (where a walk resumes:
    /// they were read already).
    pub(crate) fn skip_before(&mut self, sequence: &SequenceNumber) {
        let done: Vec<String> = self
            .shards
            .values()
            .filter(|(info, _)| self.closed(info))
            .filter(|(info, _)| info.ending.as_ref().is_some_and(|end| end < sequence))
            .map(|(info, _)| info.id.clone())
            .collect();
        for id in done {
            self.finish(&id);
        }
    }

    /// Mark as finished every closed shard (a walk from the latest records reads only the open
    /// ones).
    pub(crate) fn skip_closed(&mut self) {
        let done: Vec<String> = self
            .shards
            .values()
            .filter(|(info, state)| *state == ShardState::Waiting && self.closed(info))
            .map(|(info, _)| info.id.clone())
            .collect();
        for id in done {
            self.finish(&id);
        }
    }

    /// The shards that may be started now: waiting, with no parent, a parent the stream no
    /// longer lists (trimmed after 24 hours), or a parent read to its end. In id order.
    pub(crate) fn ready(&self) -> Vec<ShardInfo> {
        self.shards
            .values()
            .filter(|(_, state)| *state == ShardState::Waiting)
            .filter(|(info, _)| {
                info.parent.as_ref().is_none_or(|parent| {
                    self.shards
                        .get(parent)
                        .is_none_or(|(_, s)| *s == ShardState::Finished)
                })
            })
            .map(|(info, _)| info.clone())
            .collect()
    }

    /// The shard `id` is being read.
    pub(crate) fn start(&mut self, id: &str) {
        if let Some((_, state)) = self.shards.get_mut(id) {
            *state = ShardState::Reading;
        }
    }

    /// The shard `id` was read to its end: its children may start.
    pub(crate) fn finish(&mut self, id: &str) {
        if let Some((_, state)) = self.shards.get_mut(id) {
            *state = ShardState::Finished;
        }
    }

    #[cfg(test)]
    /// Where shard `id` is, when it is known.
    pub(crate) fn state(&self, id: &str) -> Option<ShardState> {
        self.shards.get(id).map(|(_, s)| *s)
    }

    /// The shard whose records include `sequence` (started at or before it, not ended before
    /// it), where a walk resuming at that number starts.
    pub(crate) fn holding(&self, sequence: &SequenceNumber) -> Option<&ShardInfo> {
        self.shards
            .values()
            .map(|(info, _)| info)
            .filter(|info| info.starting.as_ref().is_none_or(|s| s <= sequence))
            .find(|info| !self.closed(info) || info.ending.as_ref().is_none_or(|e| e >= sequence))
    }

    /// Every shard the walk knows, to learn into another walk (a re-describe).
    pub(crate) fn into_shards(self) -> Vec<ShardInfo> {
        self.shards.into_values().map(|(info, _)| info).collect()
    }

    #[cfg(test)]
    /// How many shards are known.
    pub(crate) fn len(&self) -> usize {
        self.shards.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(n: u64) -> SequenceNumber {
        SequenceNumber(format!(
            "{}",
            100_000_000_000_000_000_000u128 + u128::from(n)
        ))
    }

    fn shard(id: &str, parent: Option<&str>, start: u64, end: Option<u64>) -> ShardInfo {
        ShardInfo {
            id: id.to_owned(),
            parent: parent.map(str::to_owned),
            starting: Some(seq(start)),
            ending: end.map(seq),
        }
    }

    fn ids(walk: &ShardWalk) -> Vec<String> {
        walk.ready().into_iter().map(|s| s.id).collect()
    }

    #[test]
    fn a_split_shard_is_read_before_its_children() {
        let mut walk = ShardWalk::new();
        walk.learn([
            shard("a", None, 1, Some(100)),
            shard("b", Some("a"), 101, None),
            shard("c", Some("a"), 102, None),
        ]);
        assert_eq!(ids(&walk), ["a"], "the children wait for their parent");
        walk.start("a");
        assert!(
            ids(&walk).is_empty(),
            "a shard being read is not ready again"
        );
        walk.finish("a");
        assert_eq!(
            ids(&walk),
            ["b", "c"],
            "both children once the parent ended"
        );
    }

    #[test]
    fn a_parent_trimmed_from_the_stream_does_not_hold_its_child() {
        let mut walk = ShardWalk::new();
        walk.learn([shard("child", Some("gone"), 5, None)]);
        assert_eq!(ids(&walk), ["child"]);
    }

    #[test]
    fn shards_learned_over_many_pages_keep_their_state() {
        let mut walk = ShardWalk::new();
        // DescribeStream pages of 100 shards: a chain of splits, each closing the one before.
        for page in 0..5u64 {
            walk.learn((0..100u64).map(|i| {
                let n = page * 100 + i;
                let parent = (n > 0).then(|| format!("s{:04}", n - 1));
                shard(
                    &format!("s{n:04}"),
                    parent.as_deref(),
                    n * 10,
                    Some(n * 10 + 9),
                )
            }));
        }
        assert_eq!(walk.len(), 500);
        let mut order = Vec::new();
        while let Some(next) = walk.ready().into_iter().next() {
            walk.start(&next.id);
            // Learning the same page again (a re-describe) changes nothing.
            walk.learn([next.clone()]);
            assert_eq!(walk.state(&next.id), Some(ShardState::Reading));
            walk.finish(&next.id);
            order.push(next.id);
        }
        assert_eq!(order.len(), 500, "every shard once");
        assert!(order.windows(2).all(|w| w[0] < w[1]), "parents first");
    }

    #[test]
    fn a_walk_from_latest_reads_only_open_shards() {
        let mut walk = ShardWalk::new();
        walk.learn([
            shard("old", None, 1, Some(50)),
            shard("open", Some("old"), 51, None),
        ]);
        walk.skip_closed();
        assert_eq!(ids(&walk), ["open"]);
    }

    #[test]
    fn a_walk_resuming_skips_what_ended_before_and_starts_in_the_shard_holding_it() {
        let mut walk = ShardWalk::new();
        walk.learn([
            shard("a", None, 1, Some(100)),
            shard("b", Some("a"), 101, Some(200)),
            shard("c", Some("b"), 201, None),
        ]);
        let resume = seq(150);
        walk.skip_before(&resume);
        assert_eq!(walk.holding(&resume).map(|s| s.id.as_str()), Some("b"));
        assert_eq!(ids(&walk), ["b"]);
        assert_eq!(walk.state("a"), Some(ShardState::Finished));
    }

    #[test]
    fn a_shard_with_an_end_but_no_child_is_still_read() {
        // dynoxide gives its one shard the last record's number as its end while it is open.
        let mut walk = ShardWalk::new();
        walk.learn([shard("only", None, 1, Some(9))]);
        walk.skip_closed();
        assert_eq!(ids(&walk), ["only"], "from the latest records");
        let resume = seq(20);
        walk.skip_before(&resume);
        assert_eq!(walk.holding(&resume).map(|s| s.id.as_str()), Some("only"));
    }

    #[test]
    fn a_shard_that_closes_later_is_updated() {
        let mut walk = ShardWalk::new();
        walk.learn([shard("a", None, 1, None)]);
        walk.start("a");
        walk.learn([
            shard("a", None, 1, Some(9)),
            shard("b", Some("a"), 10, None),
        ]);
        assert_eq!(walk.state("a"), Some(ShardState::Reading));
        assert!(ids(&walk).is_empty());
        walk.finish("a");
        assert_eq!(ids(&walk), ["b"]);
    }
}
