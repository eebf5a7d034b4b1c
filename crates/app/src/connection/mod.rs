//! The connections: the form that chooses where to connect (with its name, colour, timeout,
//! read-only and protected choices), the saved connections and profiles it offers, and the
//! attempt under way (with Cancel). A connection that answers is handed to the shell, which
//! opens it beside the others (or in place of the one it reconnects); a failed or cancelled
//! attempt leaves every open connection working.

mod asked;
mod bar;
mod fields;
mod strip;

use std::collections::BTreeSet;

use egui::Ui;

use dynoscope_core::connection::{
    self, ConnectOptions, Connection, ConnectionId, ConnectionSpec, Marks, Opened, Profiles,
    SavedConnection, SavedConnections,
};
use dynoscope_core::error::Error;
use dynoscope_core::task::{Pending, Spawner};

pub(crate) use asked::{Asked, Health};
pub(crate) use bar::ConnectionForm;
pub(crate) use fields::colour32;
pub(crate) use strip::{Chip, Strip};

/// A connection that has just answered, with the name and colour it was opened under.
pub(crate) struct Arrived {
    /// How it is named and shown.
    pub named: SavedConnection,
    /// The connection.
    pub connection: Connection,
    /// What to know about it: the in-memory sandbox kept on reconnecting.
    pub note: Option<String>,
}

/// The connection feature's state.
pub(crate) struct ConnectionFeature {
    form: ConnectionForm,
    profiles: Profiles,
    reading_profiles: Option<Pending<Profiles>>,
    /// The connections saved by name.
    saved: SavedConnections,
    /// The attempt under way.
    connecting: Option<Pending<Opened>>,
    /// How the connection of the attempt is to be named.
    naming: Option<SavedConnection>,
    error: Option<Error>,
    /// How the last attempt ended when it did not connect: failed or cancelled, and that the
    /// open connections are still the ones in use.
    attempt: Option<String>,
    /// The connections switched to read-only, remembered.
    read_only: BTreeSet<ConnectionId>,
    /// The connection the form showed last frame, to show its read-only switch when it changes.
    form_shows: ConnectionId,
}

impl ConnectionFeature {
    /// Read the profiles and connect to `spec` with `options` (the command line's timeout and
    /// read-only choice, which the form then shows), named as the saved connection of that
    /// place is; `read_only` names the connections switched to read-only in earlier runs.
    pub(crate) fn new(
        spawner: &Spawner,
        spec: &ConnectionSpec,
        mut options: ConnectOptions,
        read_only: BTreeSet<ConnectionId>,
        saved: SavedConnections,
    ) -> Self {
        let mut form = ConnectionForm::new(spec);
        let named = saved.0.iter().find(|c| &c.spec == spec).cloned();
        if let Some(named) = &named {
            form.show_saved(named);
            options.read_only |= named.read_only;
        } else {
            form.colour = saved.free_colour();
        }
        form.timeout = format!("{}", options.timeout.as_secs_f64());
        let memory = ConnectionSpec::Sandbox { db_path: None }.identity();
        options.read_only |= spec.identity() != memory && read_only.contains(&spec.identity());
        form.read_only = options.read_only;
        let mut feature = Self {
            // Reading the AWS config files is I/O: never on the UI thread.
            reading_profiles: Some(
                spawner.spawn_blocking("ListProfiles", || Ok(connection::read_profiles())),
            ),
            profiles: Profiles::default(),
            saved,
            connecting: None,
            naming: None,
            error: None,
            attempt: None,
            read_only,
            form_shows: spec.identity(),
            form,
        };
        let named = feature.form.saved().unwrap_or_else(|_| SavedConnection {
            name: SavedConnection::default_name(spec),
            spec: spec.clone(),
            colour: 0,
            read_only: options.read_only,
            protected: false,
        });
        feature.connect(spawner, spec.clone(), options, named, None);
        feature
    }

    /// The form shows `connection`, the tab picked: what was typed for another connection is
    /// not offered beside it.
    pub(crate) fn show(&mut self, connection: &Connection) {
        self.form = ConnectionForm::new(&connection.spec);
        self.form.read_only = connection.is_read_only();
        self.form.timeout = format!("{}", connection.timeout.as_secs_f64());
        self.form.name = connection.name().unwrap_or_default();
        self.form.protected = connection.is_protected();
        if let Some(saved) = self.saved.0.iter().find(|c| c.spec == connection.spec) {
            self.form.colour = saved.colour;
        }
        self.form_shows = connection.spec.identity();
    }

    /// The connections switched to read-only, to remember.
    pub(crate) fn read_only_connections(&self) -> BTreeSet<ConnectionId> {
        self.read_only.clone()
    }

    /// The connections saved by name, to remember.
    pub(crate) fn saved_connections(&self) -> SavedConnections {
        self.saved.clone()
    }

    /// Every mark on the connections, as the marks file keeps them.
    pub(crate) fn marks(&self) -> Marks {
        Marks {
            saved: self.saved.clone(),
            read_only: self.read_only.clone(),
        }
    }

    fn remember_read_only(&mut self, id: ConnectionId, on: bool) {
        // A fresh in-memory sandbox is new data every run: nothing to protect next time.
        if id == (ConnectionSpec::Sandbox { db_path: None }).identity() {
            return;
        }
        if on {
            self.read_only.insert(id);
        } else {
            self.read_only.remove(&id);
        }
    }

