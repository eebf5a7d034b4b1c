//! What the UI and the worker say to each other: commands, events, and the small types they carry.

use std::path::PathBuf;
use std::sync::Arc;

use aws_sdk_dynamodb::types::AttributeValue;
use tokio::sync::watch;

use crate::core::connection::ConnectionSpec;
use crate::core::counter::{EditReport, Outcome, UpdatePlan};
use crate::core::error::{Error, Result};
use crate::core::export::ExportFormat;
use crate::core::lab::LabResult;
use crate::core::likes::{LikeReport, LikeRequest, LikeTarget, Snapshot, StormStats};
use crate::core::ops::{BrowseRequest, Page};
use crate::core::table::TableInfo;
use crate::core::tally::{ShardRule, TallyRule};
use crate::core::tally_ops::{ParentCheck, ParentSource, ShardTotal};
use crate::core::value::Item;

/// Identifies one browse run, so events from an older run can be told apart.
pub type JobId = u64;

/// What the UI asks the worker to do.
#[derive(Debug)]
pub enum Command {
    /// Connect (replacing the current connection) and then list its tables.
    Connect(ConnectionSpec),
    /// Read the profile names from the AWS config and credentials files.
    ListProfiles,
    /// List the tables of the current connection again.
    ListTables,
    /// Describe a table.
    Describe(String),
    /// Fetch pages of a Query or Scan.
    Browse {
        /// The run these pages belong to.
        job: JobId,
        /// What to read.
        request: Box<BrowseRequest>,
        /// Where to start (`None`: the beginning).
        start_key: Option<Item>,
        /// One page, or every page until the end or until cancelled.
        all: Option<CancelToken>,
    },
    /// Ask where to save, then write `items` there, one per line.
    Export {
        /// Identifies the export.
        job: JobId,
        /// The rows (shared with the grid, not copied).
        items: Arc<Vec<Item>>,
        /// Key attributes, written first on each line.
        key_names: Vec<String>,
        /// The line format.
        format: ExportFormat,
        /// The file name to suggest.
        suggested_name: String,
    },
    /// Ask where to save, then write `contents` there (`records` is reported back).
    SaveText {
        /// Identifies the save (answered with [`Event::Exported`]).
        job: JobId,
        /// The text to write.
        contents: String,
        /// How many records it holds.
        records: usize,
        /// The file name to suggest.
        suggested_name: String,
    },
    /// Read one parent and count its children.
    CheckParent {
        /// Identifies the check.
        job: JobId,
        /// The table.
        info: Box<TableInfo>,
        /// The counter rule.
        rule: TallyRule,
        /// The parent's partition key value.
        partition: AttributeValue,
    },
    /// Sum a sharded counter.
    SumShards {
        /// Identifies the sum.
        job: JobId,
        /// The table.
        info: Box<TableInfo>,
        /// The shard rule.
        rule: ShardRule,
        /// The partition holding the shards.
        partition: AttributeValue,
    },
    /// Find parents and check them all, `concurrency` at a time, until done or cancelled.
    Reconcile {
        /// Identifies the run.
        job: JobId,
        /// The table.
        info: Box<TableInfo>,
        /// The counter rule.
        rule: TallyRule,
        /// Where the parents come from.
        source: ParentSource,
        /// Parents counted at once.
        concurrency: usize,
        /// Stops the run; finished checks are kept.
        cancel: CancelToken,
    },
    /// Send a guarded repair, then check the parent again (also when the condition failed).
    Repair {
        /// Identifies the repair.
        job: JobId,
        /// The table.
        info: Box<TableInfo>,
        /// The counter rule.
        rule: TallyRule,
        /// The conditional `SET`.
        plan: Box<UpdatePlan>,
    },
    /// Like or unlike, observing the tally and the children before and after.
    Like {
        /// Identifies it.
        job: JobId,
        /// The table.
        info: Box<TableInfo>,
        /// The exact transaction (kept for "Send again").
        request: Box<LikeRequest>,
    },
    /// Simulated users liking, liking twice and unliking, then the verdict.
    Storm {
        /// Identifies the storm.
        job: JobId,
        /// The table.
        info: Box<TableInfo>,
        /// Where.
        target: Box<LikeTarget>,
        /// Simulated users.
        users: usize,
        /// Users acting at once.
        concurrency: usize,
        /// Stops the storm.
        cancel: CancelToken,
    },
    /// The counter lab on scratch items.
    Lab {
        /// Identifies the run.
        job: JobId,
        /// The table.
        info: Box<TableInfo>,
        /// Concurrent writers.
        writers: usize,
        /// Increments per writer.
        increments: usize,
    },
    /// Run a request built in the expression builder (once; a Query or Scan reads one page).
    RunRequest {
        /// Identifies the run.
        job: JobId,
        /// The request.
        request: Box<crate::core::expr::codegen::Request>,
    },
    /// Send a counter edit (never re-sent blindly; see [`ops::update_counter`]).
    EditCounter {
        /// Identifies the edit.
        job: JobId,
        /// The checked request.
        plan: Box<UpdatePlan>,
    },
}

