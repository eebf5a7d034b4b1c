//! The places in the sample data a newcomer opens first: the article's post, the drifted
//! posts, the plain and the sharded counter.

use crate::seed::{SAMPLE_POST, SOCIAL, VIDEOS};

/// A place in the sample data worth opening first: its table, its partition, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// The table.
    pub table: &'static str,
    /// The partition key value.
    pub partition: &'static str,
    /// What it shows, in a few words.
    pub what: &'static str,
}

/// The sample's places to start from, in the order a newcomer meets them.
pub const SAMPLES: [Sample; 6] = [
    Sample {
        table: SOCIAL,
        partition: SAMPLE_POST,
        what: "the article's post: likeTally on META beside its LIKE#USER# children",
    },
    Sample {
        table: SOCIAL,
        partition: "POST#d71e",
        what: "drifted +1: a like whose ADD was retried",
    },
    Sample {
        table: SOCIAL,
        partition: "POST#3b0c",
        what: "drifted -2: two children put without their tally",
    },
    Sample {
        table: SOCIAL,
        partition: "POST#77f1",
        what: "tally missing: META written again without it",
    },
    Sample {
        table: VIDEOS,
        partition: "VID#9f3a",
        what: "play_count bumped by an atomic ADD",
    },
    Sample {
        table: VIDEOS,
        partition: "VID#c0de",
        what: "a counter sharded 8 ways, shard 3 hot",
    },
];