    /// Connect as asked; `current`: the open connection to that place, whose in-memory
    /// sandbox is kept.
    fn connect(
        &mut self,
        spawner: &Spawner,
        spec: ConnectionSpec,
        options: ConnectOptions,
        named: SavedConnection,
        current: Option<Connection>,
    ) {
        self.remember_read_only(spec.identity(), options.read_only);
        let mut named = named;
        // Saved by its place; a name another place has gets a number, and is the one shown.
        named.name = self.saved.save(named.clone());
        self.error = None;
        self.attempt = None;
        self.connecting = Some(spawner.spawn("Connect", connection::open(spec, options, current)));
        self.naming = Some(named);
    }

    /// Take in what arrived: a connection that has just answered, named.
    #[must_use]
    pub(crate) fn poll(&mut self, open: &[String]) -> Option<Arrived> {
        if let Some(read) = Pending::take_ready(&mut self.reading_profiles) {
            match read {
                Ok(profiles) => self.profiles = profiles,
                Err(error) => self.profiles.problems.push(error),
            }
        }
        let arrived = Pending::take_ready(&mut self.connecting)?;
        let named = self.naming.take()?;
        match arrived {
            Ok(opened) => {
                let note = opened.kept_sandbox.then(|| {
                    "Reconnected to the same in-memory sandbox: your changes are kept.".to_owned()
                });
                opened.connection.set_naming(&named.name, named.protected);
                Some(Arrived {
                    named,
                    connection: opened.connection,
                    note,
                })
            }
            Err(Error::Cancelled { .. }) => {
                self.attempt = Some(format!("Connection attempt cancelled; {}", still(open)));
                None
            }
            Err(error) => {
                self.error = Some(error);
                self.attempt = (!open.is_empty())
                    .then(|| format!("That attempt did not connect; {}", still(open)));
                None
            }
        }
    }

    /// Draw the connection bar over the open connections (`strip`, and `open`, the same in
    /// order): a Connect starts an attempt, Cancel stops it; a tab picked or closed is
    /// returned for the shell.
    #[must_use]
    pub(crate) fn bar_ui(
        &mut self,
        ui: &mut Ui,
        spawner: &Spawner,
        strip: &Strip<'_>,
        open: &[&Connection],
    ) -> Option<Asked> {
        let connecting = self.connecting.is_some();
        let was_read_only = self.form.read_only;
        let asked = bar::connection_bar_ui(
            ui,
            &mut self.form,
            &self.profiles,
            &self.saved,
            strip,
            connecting,
            self.error.as_ref(),
            self.attempt.as_deref(),
        );
        self.follow_read_only(was_read_only, open);
        match asked {
            Some(Asked::Connect(spec, options, named)) => {
                let identity = spec.identity();
                let current = open.iter().find(|c| c.spec.identity() == identity);
                let current = current.map(|c| (*c).clone());
                self.connect(spawner, spec, options, named, current);
                None
            }
            Some(Asked::Cancel) => {
                if let Some(attempt) = self.connecting.take() {
                    attempt.abort();
                    self.attempt = Some(format!(
                        "Connection attempt cancelled; {}",
                        still_open(open)
                    ));
                }
                None
            }
            other => other,
        }
    }

    /// The form's Read-only switch: it shows the remembered choice of the connection the form
    /// names; switched on an open connection, it applies at once (to writes already planned
    /// too) and is remembered.
    fn follow_read_only(&mut self, was: bool, open: &[&Connection]) {
        let shown = self.form.spec().identity();
        let active = open.iter().find(|c| c.spec.identity() == shown);
        if shown != self.form_shows {
            self.form.read_only =
                self.read_only.contains(&shown) || active.is_some_and(|c| c.is_read_only());
            self.form_shows = shown;
            self.name_for_place();
            return;
        }
        if self.form.read_only != was
            && let Some(active) = active
        {
            active.set_read_only(self.form.read_only);
            let on = self.form.read_only;
            self.remember_read_only(shown, on);
        }
    }
}

impl ConnectionFeature {
    /// The form names another place: its saved name, colour and protection when it was saved;
    /// otherwise a name or colour that belongs to another saved place is let go (a name typed
    /// for this new one is kept).
    fn name_for_place(&mut self) {
        let spec = self.form.spec();
        if let Some(saved) = self.saved.0.iter().find(|c| c.spec == spec) {
            self.form.name.clone_from(&saved.name);
            self.form.colour = saved.colour;
            self.form.protected = saved.protected;
            return;
        }
        let others = |c: &&SavedConnection| c.spec != spec;
        if self
            .saved
            .0
            .iter()
            .filter(others)
            .any(|c| c.name == self.form.name.trim())
        {
            self.form.name.clear();
            self.form.protected = false;
        }
        if self
            .saved
            .0
            .iter()
            .filter(others)
            .any(|c| c.colour == self.form.colour)
        {
            self.form.colour = self.saved.free_colour();
        }
    }
}

/// What stays open after an attempt that did not connect, by the labels of the open ones.
fn still(open: &[String]) -> String {
    if open.is_empty() {
        "not connected.".to_owned()
    } else {
        format!("still connected to {}.", open.join(", "))
    }
}

/// [`still`], of the open connections themselves.
fn still_open(open: &[&Connection]) -> String {
    still(&open.iter().map(|c| c.label()).collect::<Vec<_>>())
}
