//! Cloning the open table from its Table view: to another table on this connection, to an
//! endpoint (DynamoDB Local, `dynoscope sandbox`) or to an AWS profile and region. The core's
//! clone does it all — the schema, the items in a parallel scan with bounded memory, the check at
//! the end — and this shows its progress with Cancel, the destination's question when it asks
//! one, and the report.

use egui::Ui;

use crate::scope::Scope;
use crate::widgets::{Question, confirm_ui, error_ui};
use dynoscope_core::admin::AdminEvent;
use dynoscope_core::clone::{self, CloneEvent, ClonePlan, CloneReport, CloneSpec};
use dynoscope_core::connection::{self, ConnectOptions, Connection, ConnectionSpec};
use dynoscope_core::error::{Error, Result};
use dynoscope_core::limits;
use dynoscope_core::report::Report;
use dynoscope_core::task::Job;

/// Where the clone goes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum To {
    /// Another table on this connection.
    #[default]
    Here,
    /// A DynamoDB-compatible endpoint.
    Endpoint,
    /// An AWS profile (and region).
    Profile,
    /// Another connection open in the app, by its name.
    Open,
}

/// The form, the run and what it said.
#[derive(Default)]
pub(super) struct CloneForm {
    to: To,
    /// The open connection chosen, with [`To::Open`].
    open_name: String,
    url: String,
    profile: String,
    region: String,
    to_table: String,
    pk: String,
    segments: String,
    running: Option<Job<CloneEvent, CloneReport>>,
    /// The last thing the run said, and its latest progress line.
    said: Vec<String>,
    progress: Option<String>,
    /// The destination's question, asked before anything was written: the same run again,
    /// confirmed, answers it.
    question: Option<Question>,
    ended: Option<Vec<String>>,
    error: Option<Error>,
}

impl CloneForm {
    /// Another table: forget the form's last run (one under way goes on and reports).
    pub(super) fn forget(&mut self) {
        self.to_table.clear();
        self.question = None;
        self.ended = None;
        self.error = None;
    }

    /// Take in what arrived; whether a clone into this connection ended (the list changed).
    pub(super) fn poll(&mut self) -> bool {
        let polled = Job::poll_slot(&mut self.running);
        for event in polled.progress {
            match event {
                CloneEvent::Progress(progress) => self.progress = Some(progress.line()),
                CloneEvent::Note(note) | CloneEvent::Verifying(note) => self.said.push(note),
                CloneEvent::Admin(AdminEvent::Applied(what)) => {
                    self.said.push(format!("applied: {what}"));
                }
                CloneEvent::Admin(AdminEvent::State(state)) => {
                    self.said.push(format!("waiting: {state}"));
                }
            }
        }
        match polled.done {
            None => false,
            Some(Ok(report)) => {
                // The report says again what was said on the way.
                self.said.clear();
                self.ended = Some(report.lines().into_iter().map(|l| l.text).collect());
                self.to == To::Here
            }
            Some(Err(Error::NotConfirmed { question })) => {
                self.question = Some(Question {
                    text: question,
                    name: None,
                    typed: String::new(),
                    seen: false,
                });
                false
            }
            Some(Err(error)) => {
                self.error = Some(error);
                false
            }
        }
    }

    fn plan(&self, scope: &Scope<'_>) -> Result<ClonePlan> {
        let mut spec = CloneSpec::new(&scope.table.name, self.to == To::Here);
        spec.to_table = Some(self.to_table.clone());
        spec.pk = Some(self.pk.clone());
        if self.pk.trim().is_empty() {
            spec.segments = limits::segments_typed(&self.segments, clone::SEGMENTS)?;
            limits::check_segments(spec.segments, scope.table, false)?;
        }
        let (plan, _) = spec.plan()?;
        Ok(plan)
    }

    /// The destination when it is a connection open in the app (this one, or another open
    /// connection to the place the form names).
    fn open_destination<'s>(&self, scope: &'s Scope<'_>) -> Option<&'s Connection> {
        if self.to == To::Open {
            return (scope.others.iter())
                .find(|o| o.name == self.open_name)
                .map(|o| &o.connection);
        }
        match self.destination(scope.connection) {
            None => Some(scope.connection),
            Some(spec) => scope
                .others
                .iter()
                .map(|o| &o.connection)
                .find(|c| c.spec.identity() == spec.identity()),
        }
    }

    fn destination(&self, here: &Connection) -> Option<ConnectionSpec> {
        let region = (!self.region.trim().is_empty()).then(|| self.region.trim().to_owned());
        match self.to {
            // An open connection is found by its name ([`open_destination`]).
            To::Here | To::Open => None,
            To::Endpoint => Some(ConnectionSpec::Endpoint {
                url: self.url.trim().to_owned(),
                profile: None,
                region,
            }),
            To::Profile => Some(ConnectionSpec::Aws {
                profile: (!self.profile.trim().is_empty()).then(|| self.profile.trim().to_owned()),
                region: region.or_else(|| here.aws_region().map(str::to_owned)),
            }),
        }
    }

