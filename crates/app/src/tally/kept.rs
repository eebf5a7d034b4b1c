//! A table's one-parent check and shard sum, kept while another table is open and given back,
//! with how old they are, when it is opened again: switching tables and back forgets no result.

use std::collections::HashMap;
use std::time::Instant;

use dynoscope_core::connection::ConnectionId;
use dynoscope_core::tally::{ParentCheck, ShardTotal};
use dynoscope_core::value::Item;

use super::TallyFeature;

/// The results kept, by connection and table.
#[derive(Default)]
pub(super) struct Kept(HashMap<(ConnectionId, String), Results>);

/// One table's results.
struct Results {
    partition: String,
    check: Option<(ParentCheck, Item)>,
    checked_at: Option<Instant>,
    shards: Option<ShardTotal>,
    shard_rate: String,
    selected: Option<usize>,
}

impl TallyFeature {
    /// Keep the open table's results aside (nothing is kept for a table with none).
    pub(super) fn keep_results(&mut self) {
        let Some(place) = &self.place else {
            return;
        };
        if self.check.is_none() && self.shards.is_none() && self.partition.is_empty() {
            return;
        }
        let key = (place.spec.identity(), place.table.clone());
        let results = Results {
            partition: std::mem::take(&mut self.partition),
            check: self.check.take(),
            checked_at: self.checked_at.take(),
            shards: self.shards.take(),
            shard_rate: std::mem::take(&mut self.shard_rate),
            selected: self.selected,
        };
        self.kept.0.insert(key, results);
    }

    /// Give the open table's kept results back; whether there were any.
    pub(super) fn results_back(&mut self) -> bool {
        let Some(place) = &self.place else {
            return false;
        };
        let key = (place.spec.identity(), place.table.clone());
        let Some(results) = self.kept.0.remove(&key) else {
            return false;
        };
        self.partition = results.partition;
        self.check = results.check;
        self.checked_at = results.checked_at;
        self.shards = results.shards;
        self.shard_rate = results.shard_rate;
        self.selected = results.selected.filter(|&at| at < self.rules().len());
        true
    }
}
