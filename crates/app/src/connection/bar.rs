//! The connection bar: what is connected now, and where to connect next.

use std::path::PathBuf;

use egui::{Color32, Ui};

use crate::connection::asked::{Asked, Health};
use crate::connection::fields::{colour32, naming_ui, profile_ui, region_ui};
use crate::connection::strip::{Chip, Strip, strip_ui};
use crate::widgets::{error_ui, labelled_text_ui};
use dynoscope_core::connection::{
    ConnectOptions, ConnectionSpec, DEFAULT_TIMEOUT, Profiles, SavedConnection, SavedConnections,
};
use dynoscope_core::error::Error;

/// Which kind of connection the form is set to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// The embedded sandbox.
    Sandbox,
    /// AWS via profiles / the default chain.
    Aws,
    /// A custom endpoint.
    Endpoint,
}

/// Where the form says to connect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ConnectionForm {
    /// The kind of connection chosen in the form.
    pub mode: Mode,
    /// The chosen profile (`None`: the default chain).
    pub profile: Option<String>,
    /// The chosen region (`None`: the profile's).
    pub region: Option<String>,
    /// The endpoint URL typed in.
    pub endpoint: String,
    /// The sandbox file typed in (empty: in memory).
    pub sandbox_db: String,
    /// The request timeout typed in, in seconds.
    pub timeout: String,
    /// Open the connection read-only.
    pub read_only: bool,
    /// The name typed (empty: the default name of where it connects).
    pub name: String,
    /// Its colour, an index into `COLOURS`.
    pub colour: usize,
    /// A write there needs its name typed.
    pub protected: bool,
}

impl ConnectionForm {
    /// A form showing `spec`.
    pub(crate) fn new(spec: &ConnectionSpec) -> Self {
        let mut bar = Self {
            mode: Mode::Sandbox,
            profile: None,
            region: None,
            endpoint: "http://localhost:8000".to_owned(),
            sandbox_db: String::new(),
            timeout: DEFAULT_TIMEOUT.as_secs().to_string(),
            read_only: false,
            name: String::new(),
            colour: 0,
            protected: false,
        };
        match spec {
            ConnectionSpec::Sandbox { db_path } => {
                bar.sandbox_db = db_path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
            }
            ConnectionSpec::Aws { profile, region } => {
                bar.mode = Mode::Aws;
                bar.profile.clone_from(profile);
                bar.region.clone_from(region);
            }
            ConnectionSpec::Endpoint {
                url,
                profile,
                region,
            } => {
                bar.mode = Mode::Endpoint;
                bar.endpoint.clone_from(url);
                bar.profile.clone_from(profile);
                bar.region.clone_from(region);
            }
        }
        bar
    }

    /// The timeout and read-only choice, or why the timeout is not one.
    pub(crate) fn options(&self) -> Result<ConnectOptions, Error> {
        Ok(ConnectOptions {
            timeout: ConnectOptions::parse_timeout(&self.timeout)?,
            read_only: self.read_only,
        })
    }

    /// The connection as it will be saved: its name (checked, or the default one), colour,
    /// read-only and protection.
    pub(crate) fn saved(&self) -> Result<SavedConnection, Error> {
        let spec = self.spec();
        let name = if self.name.trim().is_empty() {
            SavedConnection::default_name(&spec)
        } else {
            SavedConnection::check_name(&self.name)?
        };
        Ok(SavedConnection {
            name,
            spec,
            colour: self.colour,
            read_only: self.read_only,
            protected: self.protected,
        })
    }

    /// Show `saved` in the form.
    pub(crate) fn show_saved(&mut self, saved: &SavedConnection) {
        let timeout = std::mem::take(&mut self.timeout);
        *self = Self::new(&saved.spec);
        self.timeout = timeout;
        self.name.clone_from(&saved.name);
        self.colour = saved.colour;
        self.read_only = saved.read_only;
        self.protected = saved.protected;
    }

