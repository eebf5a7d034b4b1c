//! The tally check from the app: rules, checks, reconcile, repair and shards.

use egui::Ui;

use crate::core::error::Error;
use crate::core::tally::{ChildSource, Rule};
use crate::core::tally_ops::{self, ParentSource};
use crate::core::value;
use crate::ui::query_form::{FormAction, QueryForm};
use crate::ui::reconcile_panel::{ReconcileAction, SourceChoice};
use crate::ui::tally_panel::{Repair, TallyAction, tally_panel_ui};
use crate::worker::{CancelToken, Command};

use super::{DynoscopeApp, View};

impl DynoscopeApp {
    pub(super) fn tally_action(&mut self, action: TallyAction) {
        let Some(info) = self.described.info.clone() else {
            return;
        };
        let partition = || info.partition.kind.parse(self.tally.partition.trim());
        match action {
            TallyAction::RulesChanged => {
                if let Some(key) = self.rules_key() {
                    self.remembered.rules.insert(key, self.tally.rules.clone());
                }
            }
            TallyAction::Check => match (self.tally.tally_rule().cloned(), partition()) {
                (Some(rule), Ok(partition)) => {
                    self.next_job += 1;
                    self.tally.check_job = Some(self.next_job);
                    self.tally.error = None;
                    self.worker.send(Command::CheckParent {
                        job: self.next_job,
                        info: Box::new(info),
                        rule,
                        partition,
                    });
                }
                (_, Err(error)) => self.tally.error = Some(error),
                (None, _) => {}
            },
            TallyAction::SumShards => match (self.tally.shard_rule().cloned(), partition()) {
                (Some(rule), Ok(partition)) => {
                    self.next_job += 1;
                    self.tally.shards_job = Some(self.next_job);
                    self.tally.error = None;
                    self.worker.send(Command::SumShards {
                        job: self.next_job,
                        info: Box::new(info),
                        rule,
                        partition,
                    });
                }
                (_, Err(error)) => self.tally.error = Some(error),
                (None, _) => {}
            },
            TallyAction::ShowChildren => self.show_children(),
            TallyAction::ProposeRepair => {
                let (Some(rule), Some((check, _))) = (self.tally.tally_rule(), &self.tally.check)
                else {
                    return;
                };
                match tally_ops::repair_plan(&info, rule, check) {
                    Ok(plan) => {
                        self.tally.repair = Some(Repair {
                            plan,
                            job: None,
                            result: None,
                        });
                    }
                    Err(error) => self.tally.error = Some(error),
                }
            }
            TallyAction::ConfirmRepair => {
                let Some(rule) = self.tally.tally_rule().cloned() else {
                    return;
                };
                if let Some(repair) = &mut self.tally.repair {
                    self.next_job += 1;
                    repair.job = Some(self.next_job);
                    self.worker.send(Command::Repair {
                        job: self.next_job,
                        info: Box::new(info),
                        rule,
                        plan: Box::new(repair.plan.clone()),
                    });
                }
            }
            TallyAction::Reconcile(action) => self.reconcile_action(action, info),
            TallyAction::OpenRepairInBuilder => {
                if let Some(repair) = self.tally.repair.clone() {
                    self.open_plan_in_builder(&repair.plan, "the guarded repair");
                }
            }
        }
    }

