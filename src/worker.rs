//! The bridge between the UI thread and the tokio runtime that `main` owns.
//!
//! The UI sends [`Command`]s; each runs as a task on the runtime and answers with an [`Event`],
//! after which the repaint callback wakes the UI. The UI drains events at the start of each
//! frame and never blocks on I/O. A task that panics still answers, with an error.

use std::future::Future;
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, RwLock};

use aws_sdk_dynamodb::types::AttributeValue;
use tokio::runtime::Handle;
use tokio::sync::watch;

use crate::core::connection::{self, Connection, ConnectionSpec};
use crate::core::counter::{EditReport, Outcome, UpdatePlan};
use crate::core::error::{Error, Result};
use crate::core::export::{self, ExportFormat};
use crate::core::ops::{self, BrowseRequest, Page};
use crate::core::table::TableInfo;
use crate::core::tally::{ShardRule, TallyRule};
use crate::core::tally_ops::{self, ParentCheck, ParentSource, ShardTotal};
use crate::core::value::Item;

/// Identifies one browse run, so events from an older run can be told apart.
pub type JobId = u64;

/// What the UI asks the worker to do.
#[derive(Debug)]
pub enum Command {
    /// Connect (replacing the current connection) and then list its tables.
    Connect(ConnectionSpec),
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

    async fn cancelled(&self) {
        let mut rx = self.tx.subscribe();
        let _ = rx.wait_for(|c| *c).await;
    }
}

type Repaint = Arc<dyn Fn() + Send + Sync>;

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

#[derive(Clone)]
struct Current {
    generation: u64,
    connection: Connection,
}

/// Runs commands on the runtime and collects their events for the UI.
pub struct Worker {
    runtime: Handle,
    events_tx: mpsc::Sender<Event>,
    events_rx: mpsc::Receiver<Event>,
    repaint: Repaint,
    current: Arc<RwLock<Option<Current>>>,
    generation: u64,
    picker: Arc<dyn SavePicker>,
}

impl Worker {
    /// A worker spawning onto `runtime`; `repaint` is called after every event.
    pub fn new(runtime: Handle, repaint: impl Fn() + Send + Sync + 'static) -> Self {
        let (events_tx, events_rx) = mpsc::channel();
        Self {
            runtime,
            events_tx,
            events_rx,
            repaint: Arc::new(repaint),
            current: Arc::new(RwLock::new(None)),
            generation: 0,
            picker: Arc::new(SystemSavePicker),
        }
    }

    /// Use `picker` to ask where exports go (tests use one that never opens a dialog).
    #[must_use]
    pub fn with_save_picker(mut self, picker: Arc<dyn SavePicker>) -> Self {
        self.picker = picker;
        self
    }

    /// Replace the repaint callback (the UI context is known only once the window exists).
    pub fn set_repaint(&mut self, repaint: impl Fn() + Send + Sync + 'static) {
        self.repaint = Arc::new(repaint);
    }

    /// Events that arrived since the last call.
    pub fn poll(&self) -> Vec<Event> {
        self.events_rx.try_iter().collect()
    }

