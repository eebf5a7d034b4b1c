//! The expression builder from the app: compiling, running, and opening the app's own writes.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::core::counter::UpdatePlan;
use crate::core::expr::builder::{self, Field, Input, Kind};
use crate::core::likes::{LikeOp, LikeRequest};
use crate::core::value::Item;
use crate::ui::expr_panel::{ExprAction, ExprPanel, expr_panel_ui};
use crate::worker::Command;

use super::{DynoscopeApp, View};

impl DynoscopeApp {
    fn table_keys(&self) -> Vec<String> {
        self.described
            .info
            .as_ref()
            .map(|i| i.key_names())
            .unwrap_or_default()
    }

    /// The input as it compiles: for an update or delete the item is reduced to its key.
    fn builder_input(&self) -> Input {
        let mut input = self.expr.input.clone();
        if input.kind != Kind::Put
            && let Some(item) = &input.item
        {
            let keys = self.table_keys();
            input.item = Some(
                item.iter()
                    .filter(|(k, _)| keys.contains(k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            );
        }
        input
    }

    pub(super) fn expr_ui(&mut self, ui: &mut egui::Ui) {
        let keys = self.table_keys();
        let query_keys = self.described.info.as_ref().and_then(|info| {
            info.keys_of(self.expr.input.index.as_deref())
                .map(|(p, s)| builder::QueryKeys {
                    partition: p.name.clone(),
                    sort: s.map(|s| s.name.clone()),
                })
        });
        let compiled = builder::compile(&self.builder_input(), &keys, query_keys.as_ref());
        let has_selection = self.results.selected_item().is_some();
        let indexes: Vec<String> = self
            .described
            .info
            .as_ref()
            .map(|i| i.indexes.iter().map(|x| x.name.clone()).collect())
            .unwrap_or_default();
        let action = egui::ScrollArea::vertical()
            .id_salt("expr_scroll")
            .show(ui, |ui| {
                expr_panel_ui(
                    ui,
                    &mut self.expr,
                    &compiled,
                    has_selection,
                    &keys,
                    &indexes,
                )
            })
            .inner;
        match action {
            Some(ExprAction::UseSelectedItem) => {
                self.expr.input.item = self.results.selected_item().cloned();
            }
            Some(ExprAction::Run) => {
                if let Some(request) = compiled.request {
                    self.next_job += 1;
                    self.expr.job = Some(self.next_job);
                    self.expr.result = None;
                    self.worker.send(Command::RunRequest {
                        job: self.next_job,
                        request: Box::new(request),
                    });
                }
            }
            None => {}
        }
    }

    /// Open a write the app made in the builder.
    pub(super) fn open_in_builder(&mut self, input: Input, origin: &str) {
        let table = input.table.clone();
        self.expr = ExprPanel::new(&table);
        self.expr.input = input;
        self.expr.origin = Some(origin.to_owned());
        self.view = View::Expr;
    }

    pub(super) fn open_plan_in_builder(&mut self, plan: &UpdatePlan, origin: &str) {
        self.open_in_builder(Input::from_plan(plan), origin);
    }

    /// A like is a transaction of two writes; the builder takes its Update of the parent.
    pub(super) fn open_like_in_builder(&mut self, request: &LikeRequest) {
        let t = &request.target;
        let mut input = Input::new(&t.table);
        input.item = Some(t.parent_key());
        let (placeholder, delta) = match request.op {
            LikeOp::Like => (":one", "1"),
            LikeOp::Unlike => (":minusOne", "-1"),
        };
        input
            .texts
            .insert(Field::Update, format!("ADD #t {placeholder}"));
        input.names.push(("#t".into(), t.tally.clone()));
        input
            .values
            .push((placeholder.into(), "N".into(), delta.into()));
        self.open_in_builder(
            input,
            "the like transaction: its Update of the parent (the child's Put or Delete is the other half)",
        );
    }

    /// A run's returned item replaces its row in the grid.
    pub(super) fn refresh_row(&mut self, item: &Item) {
        let keys = self.table_keys();
        let key: Vec<(&String, &AttributeValue)> =
            item.iter().filter(|(k, _)| keys.contains(k)).collect();
        if key.len() != keys.len() {
            return;
        }
        if let Some(row) = std::sync::Arc::make_mut(&mut self.results.items)
            .iter_mut()
            .find(|row| key.iter().all(|(k, v)| row.get(*k) == Some(*v)))
        {
            *row = item.clone();
        }
    }
}
