//! The expression builder: compose each expression with clause helpers and typed placeholders,
//! see errors as you type at their position, paste a request back in, copy the request as code,
//! and run it; requests the app made open here too.

mod fields;
mod program;

use egui::{RichText, Ui};

use crate::feature::{Context, Feature, Subject};
use crate::intent::Intent;
use crate::item_size::item_size_ui;
use crate::key_fields::KeyFields;
use crate::scope::Scope;
use crate::widgets::{self, error_ui, writes_to_ui};
use crate::write_flow::WriteFlow;
use dynoscope_core::error::Error;
use dynoscope_core::expr::builder::{self, Compiled, Input, Kind};
use dynoscope_core::expr::codegen::{Request, Target};
use dynoscope_core::expr::parser::QueryKeys;
use dynoscope_core::report::Line;
use dynoscope_core::run::{self, RunResult};
use dynoscope_core::task::Pending;
use dynoscope_core::value::key_shown;
use dynoscope_core::value::{self, Item};
use dynoscope_core::write::{WritePlan, WriteRequest};

/// The builder's state.
pub(crate) struct ExprFeature {
    input: Input,
    paste: String,
    paste_error: Option<Error>,
    target: Target,
    /// A read under way.
    reading: Option<Pending<RunResult>>,
    /// A write asked about (its plan, fixed when Run was pressed; the question is dropped as
    /// soon as the request in the builder changes), or under way.
    write: WriteFlow<WritePlan, Running>,
    result: Option<Result<RunResult, Error>>,
    /// Where the builder's content came from, when the app opened it.
    origin: Option<String>,
    /// An update shown as a whole program.
    program: bool,
    /// The item's key, typed or filled from the grid's cursor row.
    keys: KeyFields,
    /// Why the key typed is not one (shown beside the fields, so nothing below moves).
    key_error: Option<String>,
}

impl ExprFeature {
    /// An empty builder for `table`.
    pub(crate) fn new(table: &str) -> Self {
        Self {
            input: Input::new(table),
            paste: String::new(),
            paste_error: None,
            target: Target::Json,
            reading: None,
            write: WriteFlow::default(),
            result: None,
            origin: None,
            program: false,
            keys: KeyFields::default(),
            key_error: None,
        }
    }

    /// Start afresh on `table`, keeping a run under way so that its outcome is still shown.
    fn afresh(&mut self, table: &str) {
        let fresh = Self::new(table);
        let kept = std::mem::replace(self, fresh);
        self.reading = kept.reading;
        self.write = kept.write;
        self.write.drop_question();
    }

    /// Open a request the app made, saying where it came from.
    pub(crate) fn open(&mut self, input: Input, origin: String) {
        self.afresh(&input.table);
        self.input = input;
        self.origin = Some(origin);
        // The key fields are filled from the item when the table is known (next frame).
        self.keys = KeyFields::default();
    }

    /// Take in a run's result; an updated item goes back to its row.
    #[must_use]
    fn take_in(&mut self) -> Option<Intent> {
        if let Some(result) = Pending::take_ready(&mut self.reading) {
            self.result = Some(result);
            return None;
        }
        let result = Pending::take_ready(&mut self.write.sending().as_mut()?.answer)?;
        self.result = Some(result);
        // A write's items are read back into the rows shown.
        self.write.sending().take()?.written
    }

    fn compile(&self, scope: &Scope<'_>) -> Compiled {
        let keys = scope.key_names();
        let query_keys = scope
            .table
            .keys_of(self.input.index.as_deref())
            .map(|(p, s)| QueryKeys {
                partition: p.name.clone(),
                sort: s.map(|s| s.name.clone()),
            });
        builder::compile(&self.input.addressing(&keys), &keys, query_keys.as_ref())
    }

