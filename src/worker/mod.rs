//! The bridge between the UI thread and the tokio runtime that `main` owns.
//!
//! The UI sends [`Command`]s; each runs as a task on the runtime and answers with an [`Event`],
//! after which the repaint callback wakes the UI. The UI drains events at the start of each
//! frame and never blocks on I/O. A task that panics still answers, with an error.

mod protocol;
mod tasks;

use std::future::Future;
use std::sync::mpsc;
use std::sync::{Arc, RwLock};

use tokio::runtime::Handle;

use crate::core::connection::Connection;
use crate::core::counter::{EditReport, Outcome};
use crate::core::error::Error;
use crate::core::lab;
use crate::core::likes;
use crate::core::ops;
use crate::core::tally_ops;

pub use protocol::*;
use tasks::{browse, check_partition, connect_and_list, panic_text, write_export};

type Repaint = Arc<dyn Fn() + Send + Sync>;

#[derive(Clone)]
pub(crate) struct Current {
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
            Command::ListProfiles => {
                self.spawn("ListProfiles", |_| Event::Profiles(Vec::new()), async {
                    let profiles =
                        tokio::task::spawn_blocking(crate::core::connection::list_profiles)
                            .await
                            .unwrap_or_default();
                    vec![Event::Profiles(profiles)]
                });
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
            } => self.save(job, suggested_name, move |path| {
                write_export(path, &items, &key_names, format)
            }),
            Command::SaveText {
                job,
                contents,
                records,
                suggested_name,
            } => self.save(job, suggested_name, move |path| {
                std::fs::write(path, contents)
                    .map(|()| records)
                    .map_err(|e| Error::File {
                        action: "writing",
                        path: path.display().to_string(),
                        detail: e.to_string(),
                    })
            }),
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
            Command::Like { job, info, request } => {
                let failed = request.clone();
                let Some(current) = self.connected(|e| Event::Liked {
                    job,
                    report: Box::new(failed_like(*request.clone(), e)),
                }) else {
                    return;
                };
                self.spawn(
                    "TransactWriteItems",
                    move |error| Event::Liked {
                        job,
                        report: Box::new(failed_like(*failed, error)),
                    },
                    async move {
                        let report =
                            likes::like_and_observe(&current.connection.client, &info, *request)
                                .await;
                        vec![Event::Liked {
                            job,
                            report: Box::new(report),
                        }]
                    },
                );
            }
            Command::Storm {
                job,
                info,
                target,
                users,
                concurrency,
                cancel,
            } => {
                let done = move |error: Error| Event::StormDone {
                    job,
                    result: Err(error),
                };
                let Some(current) = self.connected(done) else {
                    return;
                };
                let events = self.events_tx.clone();
                let repaint = Arc::clone(&self.repaint);
                self.spawn("TransactWriteItems", done, async move {
                    let client = current.connection.client;
                    let run = async {
                        let before = likes::snapshot(&client, &info, &target).await?;
                        let run_id = format!("{job:x}{:x}", std::process::id());
                        let mut last_sent = std::time::Instant::now();
                        let stats = likes::storm(
                            &client,
                            &target,
                            users,
                            concurrency,
                            &run_id,
                            || cancel.is_cancelled(),
                            |s| {
                                // A few progress events a second are enough to draw.
                                if last_sent.elapsed().as_millis() >= 50 {
                                    last_sent = std::time::Instant::now();
                                    let _ = events.send(Event::StormProgress {
                                        job,
                                        stats: s.clone(),
                                    });
                                    repaint();
                                }
                            },
                        )
                        .await?;
                        let after = likes::snapshot(&client, &info, &target).await?;
                        Ok((stats, before, after))
                    };
                    vec![Event::StormDone {
                        job,
                        result: run.await,
                    }]
                });
            }
            Command::Lab {
                job,
                info,
                writers,
                increments,
            } => {
                let done = move |error: Error| Event::LabDone {
                    job,
                    result: Err(error),
                };
                let Some(current) = self.connected(done) else {
                    return;
                };
                self.spawn("UpdateItem", done, async move {
                    let run_id = format!("{job:x}{:x}", std::process::id());
                    let result = lab::run(
                        &current.connection.client,
                        &info,
                        writers,
                        increments,
                        &run_id,
                    )
                    .await;
                    vec![Event::LabDone { job, result }]
                });
            }
            Command::RunRequest { job, request } => {
                let done = move |error: Error| Event::Ran {
                    job,
                    result: Err(error),
                };
                let Some(current) = self.connected(done) else {
                    return;
                };
                self.spawn(request_op(&request), done, async move {
                    let result =
                        crate::core::expr::run::run(&current.connection.client, &request).await;
                    vec![Event::Ran { job, result }]
                });
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

    /// Ask where to save (on a blocking thread: the dialog blocks), then `write` there; answers
    /// [`Event::Exported`] with the path and what `write` counted, or `None` when cancelled.
    fn save(
        &self,
        job: JobId,
        suggested_name: String,
        write: impl FnOnce(&std::path::Path) -> crate::core::error::Result<usize> + Send + 'static,
    ) {
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
                    write(&path).map(|count| Some((path, count)))
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

fn failed_like(request: likes::LikeRequest, error: Error) -> likes::LikeReport {
    likes::LikeReport {
        request,
        before: Err(error.clone()),
        sent: likes::Sent {
            outcome: likes::LikeOutcome::Failed(error.clone()),
            attempts: 0,
            conflicts: 0,
        },
        after: Err(error),
    }
}

fn request_op(request: &crate::core::expr::codegen::Request) -> &'static str {
    use crate::core::expr::codegen::Operation;
    match request.operation {
        Operation::Update(_) => "UpdateItem",
        Operation::Delete(_) => "DeleteItem",
        Operation::Put(_) => "PutItem",
        Operation::Query(_) => "Query",
        Operation::Scan(_) => "Scan",
    }
}
