//! The like lab from the app: building like/unlike transactions, confirmations outside the
//! sandbox, storms and the counter lab.

use crate::core::connection::ConnectionSpec;
use crate::core::error::Error;
use crate::core::likes::{self, LikeRequest, LikeTarget};
use crate::core::table::TableInfo;
use crate::ui::likes_panel::{LikesAction, WriteTarget, likes_panel_ui};
use crate::worker::{CancelToken, Command};

use super::DynoscopeApp;

impl DynoscopeApp {
    /// Whether the active connection is the embedded sandbox (writes need no confirmation).
    pub(super) fn is_sandbox(&self) -> bool {
        matches!(
            self.bar.active.as_ref().map(|a| &a.spec),
            Some(ConnectionSpec::Sandbox { .. })
        )
    }

    /// Fill the lab's target from the tally rule in use and the open partition.
    pub(super) fn prefill_likes(&mut self) {
        if self.likes.parent.is_empty() {
            self.likes.parent = if self.tally.partition.is_empty() {
                self.form.partition.clone()
            } else {
                self.tally.partition.clone()
            };
        }
        if let Some(rule) = self.tally.tally_rule()
            && let crate::core::tally::ChildSource::SortKeyPrefix(prefix) = &rule.children
        {
            self.likes.parent_sk.clone_from(&rule.parents.sort_key);
            self.likes.tally.clone_from(&rule.tally);
            self.likes.child_prefix.clone_from(prefix);
        }
    }

    fn like_target(&self, info: &TableInfo) -> Result<LikeTarget, Error> {
        let sort = info.sort.as_ref().ok_or_else(|| {
            Error::Invalid(format!("{} has no sort key: likes need one", info.name))
        })?;
        let need = |value: &str, what: &str| {
            if value.trim().is_empty() {
                Err(Error::Invalid(format!("type the {what}")))
            } else {
                Ok(value.trim().to_owned())
            }
        };
        Ok(LikeTarget {
            table: info.name.clone(),
            pk_name: info.partition.name.clone(),
            sk_name: sort.name.clone(),
            parent: need(&self.likes.parent, "parent")?,
            parent_sk: need(&self.likes.parent_sk, "parent's sort key")?,
            tally: need(&self.likes.tally, "tally attribute")?,
            child_prefix: self.likes.child_prefix.trim().to_owned(),
        })
    }

    pub(super) fn likes_action(&mut self, action: LikesAction) {
        let Some(info) = self.described.info.clone() else {
            return;
        };
        match action {
            LikesAction::Send(op) => {
                let token = self
                    .likes
                    .use_token
                    .then(|| self.likes.token.trim().to_owned());
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs())
                    .unwrap_or_default();
                let request = self.like_target(&info).and_then(|target| {
                    likes::like_request(op, &target, &self.likes.user, token, now)
                });
                match request {
                    Ok(request) => self.dispatch_like(request, false),
                    Err(error) => self.likes.error = Some(error),
                }
            }
            LikesAction::SendAgain => {
                if let Some(request) = self.likes.last_request.clone() {
                    self.dispatch_like(request, true);
                }
            }
            LikesAction::Confirm => {
                if let Some((request, replay)) = self.likes.confirm.take() {
                    self.send_like(info, request, replay);
                }
            }
            LikesAction::DropConfirm => self.likes.confirm = None,
            LikesAction::OpenInBuilder => {
                if let Some(report) = self.likes.report.clone() {
                    self.open_like_in_builder(&report.request);
                }
            }
            LikesAction::StartStorm => {
                let users = parse_in(&self.likes.users, 1, likes::MAX_STORM_USERS, "users");
                let concurrency = parse_in(&self.likes.concurrency, 1, 256, "concurrency");
                match (self.like_target(&info), users, concurrency) {
                    (Ok(target), Ok(users), Ok(concurrency)) => {
                        self.next_job += 1;
                        let cancel = CancelToken::default();
                        self.likes.storm_job = Some(self.next_job);
                        self.likes.storm_cancel = Some(cancel.clone());
                        self.likes.storm_stats = None;
                        self.likes.storm_result = None;
                        self.likes.error = None;
                        self.worker.send(Command::Storm {
                            job: self.next_job,
                            info: Box::new(info),
                            target: Box::new(target),
                            users,
                            concurrency,
                            cancel,
                        });
                    }
                    (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => self.likes.error = Some(e),
                }
            }
            LikesAction::CancelStorm => {
                if let Some(cancel) = &self.likes.storm_cancel {
                    cancel.cancel();
                }
            }
            LikesAction::RunLab => {
                let writers = parse_in(&self.likes.writers, 1, 64, "writers");
                let increments = parse_in(&self.likes.increments, 1, 1000, "increments");
                match (writers, increments) {
                    (Ok(writers), Ok(increments)) => {
                        self.next_job += 1;
                        self.likes.lab_job = Some(self.next_job);
                        self.likes.lab_result = None;
                        self.worker.send(Command::Lab {
                            job: self.next_job,
                            info: Box::new(info),
                            writers,
                            increments,
                        });
                    }
                    (Err(e), _) | (_, Err(e)) => self.likes.error = Some(e),
                }
            }
        }
    }

    /// Send now on the sandbox; elsewhere, ask first.
    fn dispatch_like(&mut self, request: LikeRequest, replay: bool) {
        self.likes.error = None;
        if self.is_sandbox() {
            if let Some(info) = self.described.info.clone() {
                self.send_like(info, request, replay);
            }
        } else {
            self.likes.confirm = Some((request, replay));
        }
    }

    fn send_like(&mut self, info: TableInfo, request: LikeRequest, replay: bool) {
        self.next_job += 1;
        self.likes.job = Some(self.next_job);
        self.likes.replayed = replay;
        self.likes.last_request = Some(request.clone());
        self.worker.send(Command::Like {
            job: self.next_job,
            info: Box::new(info),
            request: Box::new(request),
        });
    }

    pub(super) fn likes_ui(&mut self, ui: &mut egui::Ui) {
        let Some(info) = self.described.info.clone() else {
            return;
        };
        let endpoint = self
            .bar
            .active
            .as_ref()
            .map(|a| a.label.clone())
            .unwrap_or_default();
        let at = WriteTarget {
            table: &info.name,
            endpoint: &endpoint,
            sandbox: self.is_sandbox(),
        };
        let action = egui::ScrollArea::vertical()
            .id_salt("likes_scroll")
            .show(ui, |ui| likes_panel_ui(ui, &mut self.likes, &at))
            .inner;
        if let Some(action) = action {
            self.likes_action(action);
        }
    }
}

fn parse_in(text: &str, low: usize, high: usize, what: &str) -> Result<usize, Error> {
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| Error::Invalid(format!("{what}: a whole number from {low} to {high}")))
}