    /// Draw the builder; `selected` is the row selected in Browse.
    fn expr_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, selected: Option<&Item>) {
        let compiled = self.compile(scope);
        egui::ScrollArea::vertical()
            .id_salt("expr_scroll")
            .show(ui, |ui| self.builder_ui(ui, scope, &compiled, selected));
    }

    fn builder_ui(
        &mut self,
        ui: &mut Ui,
        scope: &Scope<'_>,
        compiled: &Compiled,
        selected: Option<&Item>,
    ) {
        ui.heading("Expression builder");
        if let Some(origin) = &self.origin {
            ui.weak(format!("Opened from {origin}"));
        }
        self.kind_ui(ui, scope, selected);
        if self.input.kind == Kind::Put
            && let Some(item) = &self.input.item
        {
            item_size_ui(ui, item);
        }
        for field in self.input.kind.fields() {
            fields::field_ui(ui, &mut self.input, *field, compiled);
        }
        fields::names_ui(ui, &mut self.input);
        fields::values_ui(ui, &mut self.input);
        for problem in &compiled.problems {
            ui.colored_label(ui.visuals().warn_fg_color, problem);
        }
        for note in &compiled.notes {
            ui.weak(note);
        }
        ui.separator();
        match &compiled.request {
            Some(request) => self.request_ui(ui, scope, request),
            None => {
                ui.weak("Fix the marked fields to see the request.");
            }
        }
        match &self.result {
            Some(Ok(result)) => {
                widgets::line_ui(ui, &Line::new(result.tone, result.summary.clone()));
                for item in result.items.iter().take(5) {
                    ui.label(
                        RichText::new(value::item_to_plain_json(item, &[], false)).monospace(),
                    );
                }
            }
            Some(Err(error)) => error_ui(ui, error),
            None => {}
        }
        ui.separator();
        fields::paste_ui(
            ui,
            &mut self.input,
            &mut self.paste,
            &mut self.paste_error,
            &mut self.origin,
        );
    }

    /// The request compiled: copied in the language chosen, shown, and run (a write through
    /// the gateway, with its question when it asks one).
    fn request_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, request: &Request) {
        let mut run_it = false;
        ui.horizontal_wrapped(|ui| {
            ui.strong("Copy as");
            for target in Target::ALL {
                if ui
                    .selectable_label(self.target == target, target.label())
                    .clicked()
                {
                    self.target = target;
                }
            }
            if ui.button("Copy request").clicked() {
                ui.ctx()
                    .copy_text(request.render(self.target, &scope.connection.client_setup()));
            }
            let busy = self.reading.is_some() || self.write.busy();
            run_it = if request.operation.is_write() {
                widgets::write_button_ui(ui, scope.connection, !busy, "Run")
            } else {
                ui.add_enabled(!busy, egui::Button::new("Run"))
            }
            .clicked();
            if self.reading.is_some() || self.write.is_sending() {
                ui.spinner();
            }
        });
        let setup = scope.connection.client_setup();
        // An update shown as a whole program, in place of the single request.
        if !program::program_ui(ui, request, self.target, &setup, &mut self.program) {
            let code = request.render(self.target, &setup);
            let label_id = ui.weak("Generated request").id;
            ui.add(
                egui::TextEdit::multiline(&mut code.as_str())
                    .code_editor()
                    .desired_width(f32::INFINITY),
            )
            .labelled_by(label_id);
        }
        if request.operation.is_write() {
            let key = request
                .operation
                .item()
                .map(|k| key_shown(k, &scope.key_names()))
                .unwrap_or_default();
            writes_to_ui(
                ui,
                &format!(
                    "table {} · {} · {}",
                    request.table,
                    if key.is_empty() {
                        "no item chosen"
                    } else {
                        &key
                    },
                    scope.connection.label()
                ),
                scope.connection,
            );
        }
        if run_it {
            self.run_or_ask(scope, request.clone());
        }
        // A question is about the request it was asked for: once the builder holds
        // another one, it is gone, never answered for the new one.
        if self.write.asking().is_some_and(|plan| {
            !matches!(&plan.request, WriteRequest::Single(asked) if *asked.request() == *request)
        }) {
            self.write.drop_question();
        }
        self.write
            .question_ui(ui, |plan, confirmed| send(scope, plan, confirmed));
    }

    /// Run `request`: a write is planned now, and waits for the user's yes when the gateway
    /// asks for one; a read runs at once.
    fn run_or_ask(&mut self, scope: &Scope<'_>, request: Request) {
        self.result = None;
        self.write.drop_question();
        if !request.operation.is_write() {
            let (connection, key_names) = (scope.connection.clone(), scope.key_names());
            self.reading = Some(scope.spawner.spawn(request.operation_name(), async move {
                run::run(&connection, &request, key_names, false).await
            }));
            return;
        }
        let plan = match run::plan_write(scope.connection, &request, scope.key_names()) {
            Ok(plan) => plan,
            Err(error) => {
                self.result = Some(Err(error));
                return;
            }
        };
        let confirmation = plan.confirmation();
        if let Err(error) = self.write.begin(plan, confirmation, |plan, confirmed| {
            send(scope, plan, confirmed)
        }) {
            self.result = Some(Err(error));
        }
    }

    /// The operation, and the item it addresses or the index it reads.
    fn kind_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>, selected: Option<&Item>) {
        ui.horizontal_wrapped(|ui| {
            for kind in Kind::ALL {
                ui.selectable_value(&mut self.input.kind, kind, kind.label());
            }
            ui.separator();
            if matches!(self.input.kind, Kind::Query | Kind::Scan) {
                let shown = self
                    .input
                    .index
                    .clone()
                    .unwrap_or_else(|| "(table)".to_owned());
                egui::ComboBox::from_label("On index")
                    .selected_text(shown)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut self.input.index, None, "(table)");
                        for index in &scope.table.indexes {
                            ui.selectable_value(
                                &mut self.input.index,
                                Some(index.name.clone()),
                                &index.name,
                            );
                        }
                    });
                return;
            }
            // Filled once from the item opened here, or else from the grid's cursor row.
            if self.keys == KeyFields::default() {
                if let Some(item) = &self.input.item {
                    self.keys.fill(scope.table, item);
                } else if let Some(row) = selected {
                    self.keys.fill(scope.table, row);
                    self.input.item = Some(row.clone());
                }
            }
            ui.label("Item key:");
            if self.keys.key_fields_ui(ui, scope.table) {
                self.take_key(scope);
            }
            if ui
                .add_enabled(selected.is_some(), egui::Button::new("From the cursor row"))
                .on_hover_text(
                    "The key (and, for a put, the whole item) of the row under the grid's cursor in Browse",
                )
                .clicked()
                && let Some(row) = selected
            {
                self.keys.fill(scope.table, row);
                self.input.item = Some(row.clone());
                self.key_error = None;
            }
            if let Some(why) = &self.key_error {
                ui.colored_label(ui.visuals().warn_fg_color, why);
            }
        });
    }

    /// The key typed becomes the item addressed (a put keeps the item's other attributes).
    fn take_key(&mut self, scope: &Scope<'_>) {
        match self.keys.key(scope.table) {
            Ok(key) => {
                let mut item = match (&self.input.item, self.input.kind) {
                    (Some(item), Kind::Put) => item.clone(),
                    _ => Item::new(),
                };
                item.extend(key);
                self.input.item = Some(item);
                self.key_error = None;
            }
            Err(error) => {
                self.input.item = None;
                self.key_error = Some(error.reason);
            }
        }
    }
}

