//! What a stream walk is told and tells: where it starts, how long it goes on, how it paces
//! itself, what it reports, how it ended.

use std::time::Duration;

use crate::retry::{Policy, Rule};
use crate::stream::record::{SequenceNumber, StreamRecord};

/// Where in the stream a walk starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StartAt {
    /// Only records written from now on.
    Latest,
    /// The oldest record the stream holds (up to 24 hours back).
    TrimHorizon,
    /// The record with this sequence number, and on.
    At(SequenceNumber),
    /// The records after this sequence number (where an earlier walk stopped).
    After(SequenceNumber),
}

/// How long a walk goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Until {
    /// Until every open shard has been read to what it holds now (history, then stop).
    CaughtUp,
    /// Until cancelled, waiting for new records.
    Cancelled,
}

/// What the reader reports as it goes.
#[derive(Debug, Clone, PartialEq)]
pub enum StreamEvent {
    /// Every shard the walk starts on has its place: whatever is written from now on will be
    /// read (said once, after the first round).
    Positioned,
    /// Records, each once, in order within their shard.
    Records(Vec<StreamRecord>),
    /// Every open shard read to its end for now; `now_ms` is this machine's clock.
    CaughtUp {
        /// Milliseconds since the epoch.
        now_ms: i64,
    },
    /// A wait before sending again (throttled, or the connection lost), in words.
    Waited(String),
    /// Something the reader recovered from (an expired iterator, trimmed records), in words.
    Recovered(String),
}

/// How the reader paces itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tuning {
    /// The wait after a round in which no shard had new records (GetRecords allows about five
    /// calls a second per shard).
    pub idle: Duration,
    /// How often the shards are listed again while idle, to find new ones.
    pub describe_every: Duration,
    /// The longest a throttled or unreachable stream is waited for before the walk ends with
    /// the error.
    pub give_up_after: Duration,
    /// Records asked for per GetRecords (at most 1,000).
    pub limit: i32,
}

impl Default for Tuning {
    /// 250 ms between idle rounds, shards listed again every 10 s, 2 minutes of throttling or
    /// a lost connection waited out, 1,000 records a call.
    fn default() -> Self {
        Self {
            idle: Duration::from_millis(250),
            describe_every: Duration::from_secs(10),
            give_up_after: Duration::from_mins(2),
            limit: 1000,
        }
    }
}

impl Tuning {
    /// The one retry policy, as a stream reader uses it: throttling and a lost connection are
    /// waited out (100 ms doubling to 5 s) within `give_up_after`; nothing else is sent again.
    pub(super) fn policy(&self) -> Policy {
        let patient = Rule {
            first: Duration::from_millis(100),
            longest: Duration::from_secs(5),
            times: u32::MAX,
            budget: Some(self.give_up_after),
            on_the_clock: false,
        };
        Policy {
            throttled: patient,
            lost: patient,
            conflict: Rule::NEVER,
            unprocessed: Rule::NEVER,
        }
    }
}

/// How a walk ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Followed {
    /// Records handed on.
    pub records: u64,
    /// Requests sent (DescribeStream, GetShardIterator, GetRecords), re-sends included.
    pub requests: u64,
    /// The last record's sequence number (of the shard read last): where another walk of a
    /// one-shard stream may go on (`StartAt::After`).
    pub last: Option<SequenceNumber>,
    /// Cancelled before it ended by itself.
    pub cancelled: bool,
}

/// This machine's clock in milliseconds since the epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
