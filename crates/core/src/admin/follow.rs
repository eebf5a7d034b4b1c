//! Following a table after a configuration write: described again every [`POLL`] until it has
//! settled (or is gone) once the write applied; or, once its outcome is unknown, described a
//! few times within what is left of the run's deadline, to settle what can be settled (a table
//! that is gone after a delete: applied) and say what cannot.

use std::time::Duration;

use aws_sdk_dynamodb::Client;

use crate::admin::AdminEvent;
use crate::cancel::{CancelToken, unless_stopped};
use crate::connection::Reader;
use crate::error::{Error, Result};
use crate::schema::{Described, read_spec};
use crate::throttle::Deadline;

/// How often a table is described again while it settles.
pub(crate) const POLL: Duration = Duration::from_secs(2);

/// How far following a table got.
#[derive(Debug)]
pub(super) enum Followed {
    /// Settled: `ACTIVE`, no index backfilling.
    Settled(Described),
    /// It no longer exists (when that was waited for).
    Gone,
    /// Neither, when the deadline came: the table as last described.
    Unsettled(Described),
}

/// A deadline to follow within: the run's, and the least one description is given (a fair
/// share of the timeout) even when the run's is spent.
#[derive(Debug, Clone, Copy)]
pub(super) struct Within {
    /// The run's deadline.
    pub deadline: Deadline,
    /// The least time one description gets.
    pub share: Duration,
}

impl Within {
    /// Within `deadline`, for a connection whose timeout is `timeout`: a description every
    /// quarter of it (at most every [`POLL`]), each given at least that quarter.
    pub(super) fn new(deadline: Deadline, timeout: Duration) -> Self {
        Self {
            deadline,
            share: (timeout / 4).min(POLL),
        }
    }
}

/// Describe `table` until it has settled — or, when `gone` is wanted, until it no longer
/// exists (`None`) — every [`POLL`], saying each new state. Only `stop` ends it otherwise.
pub async fn follow(
    client: &Client,
    table: &str,
    gone: bool,
    stop: &CancelToken,
    on_event: &mut (dyn FnMut(AdminEvent) + Send),
) -> Result<Option<Described>> {
    match follow_within(client, table, gone, None, stop, on_event).await? {
        Followed::Settled(described) | Followed::Unsettled(described) => Ok(Some(described)),
        Followed::Gone => Ok(None),
    }
}

/// [`follow`], given up on at `within`'s deadline when there is one: the first description is
/// always made (within at least its share), the next ones only while one more fits.
pub(super) async fn follow_within(
    client: &Client,
    table: &str,
    gone: bool,
    within: Option<Within>,
    stop: &CancelToken,
    on_event: &mut (dyn FnMut(AdminEvent) + Send),
) -> Result<Followed> {
    let mut last = String::new();
    let every = within.map_or(POLL, |w| w.share);
    loop {
        let read = unless_stopped(stop, "DescribeTable", describe(client, table, within)).await;
        let described = match read {
            Err(error) if gone && error.code() == Some("ResourceNotFoundException") => {
                return Ok(Followed::Gone);
            }
            Err(error) => return Err(error),
            Ok(described) if !gone && described.settled() => {
                return Ok(Followed::Settled(described));
            }
            Ok(described) => described,
        };
        let state = described.state();
        if state != last {
            on_event(AdminEvent::State(state.clone()));
            last = state;
        }
        if within.is_some_and(|w| !w.deadline.fits(every)) {
            return Ok(Followed::Unsettled(described));
        }
        tokio::select! {
            () = tokio::time::sleep(every) => {}
            () = stop.cancelled() => return Err(Error::Cancelled { op: "DescribeTable" }),
        }
    }
}

/// One description, within what is left of `within` (and at least its share) when given.
async fn describe(client: &Client, table: &str, within: Option<Within>) -> Result<Described> {
    let Some(within) = within else {
        return read_spec(&Reader::of(client), table).await;
    };
    let budget = within.deadline.left().max(within.share);
    tokio::time::timeout(budget, read_spec(&Reader::of(client), table))
        .await
        .unwrap_or_else(|_| {
            Err(Error::Timeout {
                op: "DescribeTable",
                detail: format!(
                    "table {table} not described within {} ms",
                    budget.as_millis()
                ),
            })
        })
}