/// What the worker answers.
#[derive(Debug)]
pub enum Event {
    /// A connection attempt finished.
    Connected {
        /// Which attempt (the connection generation it starts).
        generation: u64,
        /// The label and what seeding did, or why it failed.
        result: Result<ConnectedInfo>,
    },
    /// The profiles found in the AWS config files.
    Profiles(Vec<String>),
    /// The tables of connection `generation`.
    Tables {
        /// The connection generation the list belongs to.
        generation: u64,
        /// Table names or the error.
        result: Result<Vec<String>>,
    },
    /// A table description.
    Described {
        /// The connection generation.
        generation: u64,
        /// Which table.
        table: String,
        /// The description or the error.
        result: Result<TableInfo>,
    },
    /// One page of a browse run.
    Page {
        /// The run.
        job: JobId,
        /// The page.
        page: Page,
    },
    /// An export ended: the file and the number of items, `None` when no file was chosen.
    Exported {
        /// The export.
        job: JobId,
        /// Where it went and how many items, or why it failed.
        result: Result<Option<(PathBuf, usize)>>,
    },
    /// One parent checked (with the parent item as read).
    ParentChecked {
        /// The check.
        job: JobId,
        /// The check and the parent item, or why it failed.
        result: Result<(ParentCheck, Item)>,
    },
    /// A sharded counter summed.
    ShardsSummed {
        /// The sum.
        job: JobId,
        /// The shards, or why it failed.
        result: Result<ShardTotal>,
    },
    /// Reconcile found its parents and starts counting.
    ReconcileStarted {
        /// The run.
        job: JobId,
        /// Parents to check.
        parents: usize,
    },
    /// Reconcile checked one parent.
    ReconcileChecked {
        /// The run.
        job: JobId,
        /// The check, or why it failed.
        result: Result<ParentCheck>,
    },
    /// Reconcile ended.
    ReconcileDone {
        /// The run.
        job: JobId,
        /// Whether it was cancelled (the checks so far are kept).
        cancelled: bool,
        /// Why it could not start, if it could not.
        error: Option<Error>,
    },
    /// A repair ended, and the parent was checked again.
    Repaired {
        /// The repair.
        job: JobId,
        /// What the conditional SET did.
        outcome: Outcome,
        /// The parent checked again afterwards.
        recheck: Result<(ParentCheck, Item)>,
    },
    /// A like or unlike ended.
    Liked {
        /// Which.
        job: JobId,
        /// Before, outcome, after.
        report: Box<LikeReport>,
    },
    /// A storm's progress.
    StormProgress {
        /// The storm.
        job: JobId,
        /// So far.
        stats: StormStats,
    },
    /// A storm ended: its statistics and the tally and children before and after.
    StormDone {
        /// The storm.
        job: JobId,
        /// Or why it failed.
        result: Result<(StormStats, Snapshot, Snapshot)>,
    },
    /// The counter lab ended.
    LabDone {
        /// The run.
        job: JobId,
        /// One result per method.
        result: Result<Vec<LabResult>>,
    },
    /// A built request ran.
    Ran {
        /// The run.
        job: JobId,
        /// What it returned, or why it failed.
        result: Result<crate::core::expr::run::RunResult>,
    },
    /// A counter edit ended.
    Edited {
        /// The edit.
        job: JobId,
        /// What was sent and how it ended.
        report: Box<EditReport>,
    },
    /// A browse run ended: after its one page, at the last page, cancelled, or failed.
    BrowseDone {
        /// The run.
        job: JobId,
        /// Whether it was cancelled (what loaded is kept).
        cancelled: bool,
        /// The error that stopped it, if any.
        error: Option<Error>,
    },
}

/// What the UI learns about a new connection.
#[derive(Debug, Clone)]
pub struct ConnectedInfo {
    /// The label to show.
    pub label: String,
    /// The spec that was connected.
    pub spec: ConnectionSpec,
    /// For a freshly seeded sandbox: items written and milliseconds taken.
    pub seeded: Option<(usize, u128)>,
}

/// Cancels a "load all" run; what already loaded is kept.
#[derive(Debug, Clone)]
pub struct CancelToken {
    tx: Arc<watch::Sender<bool>>,
}

impl Default for CancelToken {
    fn default() -> Self {
        Self {
            tx: Arc::new(watch::channel(false).0),
        }
    }
}

impl CancelToken {
    /// Ask the run to stop.
    pub fn cancel(&self) {
        self.tx.send_replace(true);
    }

    /// Whether the run was asked to stop.
    pub fn is_cancelled(&self) -> bool {
        *self.tx.borrow()
    }

    pub(super) async fn cancelled(&self) {
        let mut rx = self.tx.subscribe();
        let _ = rx.wait_for(|c| *c).await;
    }
}

/// Asks the user where to save a file. The app uses the system dialog; tests inject their own
/// so that no real dialog ever opens.
pub trait SavePicker: Send + Sync {
    /// Called on a blocking thread; `None` when the user cancels or no dialog is available.
    fn pick_save_path(&self, suggested_name: &str) -> Option<PathBuf>;
}

/// The system's save dialog (xdg-desktop-portal, or zenity, through rfd).
#[derive(Debug, Default)]
pub struct SystemSavePicker;

impl SavePicker for SystemSavePicker {
    fn pick_save_path(&self, suggested_name: &str) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .set_title("Export loaded rows")
            .set_file_name(suggested_name)
            .save_file()
    }
}
