//! The connection: the form that chooses where to connect, the profiles it offers, the attempt
//! under way, and the active connection. A new connection replaces the active one only once
//! it is made; a failed attempt leaves the active one working.

mod bar;

use egui::Ui;

use crate::core::connection::{self, Connection, ConnectionSpec, Profiles};
use crate::core::error::Error;
use crate::task::{Pending, Spawner};

pub use bar::ConnectionForm;

/// The connection feature's state.
pub struct ConnectionFeature {
    form: ConnectionForm,
    profiles: Profiles,
    reading_profiles: Option<Pending<Profiles>>,
    active: Option<Connection>,
    connecting: Option<Pending<Connection>>,
    error: Option<Error>,
}

impl ConnectionFeature {
    /// Read the profiles and connect to `spec`, both in the background.
    pub fn new(spawner: &Spawner, spec: &ConnectionSpec) -> Self {
        let mut feature = Self {
            form: ConnectionForm::new(spec),
            profiles: Profiles::default(),
            // Reading the AWS config files is I/O: never on the UI thread.
            reading_profiles: Some(
                spawner.spawn_blocking("ListProfiles", || Ok(connection::read_profiles())),
            ),
            active: None,
            connecting: None,
            error: None,
        };
        feature.connect(spawner, spec.clone());
        feature
    }

    fn connect(&mut self, spawner: &Spawner, spec: ConnectionSpec) {
        self.error = None;
        self.connecting = Some(spawner.spawn("Connect", connection::connect(spec)));
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
            Some(Ok(connection)) => {
                self.active = Some(connection);
                true
            }
            Some(Err(error)) => {
                self.error = Some(error);
                false
            }
            None => false,
        }
    }

    /// The active connection.
    pub fn active(&self) -> Option<&Connection> {
        self.active.as_ref()
    }

    /// For a freshly seeded sandbox, what seeding did.
    pub fn seeded_note(&self) -> Option<String> {
        self.active.as_ref().and_then(Connection::seeded_note)
    }

    /// Draw the connection bar; a Connect starts an attempt.
    pub fn bar_ui(&mut self, ui: &mut Ui, spawner: &Spawner) {
        let connecting = self.connecting.is_some();
        let active = self.active.as_ref().map(Connection::label);
        let asked = bar::connection_bar_ui(
            ui,
            &mut self.form,
            &self.profiles,
            active.as_deref(),
            connecting,
            self.error.as_ref(),
        );
        if let Some(spec) = asked {
            self.connect(spawner, spec);
        }
    }
}