    pub(super) fn reconcile_action(
        &mut self,
        action: ReconcileAction,
        info: crate::core::table::TableInfo,
    ) {
        match action {
            ReconcileAction::Start => {
                let Some(rule) = self.tally.tally_rule().cloned() else {
                    return;
                };
                let state = &mut self.tally.reconcile;
                let concurrency = match state.concurrency.trim().parse::<usize>() {
                    Ok(n) if (1..=256).contains(&n) => n,
                    _ => {
                        state.error = Some(Error::Invalid(
                            "concurrency is a whole number from 1 to 256".into(),
                        ));
                        return;
                    }
                };
                let source = match state.source {
                    SourceChoice::Scan => ParentSource::Scan,
                    SourceChoice::Loaded => {
                        ParentSource::Loaded(std::sync::Arc::clone(&self.results.items))
                    }
                    SourceChoice::IndexQuery => {
                        let kind = info.keys_of(Some(&state.index)).map(|(p, _)| p.kind);
                        match kind.map(|k| k.parse(state.index_partition.trim())) {
                            Some(Ok(partition)) => ParentSource::IndexQuery {
                                index: state.index.clone(),
                                partition,
                            },
                            Some(Err(error)) => {
                                state.error = Some(error);
                                return;
                            }
                            None => {
                                state.error = Some(Error::Invalid(
                                    "choose the index to query for parents".into(),
                                ));
                                return;
                            }
                        }
                    }
                };
                self.next_job += 1;
                let cancel = CancelToken::default();
                state.job = Some(self.next_job);
                state.total = None;
                state.clear_results();
                state.started = Some(std::time::Instant::now());
                state.finished = None;
                state.cancel = Some(cancel.clone());
                state.cancelled = false;
                state.error = None;
                self.worker.send(Command::Reconcile {
                    job: self.next_job,
                    info: Box::new(info),
                    rule,
                    source,
                    concurrency,
                    cancel,
                });
            }
            ReconcileAction::Cancel => {
                if let Some(cancel) = &self.tally.reconcile.cancel {
                    cancel.cancel();
                }
            }
            ReconcileAction::Export { csv } => {
                let checks = &self.tally.reconcile.checks;
                let (contents, extension) = if csv {
                    (tally_ops::checks_csv(checks), "csv")
                } else {
                    (tally_ops::checks_json(checks), "json")
                };
                self.next_job += 1;
                self.tally_export_job = Some(self.next_job);
                self.tally.export_note = None;
                self.worker.send(Command::SaveText {
                    job: self.next_job,
                    contents,
                    records: checks.len(),
                    suggested_name: format!("{}-reconcile.{extension}", info.name),
                });
            }
            ReconcileAction::Open(partition) => {
                self.tally.partition = partition;
                self.tally_action(TallyAction::Check);
            }
        }
    }

    /// List the checked parent's children in the grid.
    pub(super) fn show_children(&mut self) {
        let (Some(rule), Some((check, parent))) =
            (self.tally.tally_rule().cloned(), self.tally.check.clone())
        else {
            return;
        };
        let mut form = QueryForm::default();
        match &rule.children {
            ChildSource::SortKeyPrefix(prefix) => {
                form.partition = check.partition.clone();
                form.sort_op = Some(crate::core::condition::SortOp::BeginsWith);
                form.sort_value.clone_from(prefix);
            }
            ChildSource::Index {
                index,
                id_attribute,
                sort_prefix,
            } => {
                let id_name = id_attribute
                    .clone()
                    .or_else(|| {
                        self.described
                            .info
                            .as_ref()
                            .map(|i| i.partition.name.clone())
                    })
                    .unwrap_or_default();
                form.index = Some(index.clone());
                form.partition = parent
                    .get(&id_name)
                    .map(value::cell_text)
                    .unwrap_or_default();
                if !sort_prefix.is_empty() {
                    form.sort_op = Some(crate::core::condition::SortOp::BeginsWith);
                    form.sort_value.clone_from(sort_prefix);
                }
            }
        }
        self.form = form;
        self.view = View::Browse;
        self.browse(FormAction::Run);
    }

    pub(super) fn suggested_rules(&mut self) -> Vec<Rule> {
        const SAMPLE: usize = 5_000;
        let key = (self.results.job, self.results.items.len());
        if (self.suggestions.0, self.suggestions.1) != key {
            let rules = match (&self.described.info, &self.results.request) {
                (Some(info), Some(request)) if request.index.is_none() => {
                    let sort = info
                        .sort
                        .as_ref()
                        .map(|s| s.name.clone())
                        .unwrap_or_default();
                    let sample = &self.results.items[..self.results.items.len().min(SAMPLE)];
                    crate::core::tally::suggest(sample, &info.partition.name, &sort)
                }
                _ => Vec::new(),
            };
            self.suggestions = (key.0, key.1, rules);
        }
        self.suggestions.2.clone()
    }

    pub(super) fn tally_ui(&mut self, ui: &mut Ui) {
        let Some(info) = self.described.info.clone() else {
            return self.browse_ui(ui);
        };
        let suggested = self.suggested_rules();
        let actions = egui::ScrollArea::vertical()
            .id_salt("tally_scroll")
            .show(ui, |ui| {
                tally_panel_ui(ui, &mut self.tally, &info, &suggested)
            })
            .inner;
        for action in actions {
            self.tally_action(action);
        }
    }
}
