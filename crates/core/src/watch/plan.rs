//! What a watch runs and reports: its plan (rule, parents, where in the stream, the settle
//! window, polling), its progress as it goes, how it ended, and its first lines.

use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::stream::{Followed, StartAt, StreamEvent};
use crate::table::TableInfo;
use crate::tally::TallyRule;
use crate::watch::{CounterFold, WatchEvent};

/// Which parents a watch follows.
#[derive(Debug, Clone, PartialEq)]
pub enum WatchScope {
    /// One parent.
    One {
        /// Its partition key value.
        partition: AttributeValue,
        /// As typed.
        pk: String,
    },
    /// Every parent of the rule.
    Every,
}

/// A watch, checked: what its spec plans.
#[derive(Debug, Clone, PartialEq)]
pub struct WatchPlan {
    /// The counter rule.
    pub rule: TallyRule,
    /// One parent or all.
    pub scope: WatchScope,
    /// Where in the stream.
    pub start: StartAt,
    /// How long a gap may stay open before it is a divergence (stream time).
    pub settle_ms: i64,
    /// Polling instead of a stream, every this long.
    pub poll: Option<Duration>,
}

/// What a watch reports as it goes.
#[derive(Debug, Clone, PartialEq)]
#[expect(
    clippy::large_enum_variant,
    reason = "a record's change is the common event: boxing it would allocate once more per record"
)]
pub enum WatchProgress {
    /// It started: what it watches and from where, in words. Writes from now on are seen.
    Started(Vec<String>),
    /// The fold's word on a record or a divergence.
    Event(WatchEvent),
    /// The reader waited, recovered, or caught up.
    Stream(StreamEvent),
    /// A poll was made (poll number, read capacity it used).
    Polled {
        /// Polls so far.
        poll: u64,
        /// Its read capacity.
        consumed_rcu: f64,
    },
}

/// How a watch ended.
#[derive(Debug, Clone)]
pub struct Watched {
    /// The fold: every parent, its divergences.
    pub fold: CounterFold,
    /// The stream walk (none when polling).
    pub followed: Option<Followed>,
    /// Polls made (none with a stream).
    pub polls: u64,
    /// Read capacity of the checks and polls.
    pub consumed_rcu: f64,
    /// When it started and ended, this machine's clock (ms).
    pub started_ms: i64,
    /// When it ended.
    pub ended_ms: i64,
    /// What the table's reads cost (the checks and the polls).
    pub pricing: crate::cost::Pricing,
}

pub(super) fn start_lines(
    info: &TableInfo,
    plan: &WatchPlan,
    view: &str,
    tally: &str,
) -> Vec<String> {
    let what = match &plan.scope {
        WatchScope::One { pk, .. } => format!("{pk}'s {tally}"),
        WatchScope::Every => format!(
            "every {}",
            crate::tally::Rule::Tally(plan.rule.clone()).describe()
        ),
    };
    let from = match (&plan.start, plan.poll) {
        (_, Some(every)) => format!(
            "polling every {} s (no stream: the write that drifts cannot be named)",
            every.as_secs_f64()
        ),
        (StartAt::Latest, _) => "from now".to_owned(),
        (StartAt::TrimHorizon, _) => {
            "from the start of the stream (up to 24 hours back)".to_owned()
        }
        (StartAt::At(s) | StartAt::After(s), _) => format!("from sequence {s}"),
    };
    vec![format!(
        "Watching {what} in {} {from}; a gap open over {}.{:03} s is a divergence{}",
        info.name,
        plan.settle_ms / 1000,
        plan.settle_ms % 1000,
        if plan.poll.is_some() {
            String::new()
        } else {
            format!(" (stream {view})")
        }
    )]
}
