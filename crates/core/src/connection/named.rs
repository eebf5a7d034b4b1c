//! Connections by name: the ones the user saved (where, a colour, read-only, protected; never a
//! secret), and the name and protection a live connection carries into every write it plans.

use std::sync::{Arc, Mutex, PoisonError};

use crate::connection::{Connection, ConnectionSpec};
use crate::error::{Error, Result};

/// The colours a connection can be shown in, by name and RGB; a saved connection keeps the
/// index of its own.
pub const COLOURS: [(&str, [u8; 3]); 8] = [
    ("Teal", [38, 166, 154]),
    ("Orange", [239, 131, 46]),
    ("Blue", [66, 133, 244]),
    ("Red", [219, 68, 55]),
    ("Purple", [156, 93, 204]),
    ("Green", [76, 175, 80]),
    ("Pink", [233, 30, 140]),
    ("Grey", [140, 140, 140]),
];

/// The longest name a connection may have.
const MAX_NAME: usize = 40;

/// A connection saved by name: where it goes and how it is shown. Holds no secrets.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedConnection {
    /// What the user calls it (`prod`, `staging`): unique among the saved ones.
    pub name: String,
    /// Where it connects.
    pub spec: ConnectionSpec,
    /// Its colour, an index into [`COLOURS`].
    pub colour: usize,
    /// Every write refused.
    pub read_only: bool,
    /// A write needs the connection's name typed.
    pub protected: bool,
}

impl SavedConnection {
    /// A name typed for a connection, trimmed: 1 to 40 characters, no control characters.
    pub fn check_name(name: &str) -> Result<String> {
        let name = name.trim();
        if name.is_empty() {
            return Err(Error::Invalid("a connection needs a name".into()));
        }
        if name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
            return Err(Error::Invalid(format!(
                "a connection's name is at most {MAX_NAME} characters, none of them a control \
                 character"
            )));
        }
        Ok(name.to_owned())
    }

    /// The name a connection gets unless one is typed: `sandbox`, the profile, the host.
    pub fn default_name(spec: &ConnectionSpec) -> String {
        match spec {
            ConnectionSpec::Sandbox { db_path: None } => "sandbox".to_owned(),
            ConnectionSpec::Sandbox {
                db_path: Some(path),
            } => path.file_stem().map_or_else(
                || "sandbox file".to_owned(),
                |s| format!("sandbox {}", s.to_string_lossy()),
            ),
            ConnectionSpec::Aws { profile, region } => match (profile, region) {
                (Some(p), Some(r)) => format!("{p} {r}"),
                (Some(p), None) => p.clone(),
                (None, Some(r)) => format!("aws {r}"),
                (None, None) => "aws".to_owned(),
            },
            ConnectionSpec::Endpoint { url, .. } => {
                let host = url.split("://").nth(1).unwrap_or(url);
                host.trim_end_matches('/').to_owned()
            }
        }
    }

    /// Its colour as RGB (the first colour for an index past the list).
    pub fn rgb(colour: usize) -> [u8; 3] {
        COLOURS.get(colour).map_or(COLOURS[0].1, |(_, rgb)| *rgb)
    }
}

/// The connections saved by name, in the order they were first saved.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedConnections(pub Vec<SavedConnection>);

impl SavedConnections {
    /// Save `connection`, replacing the one of its place; a name another place already has
    /// gets a number (`prod 2`), so no saved place is overwritten. Returns the name it is saved
    /// under.
    pub fn save(&mut self, mut connection: SavedConnection) -> String {
        connection.spec = connection.spec.without_userinfo();
        let taken = |name: &str, all: &[SavedConnection]| {
            all.iter()
                .any(|c| c.name == name && c.spec != connection.spec)
        };
        let base = connection.name.clone();
        let mut n = 2;
        while taken(&connection.name, &self.0) {
            connection.name = format!("{base} {n}");
            n += 1;
        }
        let name = connection.name.clone();
        match self.0.iter_mut().find(|c| c.spec == connection.spec) {
            Some(kept) => *kept = connection,
            None => self.0.push(connection),
        }
        name
    }

    /// Forget the one named `name`.
    pub fn remove(&mut self, name: &str) {
        self.0.retain(|c| c.name != name);
    }

    /// The one named `name`.
    pub fn named(&self, name: &str) -> Option<&SavedConnection> {
        self.0.iter().find(|c| c.name == name)
    }

    /// The first colour no saved connection has (the first one when all are taken).
    pub fn free_colour(&self) -> usize {
        (0..COLOURS.len())
            .find(|i| self.0.iter().all(|c| c.colour != *i))
            .unwrap_or(0)
    }
}

/// A live connection's name and protection, shared by its clones (a write already planned
/// asks as the connection is named when it is confirmed).
#[derive(Clone, Default)]
pub(crate) struct Naming(Arc<Mutex<Option<(String, bool)>>>);

impl Naming {
    fn get(&self) -> Option<(String, bool)> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn set(&self, naming: Option<(String, bool)>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = naming;
    }
}

impl Connection {
    /// Give this connection (and every clone of it) a `name`; `protected`: a write there needs
    /// the name typed.
    pub fn set_naming(&self, name: &str, protected: bool) {
        self.naming.set(Some((name.to_owned(), protected)));
    }

    /// The name the user gave this connection.
    pub fn name(&self) -> Option<String> {
        self.naming.get().map(|(name, _)| name)
    }

    /// Whether a write here needs the connection's name typed.
    pub fn is_protected(&self) -> bool {
        self.naming.get().is_some_and(|(_, protected)| protected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_defaulted() {
        assert_eq!(SavedConnection::check_name("  prod ").unwrap(), "prod");
        assert!(SavedConnection::check_name(" ").is_err());
        assert!(SavedConnection::check_name(&"x".repeat(41)).is_err());
        assert!(SavedConnection::check_name("a\nb").is_err());
        let endpoint = ConnectionSpec::Endpoint {
            url: "http://localhost:8000/".into(),
            profile: None,
            region: None,
        };
        assert_eq!(SavedConnection::default_name(&endpoint), "localhost:8000");
    }

    #[test]
    fn saving_replaces_by_name_and_colours_are_handed_out_free() {
        let spec = ConnectionSpec::Sandbox { db_path: None };
        let mut saved = SavedConnections::default();
        let one = |name: &str, colour| SavedConnection {
            name: name.into(),
            spec: spec.clone(),
            colour,
            read_only: false,
            protected: false,
        };
        saved.save(one("a", 0));
        assert_eq!(saved.free_colour(), 1);
        saved.save(one("b", 1));
        saved.save(SavedConnection {
            protected: true,
            ..one("a", 0)
        });
        assert_eq!(
            saved.0.len(),
            1,
            "one place: saved once, under its last name"
        );
        assert!(saved.named("a").unwrap().protected);
        let elsewhere = SavedConnection {
            spec: ConnectionSpec::Sandbox {
                db_path: Some("other.db".into()),
            },
            ..one("a", 1)
        };
        assert_eq!(
            saved.save(elsewhere),
            "a 2",
            "another place never overwrites it"
        );
        assert!(saved.named("a").unwrap().protected);
        saved.remove("a");
        saved.remove("a 2");
        assert_eq!(saved.free_colour(), 0);
    }
}