    /// The connection the form describes.
    pub(crate) fn spec(&self) -> ConnectionSpec {
        match self.mode {
            Mode::Sandbox => ConnectionSpec::Sandbox {
                db_path: (!self.sandbox_db.trim().is_empty())
                    .then(|| PathBuf::from(self.sandbox_db.trim())),
            },
            Mode::Aws => ConnectionSpec::Aws {
                profile: self.profile.clone(),
                region: self.region.clone(),
            },
            Mode::Endpoint => ConnectionSpec::Endpoint {
                url: self.endpoint.trim().to_owned(),
                profile: self.profile.clone(),
                region: self.region.clone(),
            },
        }
    }
}

/// Draw the bar: the open connections (`strip`: the active one with its label and health),
/// the form (with the `profiles` and the `saved` connections to pick from), and the `attempt`
/// under way (with Cancel) or the `error` the last one failed with. Returns what the user
/// asked.
#[must_use]
pub(super) fn connection_bar_ui(
    ui: &mut Ui,
    form: &mut ConnectionForm,
    profiles: &Profiles,
    saved: &SavedConnections,
    strip: &Strip<'_>,
    connecting: bool,
    error: Option<&Error>,
    attempt: Option<&str>,
) -> Option<Asked> {
    let mut asked = strip_ui(ui, strip);
    let active = strip.active.and_then(|at| strip.chips.get(at));
    let health = active.map_or(Health::None, |c| c.health);
    // An attempt that failed with no connection open: the dot says so.
    let health = if active.is_none() && error.is_some() {
        Health::Failing
    } else {
        health
    };
    if ui.ctx().content_rect().width() >= WIDE_WINDOW {
        // Room enough: the form in the bar, wrapping onto a second row when a mode needs it.
        ui.horizontal_wrapped(|ui| {
            active_ui(ui, active, health);
            ui.separator();
            asked = asked
                .take()
                .or(form_ui(ui, form, profiles, saved, connecting));
        });
    } else {
        // A narrow window: the form folds into one control instead of wrapping and clipping
        // its last fields.
        ui.horizontal(|ui| {
            active_ui(ui, active, health);
            ui.separator();
            let config = egui::containers::menu::MenuConfig::new()
                .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
            egui::containers::menu::MenuButton::new("Connection…")
                .config(config)
                .ui(ui, |ui| {
                    // A menu draws buttons without frames; Connect is a button here too.
                    crate::widgets::framed_buttons(ui);
                    ui.horizontal_wrapped(|ui| {
                        ui.set_max_width(560.0);
                        asked = asked
                            .take()
                            .or(form_ui(ui, form, profiles, saved, connecting));
                    });
                    if asked.is_some() {
                        ui.close();
                    }
                });
            if connecting {
                ui.spinner();
                if ui.button("Cancel").clicked() {
                    asked = Some(Asked::Cancel);
                }
            }
        });
    }
    if let Some(error) = error {
        error_ui(ui, error);
    }
    if let Some(attempt) = attempt {
        ui.weak(attempt);
    }
    for problem in &profiles.problems {
        error_ui(ui, problem);
    }
    asked
}

/// From this window width on the connection form sits in the bar; below it, in a menu.
const WIDE_WINDOW: f32 = 1100.0;