    fn start(&mut self, scope: &Scope<'_>, confirmed: bool) {
        self.error = None;
        self.ended = None;
        self.question = None;
        self.said.clear();
        self.progress = None;
        let plan = match self.plan(scope) {
            Ok(plan) => plan,
            Err(error) => {
                self.error = Some(error);
                return;
            }
        };
        let source = scope.connection.clone();
        let open = self.open_destination(scope).cloned();
        let to = match self.to {
            To::Open => {
                if let Some(open) = &open {
                    Some(open.spec.clone())
                } else {
                    self.error = Some(Error::Invalid(format!(
                        "the connection {} is not open any more: pick another",
                        self.open_name
                    )));
                    return;
                }
            }
            _ => self.destination(scope.connection),
        };
        // A destination open in the app is written through that connection: its read-only
        // switch and its protection hold.
        self.running = Some(
            scope
                .spawner
                .spawn_job("Clone", move |progress, stop| async move {
                    let target = match (to, open) {
                        (None, _) => source.clone(),
                        (Some(_), Some(open)) => open,
                        // As the CLI does: the app's timeout, and read-only stays read-only.
                        (Some(spec), None) => {
                            let options = ConnectOptions {
                                timeout: source.timeout,
                                read_only: source.is_read_only(),
                            };
                            connection::connect_with(spec, options).await?
                        }
                    };
                    let mut tell = |event| progress.send(event);
                    clone::run(&source, &target, &plan, confirmed, &stop, &mut tell).await
                }),
        );
    }

    /// Where the copy goes: this connection, an endpoint or a profile, and the table's name.
    fn destination_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        ui.horizontal(|ui| {
            ui.radio_value(&mut self.to, To::Here, "This connection");
            ui.radio_value(&mut self.to, To::Endpoint, "An endpoint");
            ui.radio_value(&mut self.to, To::Profile, "An AWS profile");
        });
        if !scope.others.is_empty() {
            // The connections already open, each written through as it is (its read-only
            // switch and protection hold).
            ui.horizontal_wrapped(|ui| {
                ui.weak("Open:");
                for other in scope.others {
                    let chosen = self.to == To::Open && self.open_name == other.name;
                    if ui
                        .radio(
                            chosen,
                            format!("{} · {}", other.name, other.connection.label()),
                        )
                        .clicked()
                    {
                        self.to = To::Open;
                        self.open_name.clone_from(&other.name);
                    }
                }
            });
        }
        ui.horizontal_wrapped(|ui| {
            let field = |ui: &mut Ui, label: &str, text: &mut String, hint: &str| {
                let label = ui.label(label);
                ui.add(
                    egui::TextEdit::singleline(text)
                        .hint_text(hint)
                        .desired_width(150.0),
                )
                .labelled_by(label.id);
            };
            match self.to {
                To::Here | To::Open => {}
                To::Endpoint => field(ui, "URL", &mut self.url, "http://127.0.0.1:8001"),
                To::Profile => field(ui, "Profile", &mut self.profile, "default"),
            }
            if matches!(self.to, To::Endpoint | To::Profile) {
                field(ui, "Region", &mut self.region, "us-east-1");
            }
            let copy = clone::default_to_table(&scope.table.name, self.to == To::Here);
            field(ui, "Into table", &mut self.to_table, &copy);
        });
    }

    /// Draw the section.
    pub(super) fn clone_ui(&mut self, ui: &mut Ui, scope: &Scope<'_>) {
        self.destination_ui(ui, scope);
        ui.horizontal(|ui| {
            let label = ui.label(format!(
                "Only the partition {} =",
                scope.table.partition.name
            ));
            ui.add(
                egui::TextEdit::singleline(&mut self.pk)
                    .hint_text("the whole table")
                    .desired_width(140.0),
            )
            .labelled_by(label.id);
            let label = ui.label("Segments");
            ui.add(
                egui::TextEdit::singleline(&mut self.segments)
                    .hint_text("4")
                    .desired_width(30.0),
            )
            .labelled_by(label.id);
        });
        let running = self.running.is_some();
        if ui
            .add_enabled(!running, egui::Button::new("Clone"))
            .clicked()
        {
            self.start(scope, false);
        }
        // The name to type is the destination's, when it is a protected connection.
        let protected = self
            .open_destination(scope)
            .and_then(|c| c.name().filter(|_| c.is_protected()));
        if let Some(question) = &mut self.question
            && question.name.is_none()
        {
            question.name = protected;
        }
        if let Some(question) = &mut self.question
            && let Some(yes) = confirm_ui(ui, question)
        {
            self.question = None;
            if yes {
                self.start(scope, true);
            }
        }
        for line in &self.said {
            ui.weak(line);
        }
        if let Some(job) = &self.running {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label(self.progress.as_deref().unwrap_or("Reading the source…"));
                if ui
                    .button("Cancel")
                    .on_hover_text("Send no other batch; wait for those in flight")
                    .clicked()
                {
                    job.cancel();
                }
            });
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(250));
        }
        for line in self.ended.iter().flatten() {
            ui.label(line);
        }
        if let Some(error) = &self.error {
            error_ui(ui, error);
        }
    }
}