    /// The generation of the newest connection attempt.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Run `command` in the background.
    pub fn send(&mut self, command: Command) {
        match command {
            Command::Connect(spec) => {
                self.generation += 1;
                let generation = self.generation;
                let current = Arc::clone(&self.current);
                self.spawn(
                    "Connect",
                    move |error| Event::Connected {
                        generation,
                        result: Err(error),
                    },
                    async move { connect_and_list(current, generation, spec).await },
                );
            }
            Command::ListTables => {
                let Some(current) = self.current_connection() else {
                    return;
                };
                let generation = current.generation;
                self.spawn(
                    "ListTables",
                    move |error| Event::Tables {
                        generation,
                        result: Err(error),
                    },
                    async move {
                        vec![Event::Tables {
                            generation,
                            result: ops::list_tables(&current.connection.client).await,
                        }]
                    },
                );
            }
            Command::Describe(table) => {
                let Some(current) = self.current_connection() else {
                    return;
                };
                let generation = current.generation;
                let failed_table = table.clone();
                self.spawn(
                    "DescribeTable",
                    move |error| Event::Described {
                        generation,
                        table: failed_table,
                        result: Err(error),
                    },
                    async move {
                        let result = ops::describe_table(&current.connection.client, &table).await;
                        vec![Event::Described {
                            generation,
                            table,
                            result,
                        }]
                    },
                );
            }
            Command::Export {
                job,
                items,
                key_names,
                format,
                suggested_name,
            } => {
                let picker = Arc::clone(&self.picker);
                self.spawn(
                    "Export",
                    move |error| Event::Exported {
                        job,
                        result: Err(error),
                    },
                    async move {
                        let written = tokio::task::spawn_blocking(move || {
                            let Some(path) = picker.pick_save_path(&suggested_name) else {
                                return Ok(None);
                            };
                            write_export(&path, &items, &key_names, format).map(|n| Some((path, n)))
                        })
                        .await;
                        let result = written.unwrap_or_else(|e| {
                            Err(Error::TaskDied {
                                op: "Export",
                                detail: e.to_string(),
                            })
                        });
                        vec![Event::Exported { job, result }]
                    },
                );
            }
            Command::SaveText {
                job,
                contents,
                records,
                suggested_name,
            } => {
                let picker = Arc::clone(&self.picker);
                self.spawn(
                    "Export",
                    move |error| Event::Exported {
                        job,
                        result: Err(error),
                    },
                    async move {
                        let written = tokio::task::spawn_blocking(move || {
                            let Some(path) = picker.pick_save_path(&suggested_name) else {
                                return Ok(None);
                            };
                            std::fs::write(&path, contents)
                                .map(|()| Some((path.clone(), records)))
                                .map_err(|e| Error::File {
                                    action: "writing",
                                    path: path.display().to_string(),
                                    detail: e.to_string(),
                                })
                        })
                        .await;
                        let result = written.unwrap_or_else(|e| {
                            Err(Error::TaskDied {
                                op: "Export",
                                detail: e.to_string(),
                            })
                        });
                        vec![Event::Exported { job, result }]
                    },
                );
            }
            Command::CheckParent {
                job,
                info,
                rule,
                partition,
            } => {
                let Some(current) = self.connected(move |e| Event::ParentChecked {
                    job,
                    result: Err(e),
                }) else {
                    return;
                };
                self.spawn(
                    "Query",
                    move |error| Event::ParentChecked {
                        job,
                        result: Err(error),
                    },
                    async move {
                        let result =
                            check_partition(&current.connection.client, &info, &rule, partition)
                                .await;
                        vec![Event::ParentChecked { job, result }]
                    },
                );
            }
            Command::SumShards {
                job,
                info,
                rule,
                partition,
            } => {
                let Some(current) = self.connected(move |e| Event::ShardsSummed {
                    job,
                    result: Err(e),
                }) else {
                    return;
                };
                self.spawn(
                    "Query",
                    move |error| Event::ShardsSummed {
                        job,
                        result: Err(error),
                    },
                    async move {
                        let result = tally_ops::sum_shards(
                            &current.connection.client,
                            &info,
                            partition,
                            &rule,
                        )
                        .await;
                        vec![Event::ShardsSummed { job, result }]
                    },
                );
            }
            Command::Reconcile {
                job,
                info,
                rule,
                source,
                concurrency,
                cancel,
            } => {
                let done = move |error: Error| Event::ReconcileDone {
                    job,
                    cancelled: false,
                    error: Some(error),
                };
                let Some(current) = self.connected(done) else {
                    return;
                };
                let events = self.events_tx.clone();
                let repaint = Arc::clone(&self.repaint);
                self.spawn("Reconcile", done, async move {
                    let client = current.connection.client;
                    let emit = |event| {
                        let _ = events.send(event);
                        repaint();
                    };
                    let parents =
                        match tally_ops::find_parents(&client, &info, &rule, &source).await {
                            Ok(parents) => parents,
                            Err(error) => return vec![done(error)],
                        };
                    emit(Event::ReconcileStarted {
                        job,
                        parents: parents.len(),
                    });
                    let cancelled = tally_ops::reconcile(
                        &client,
                        &info,
                        &rule,
                        parents,
                        concurrency,
                        || cancel.is_cancelled(),
                        |result| emit(Event::ReconcileChecked { job, result }),
                    )
                    .await;
                    vec![Event::ReconcileDone {
                        job,
                        cancelled,
                        error: None,
                    }]
                });
            }
            Command::Repair {
                job,
                info,
                rule,
                plan,
            } => {
                let Some(current) = self.connected(move |e| Event::Repaired {
                    job,
                    outcome: Outcome::Failed(e.clone()),
                    recheck: Err(e),
                }) else {
                    return;
                };
                self.spawn(
                    "UpdateItem",
                    move |error| Event::Repaired {
                        job,
                        outcome: Outcome::Failed(error.clone()),
                        recheck: Err(error),
                    },
                    async move {
                        let client = &current.connection.client;
                        let outcome = ops::update_counter(client, &plan).await;
                        // Whatever happened, look again rather than trust the request.
                        let partition = plan.key.get(&info.partition.name).cloned();
                        let recheck = match partition {
                            Some(p) => check_partition(client, &info, &rule, p).await,
                            None => Err(Error::Invalid("the repair had no partition key".into())),
                        };
                        vec![Event::Repaired {
                            job,
                            outcome,
                            recheck,
                        }]
                    },
                );
            }
            Command::EditCounter { job, plan } => {
                let failed_plan = plan.clone();
                let Some(current) = self.current_connection() else {
                    self.emit(Event::Edited {
                        job,
                        report: Box::new(EditReport {
                            plan: *plan,
                            outcome: Outcome::Failed(Error::Connect("not connected".into())),
                        }),
                    });
                    return;
                };
                self.spawn(
                    "UpdateItem",
                    move |error| Event::Edited {
                        job,
                        report: Box::new(EditReport {
                            plan: *failed_plan,
                            outcome: Outcome::Unknown {
                                error: error.clone(),
                                stored_now: Err(error),
                            },
                        }),
                    },
                    async move {
                        let outcome = ops::update_counter(&current.connection.client, &plan).await;
                        vec![Event::Edited {
                            job,
                            report: Box::new(EditReport {
                                plan: *plan,
                                outcome,
                            }),
                        }]
                    },
                );
            }
            Command::Browse {
                job,
                request,
                start_key,
                all,
            } => {
                let Some(current) = self.current_connection() else {
                    self.emit(Event::BrowseDone {
                        job,
                        cancelled: false,
                        error: Some(Error::Connect("not connected".into())),
                    });
                    return;
                };
                let events = self.events_tx.clone();
                let repaint = Arc::clone(&self.repaint);
                let op = request.op();
                self.spawn(
                    op,
                    move |error| Event::BrowseDone {
                        job,
                        cancelled: false,
                        error: Some(error),
                    },
                    async move {
                        let client = current.connection.client;
                        let emit = |event| {
                            let _ = events.send(event);
                            repaint();
                        };
                        vec![browse(&client, job, request, start_key, all, emit).await]
                    },
                );
            }
        }
    }

