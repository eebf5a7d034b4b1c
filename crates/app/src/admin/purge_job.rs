//! A bulk delete's run on a worker: what was counted deleted (the count typed back is the
//! confirmation), then the tallies repaired when chosen; its words, the keys it deleted and the
//! parents it repaired come back to the form.

use crate::scope::Scope;
use dynoscope_core::purge::{self, PurgeCount, PurgeReport, PurgeSource, TallyChoice};
use dynoscope_core::report::Report as _;
use dynoscope_core::task::Job;

/// A delete's words, the keys it deleted and the parents whose tallies it repaired.
pub(super) type Ended = (
    Vec<dynoscope_core::report::Line>,
    Vec<dynoscope_core::value::Item>,
    Vec<dynoscope_core::value::Item>,
);

/// Delete what was counted (the count typed back is the confirmation), then repair the
/// tallies when `choice` says so; the lines to show and what is gone come back when it ends.
pub(super) fn delete_job(
    scope: &Scope<'_>,
    counted: PurgeCount,
    source: PurgeSource,
    choice: Option<TallyChoice>,
) -> Job<PurgeReport, Ended> {
    let (connection, info) = (scope.connection.clone(), scope.table.clone());
    scope
        .spawner
        .spawn_job("BatchWriteItem", move |progress, stop| async move {
            // The count typed back is the confirmation, here and elsewhere alike.
            let counted = purge::CountedPurge::new(counted, &info, &connection);
            let run = purge::delete_counted(
                &connection,
                &info,
                &source,
                counted,
                choice,
                true,
                &stop,
                |r| {
                    progress.send(r.clone());
                },
            )
            .await?;
            let lines = run.lines();
            let parents = run.parents_written();
            Ok((lines, run.report.gone, parents))
        })
}