/// A write the builder ran: its answer to come, and what it writes (said when it ends so its
/// rows are read again).
struct Running {
    answer: Option<Pending<RunResult>>,
    written: Option<Intent>,
}

/// Send the write `plan` through the gateway, as planned (`confirmed`: the user said yes).
fn send(scope: &Scope<'_>, plan: WritePlan, confirmed: bool) -> Running {
    let connection = scope.connection.clone();
    let targets = plan.target_keys();
    let written = targets.first().map(|(table, _)| Intent::Written {
        destination: Box::new(plan.destination.clone()),
        table: table.clone(),
        keys: targets.iter().map(|(_, key)| key.clone()).collect(),
    });
    Running {
        answer: Some(scope.spawner.spawn("Run", async move {
            Ok(run::write(&connection, &plan, confirmed).await)
        })),
        written,
    }
}

impl Feature for ExprFeature {
    fn poll(&mut self, intents: &mut Vec<Intent>) {
        intents.extend(self.take_in());
    }

    /// A fresh request on the table (none: an empty name); a read under way still answers.
    fn subject_changed(&mut self, subject: Subject<'_>) {
        self.afresh(subject.table.unwrap_or_default());
    }

    fn view_ui(&mut self, ui: &mut Ui, context: &Context<'_>, _intents: &mut Vec<Intent>) {
        self.expr_ui(ui, context.scope, context.selected);
    }
}
