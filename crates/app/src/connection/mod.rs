//! The connection: the form that chooses where to connect (with its timeout and read-only
//! choice), the profiles it offers, the attempt under way (with Cancel), and the active
//! connection. A new connection replaces the active one only once it has answered; a failed or
//! cancelled attempt leaves the active one working.

mod bar;

use std::collections::BTreeSet;

use egui::Ui;

use dynoscope_core::connection::{
    self, ConnectOptions, Connection, ConnectionId, ConnectionSpec, Opened, Profiles,
};
use dynoscope_core::error::Error;
use dynoscope_core::task::{Pending, Spawner};

pub use bar::ConnectionForm;

/// The connection feature's state.
pub struct ConnectionFeature {
    form: ConnectionForm,
    profiles: Profiles,
    reading_profiles: Option<Pending<Profiles>>,
    active: Option<Connection>,
    connecting: Option<Pending<Opened>>,
    error: Option<Error>,
    /// What to know about the active connection (the sandbox kept on reconnecting).
    note: Option<String>,
    /// How the last attempt ended when it did not connect: failed or cancelled, and whether
    /// the active connection is still the one in use.
    attempt: Option<String>,
    /// The connections switched to read-only, remembered.
    read_only: BTreeSet<ConnectionId>,
    /// The connection the form showed last frame, to show its read-only switch when it changes.
    form_shows: ConnectionId,
}

impl ConnectionFeature {
    /// Read the profiles and connect to `spec` with `options` (the command line's timeout and
    /// read-only choice, which the form then shows); `read_only` names the connections
    /// switched to read-only in earlier runs.
    pub fn new(
        spawner: &Spawner,
        spec: &ConnectionSpec,
        mut options: ConnectOptions,
        read_only: BTreeSet<ConnectionId>,
    ) -> Self {
        let mut form = ConnectionForm::new(spec);
        form.timeout = format!("{}", options.timeout.as_secs_f64());
        let memory = ConnectionSpec::Sandbox { db_path: None }.identity();
        options.read_only |= spec.identity() != memory && read_only.contains(&spec.identity());
        form.read_only = options.read_only;
        let mut feature = Self {
            form,
            profiles: Profiles::default(),
            // Reading the AWS config files is I/O: never on the UI thread.
            reading_profiles: Some(
                spawner.spawn_blocking("ListProfiles", || Ok(connection::read_profiles())),
            ),
            active: None,
            connecting: None,
            error: None,
            note: None,
            attempt: None,
            read_only,
            form_shows: spec.identity(),
        };
        feature.connect(spawner, spec.clone(), options);
        feature
    }

    /// The connections switched to read-only, to remember.
    pub fn read_only_connections(&self) -> BTreeSet<ConnectionId> {
        self.read_only.clone()
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

    fn connect(&mut self, spawner: &Spawner, spec: ConnectionSpec, options: ConnectOptions) {
        self.remember_read_only(spec.identity(), options.read_only);
        self.error = None;
        self.attempt = None;
        let current = self.active.clone();
        self.connecting = Some(spawner.spawn("Connect", connection::open(spec, options, current)));
    }

    /// Take in what arrived; `true` when a new connection has just replaced the active one.
    #[must_use]
    pub fn poll(&mut self) -> bool {
        if let Some(read) = Pending::take_ready(&mut self.reading_profiles) {
            match read {
                Ok(profiles) => self.profiles = profiles,
                Err(error) => self.profiles.problems.push(error),
            }
        }
        match Pending::take_ready(&mut self.connecting) {
            Some(Ok(opened)) => {
                self.note = opened.kept_sandbox.then(|| {
                    "Reconnected to the same in-memory sandbox: your changes are kept.".to_owned()
                });
                self.active = Some(opened.connection);
                true
            }
            Some(Err(Error::Cancelled { .. })) => {
                self.attempt = Some(format!("Connection attempt cancelled; {}", self.still()));
                false
            }
            Some(Err(error)) => {
                self.error = Some(error);
                self.attempt = self
                    .active
                    .as_ref()
                    .map(|_| format!("That attempt did not connect; {}", self.still()));
                false
            }
            None => false,
        }
    }

    /// What the app is connected to after an attempt that did not connect.
    fn still(&self) -> String {
        match &self.active {
            Some(active) => format!("still connected to {}.", active.label()),
            None => "not connected.".to_owned(),
        }
    }

    /// The active connection.
    pub fn active(&self) -> Option<&Connection> {
        self.active.as_ref()
    }

    /// For a freshly seeded sandbox, what seeding did; for a sandbox kept on reconnecting,
    /// that its data is still there.
    pub fn seeded_note(&self) -> Option<String> {
        self.note
            .clone()
            .or_else(|| self.active.as_ref().and_then(Connection::seeded_note))
    }

    /// Draw the connection bar; a Connect starts an attempt, Cancel stops it. `trouble`: the
    /// last request on the active connection failed.
    pub fn bar_ui(&mut self, ui: &mut Ui, spawner: &Spawner, trouble: bool) {
        let connecting = self.connecting.is_some();
        let active = self.active.as_ref().map(|c| {
            let mut label = c.label();
            if c.is_read_only() {
                label.push_str(" · read-only");
            }
            label
        });
        // The dot is the active connection's: a failed attempt at another is the attempt's.
        let health = match (&active, trouble, self.error.is_some()) {
            (Some(_), true, _) | (None, _, true) => bar::Health::Failing,
            (Some(_), false, _) => bar::Health::Good,
            (None, _, false) => bar::Health::None,
        };
        let was_read_only = self.form.read_only;
        let asked = bar::connection_bar_ui(
            ui,
            &mut self.form,
            &self.profiles,
            active.as_deref(),
            health,
            connecting,
            (self.error.as_ref(), self.attempt.as_deref()),
        );
        self.follow_read_only(was_read_only);
        match asked {
            Some(bar::Asked::Connect(spec, options)) => self.connect(spawner, spec, options),
            Some(bar::Asked::Cancel) => {
                if let Some(attempt) = self.connecting.take() {
                    attempt.abort();
                    self.attempt = Some(format!("Connection attempt cancelled; {}", self.still()));
                }
            }
            None => {}
        }
    }

    /// The form's Read-only switch: it shows the remembered choice of the connection the form
    /// names; switched on the active connection, it applies at once (to writes already planned
    /// too) and is remembered.
    fn follow_read_only(&mut self, was: bool) {
        let shown = self.form.spec().identity();
        let active = self.active.as_ref().filter(|c| c.spec.identity() == shown);
        if shown != self.form_shows {
            self.form.read_only =
                self.read_only.contains(&shown) || active.is_some_and(Connection::is_read_only);
            self.form_shows = shown;
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