/// The form: mode, its fields, timeout, read-only, Connect; labels before their fields.
fn form_ui(
    ui: &mut Ui,
    form: &mut ConnectionForm,
    profiles: &Profiles,
    saved: &SavedConnections,
    connecting: bool,
) -> Option<Asked> {
    let mut asked = None;
    {
        ui.selectable_value(&mut form.mode, Mode::Sandbox, "Sandbox");
        ui.selectable_value(&mut form.mode, Mode::Aws, "AWS");
        ui.selectable_value(&mut form.mode, Mode::Endpoint, "Endpoint");
        match form.mode {
            Mode::Sandbox => {
                labelled_text_ui(ui, "File", &mut form.sandbox_db, 160.0, "in memory");
            }
            Mode::Aws => {
                profile_ui(ui, &mut form.profile, &profiles.names);
                region_ui(ui, &mut form.region, "(profile region)");
            }
            Mode::Endpoint => {
                labelled_text_ui(
                    ui,
                    "URL",
                    &mut form.endpoint,
                    150.0,
                    "http://localhost:8000",
                );
                profile_ui(ui, &mut form.profile, &profiles.names);
                region_ui(ui, &mut form.region, "us-east-1");
            }
        }
        labelled_text_ui(ui, "Timeout (s)", &mut form.timeout, 32.0, "10");
        let default_name = SavedConnection::default_name(&form.spec());
        let (name, colour, protected) = (&mut form.name, &mut form.colour, &mut form.protected);
        if let Some(picked) = naming_ui(ui, name, colour, protected, saved, &default_name) {
            form.show_saved(&picked);
        }
        ui.checkbox(&mut form.read_only, "Read-only").on_hover_text(
            "Refuse every write on this connection; switched on the connected one, it applies \
             at once, and it is remembered for this connection",
        );
        let options = form.options();
        let named = form.saved();
        let ready = options.is_ok() && named.is_ok();
        let button = ui.add_enabled(!connecting && ready, egui::Button::new("Connect"));
        if button.clicked()
            && let (Ok(options), Ok(named)) = (&options, &named)
        {
            asked = Some(Asked::Connect(form.spec(), *options, named.clone()));
        }
        if connecting {
            ui.spinner();
            ui.label("Connecting…");
            if ui.button("Cancel").clicked() {
                asked = Some(Asked::Cancel);
            }
        }
        if let Err(error) = options.as_ref().and(named.as_ref()) {
            error_ui(ui, error);
        }
    }
    asked
}

fn active_ui(ui: &mut Ui, active: Option<&Chip>, health: Health) {
    let (color, says) = match health {
        Health::Good => (Color32::from_rgb(80, 180, 90), "The last request answered"),
        Health::Failing => (Color32::from_rgb(210, 70, 60), "The last request failed"),
        Health::None => (Color32::GRAY, "Not connected"),
    };
    let dot = dot_ui(ui, color);
    // The dot's meaning for assistive technology (and tests), not only its colour.
    dot.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, says));
    dot.on_hover_text(says);
    match active {
        Some(chip) => {
            let mut label = chip.label.clone();
            if chip.read_only {
                label.push_str(" · read-only");
            }
            if chip.protected {
                label.push_str(" · protected");
            }
            // The name in its colour, then where: together at most an eighth of the window (a
            // long endpoint is shortened, whole on hover).
            let most = (ui.ctx().content_rect().width() / 8.0).max(150.0);
            ui.scope(|ui| {
                ui.set_max_width(most);
                let mut job = egui::text::LayoutJob::default();
                let font = egui::TextStyle::Body.resolve(ui.style());
                let strong = ui.visuals().strong_text_color();
                let format = |color| egui::TextFormat::simple(font.clone(), color);
                job.append(&chip.name, 0.0, format(colour32(chip.colour)));
                // A name that only repeats the place is not said twice.
                if label.to_lowercase().contains(&chip.name.to_lowercase()) {
                    job = egui::text::LayoutJob::default();
                    job.append(&label, 0.0, format(strong));
                } else {
                    job.append(&format!(" · {label}"), 0.0, format(strong));
                }
                ui.add(egui::Label::new(job).truncate())
                    .on_hover_text(format!("The active connection, {}: {label}", chip.name));
            });
        }
        None => {
            ui.label("Not connected");
        }
    }
}

fn dot_ui(ui: &mut Ui, color: Color32) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
    ui.painter().circle_filled(rect.center(), 4.5, color);
    response
}