    /// The current connection, or `not_connected`'s event sent at once.
    fn connected(&self, not_connected: impl FnOnce(Error) -> Event) -> Option<Current> {
        let current = self.current_connection();
        if current.is_none() {
            self.emit(not_connected(Error::Connect("not connected".into())));
        }
        current
    }

    fn current_connection(&self) -> Option<Current> {
        self.current.read().ok().and_then(|c| c.clone())
    }

    fn emit(&self, event: Event) {
        let _ = self.events_tx.send(event);
        (self.repaint)();
    }

    /// Spawn `task`; send its events, or `on_panic`'s if it dies.
    fn spawn<F>(
        &self,
        op: &'static str,
        on_panic: impl FnOnce(Error) -> Event + Send + 'static,
        task: F,
    ) where
        F: Future<Output = Vec<Event>> + Send + 'static,
    {
        let events = self.events_tx.clone();
        let repaint = Arc::clone(&self.repaint);
        let runtime = self.runtime.clone();
        self.runtime.spawn(async move {
            let outcome = runtime.spawn(task).await;
            let produced = match outcome {
                Ok(produced) => produced,
                Err(join_error) => vec![on_panic(Error::TaskDied {
                    op,
                    detail: panic_text(join_error),
                })],
            };
            for event in produced {
                let _ = events.send(event);
            }
            repaint();
        });
    }
}

fn panic_text(err: tokio::task::JoinError) -> String {
    if !err.is_panic() {
        return err.to_string();
    }
    let payload = err.into_panic();
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_owned())
}

async fn connect_and_list(
    current: Arc<RwLock<Option<Current>>>,
    generation: u64,
    spec: ConnectionSpec,
) -> Vec<Event> {
    let connection = match connection::connect(spec).await {
        Ok(c) => c,
        Err(error) => {
            return vec![Event::Connected {
                generation,
                result: Err(error),
            }];
        }
    };
    #[cfg(feature = "sandbox")]
    let seeded = connection
        .sandbox
        .as_ref()
        .and_then(|s| s.seeded().map(|r| (r.items, r.elapsed_ms)));
    #[cfg(not(feature = "sandbox"))]
    let seeded = None;
    let info = ConnectedInfo {
        label: connection.label(),
        spec: connection.spec.clone(),
        seeded,
    };
    let client = connection.client.clone();
    if let Ok(mut slot) = current.write() {
        // A newer attempt that already finished wins over this one.
        if slot.as_ref().is_none_or(|c| c.generation < generation) {
            *slot = Some(Current {
                generation,
                connection,
            });
        }
    }
    let tables = ops::list_tables(&client).await;
    vec![
        Event::Connected {
            generation,
            result: Ok(info),
        },
        Event::Tables {
            generation,
            result: tables,
        },
    ]
}

async fn browse(
    client: &aws_sdk_dynamodb::Client,
    job: JobId,
    request: Box<BrowseRequest>,
    mut start_key: Option<Item>,
    all: Option<CancelToken>,
    emit: impl Fn(Event),
) -> Event {
    loop {
        let fetch = ops::fetch_page(client, &request, start_key.take());
        let page = match &all {
            Some(cancel) => {
                if cancel.is_cancelled() {
                    return done(job, true, None);
                }
                tokio::select! {
                    page = fetch => page,
                    () = cancel.cancelled() => return done(job, true, None),
                }
            }
            None => fetch.await,
        };
        let page = match page {
            Ok(page) => page,
            Err(error) => return done(job, false, Some(error)),
        };
        let next = page.last_key.clone();
        emit(Event::Page { job, page });
        match (next, &all) {
            (Some(next), Some(_)) => start_key = Some(next),
            _ => return done(job, false, None),
        }
    }
}

fn done(job: JobId, cancelled: bool, error: Option<Error>) -> Event {
    Event::BrowseDone {
        job,
        cancelled,
        error,
    }
}

fn write_export(
    path: &std::path::Path,
    items: &[Item],
    key_names: &[String],
    format: ExportFormat,
) -> Result<usize> {
    let file_error = |action: &'static str, e: std::io::Error| Error::File {
        action,
        path: path.display().to_string(),
        detail: e.to_string(),
    };
    let file = std::fs::File::create(path).map_err(|e| file_error("creating", e))?;
    let mut out = std::io::BufWriter::new(file);
    export::write_items(items, key_names, format, &mut out).map_err(|e| file_error("writing", e))
}

async fn check_partition(
    client: &aws_sdk_dynamodb::Client,
    info: &TableInfo,
    rule: &TallyRule,
    partition: AttributeValue,
) -> Result<(ParentCheck, Item)> {
    let shown = crate::core::value::cell_text(&partition);
    let parent = tally_ops::load_parent(client, info, rule, partition)
        .await?
        .ok_or_else(|| {
            Error::Invalid(format!(
                "there is no parent item {shown} / {} in {}",
                rule.parents.sort_key, info.name
            ))
        })?;
    let check = tally_ops::check_parent(client, info, rule, &parent).await?;
    Ok((check, parent))
}
