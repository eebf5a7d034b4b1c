//! Where dynoscope keeps things on this machine, and where it reads the AWS configuration, in one
//! report (`dynoscope paths`): each place with what decided it (an environment variable or the
//! system's default) and whether it is there yet.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::connection::aws_files;
use crate::cost::prices::USER_FILE;
use crate::ending::Ending;
use crate::report::{Line, Listing, Report, Tone};
use crate::saved::{DIR_ENV, config_dir};

/// The folder dynoscope keeps its data in (the app's window state, the MCP audit log):
/// `$XDG_DATA_HOME/dynoscope`, else `~/.local/share/dynoscope`; on macOS `~/Library/Application
/// Support/dynoscope`; on Windows `%APPDATA%\dynoscope` — where eframe keeps the app's state.
pub fn data_dir() -> Option<PathBuf> {
    let home = crate::files::home_dir;
    let folder = if cfg!(target_os = "macos") {
        home()?.join("Library/Application Support")
    } else if cfg!(windows) {
        PathBuf::from(std::env::var_os("APPDATA")?)
    } else {
        std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
            .or_else(|| home().map(|h| h.join(".local/share")))?
    };
    Some(folder.join("dynoscope"))
}

/// Keep `folder` (the app's [`data_dir`]) its owner's alone, before the app writes into it: made
/// 0700 when missing, narrowed to 0700 when it is wider, and every file already in it narrowed to
/// 0600 — the app's state holds the saved connections (their places, profiles and names), and
/// eframe writes it with the umask's mode. Elsewhere than Unix the folder is the user's
/// profile's already.
///
/// # Errors
/// When the folder cannot be made or its mode set.
pub fn keep_to_owner(folder: &Path) -> std::io::Result<()> {
    let mut folders = std::fs::DirBuilder::new();
    folders.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt as _;
        folders.mode(0o700);
    }
    folders.create(folder)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let narrow = |path: &Path, mode: u32| -> std::io::Result<()> {
            // The link itself is never followed: only what is the user's own is changed.
            let meta = std::fs::symlink_metadata(path)?;
            if !meta.file_type().is_symlink() && meta.permissions().mode() & 0o077 != 0 {
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
            }
            Ok(())
        };
        narrow(folder, 0o700)?;
        for entry in std::fs::read_dir(folder)?.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_file()) {
                narrow(&entry.path(), 0o600)?;
            }
        }
    }
    Ok(())
}

/// The MCP server's audit log when `--audit` names none: `mcp-audit.jsonl` in [`data_dir`].
pub fn default_audit_log() -> Option<PathBuf> {
    data_dir().map(|d| d.join("mcp-audit.jsonl"))
}

/// Where eframe keeps the app's window state: `app.ron` in [`data_dir`] (on Windows in its
/// `data` folder).
fn app_state() -> Option<PathBuf> {
    let folder = data_dir()?;
    Some(if cfg!(windows) {
        folder.join("data").join("app.ron")
    } else {
        folder.join("app.ron")
    })
}

/// One place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// What is kept there, in words.
    pub what: &'static str,
    /// Where; `None` when nothing says (no `HOME`).
    pub path: Option<PathBuf>,
    /// What decided it: an environment variable, or the system's default.
    pub from: &'static str,
    /// Whether it is there now.
    pub exists: bool,
}

/// Every place, in the order a user looks for them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Places {
    /// The places.
    pub places: Vec<Place>,
}

fn set(name: &str) -> bool {
    std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

fn place(what: &'static str, path: Option<PathBuf>, from: &'static str) -> Place {
    let exists = path.as_deref().is_some_and(Path::exists);
    Place {
        what,
        path,
        from,
        exists,
    }
}

/// Where everything is now, as this process's environment says.
pub fn places() -> Places {
    let config = config_dir();
    let config_from = if set(DIR_ENV) {
        "$DYNOSCOPE_CONFIG_DIR"
    } else if set("XDG_CONFIG_HOME") && cfg!(all(unix, not(target_os = "macos"))) {
        "$XDG_CONFIG_HOME/dynoscope"
    } else {
        "the system's config folder"
    };
    let absolute = |name: &str| std::env::var_os(name).is_some_and(|v| Path::new(&v).is_absolute());
    let data_from = if absolute("XDG_DATA_HOME") && cfg!(all(unix, not(target_os = "macos"))) {
        "$XDG_DATA_HOME/dynoscope"
    } else {
        "the system's data folder"
    };
    let in_config = |name: &str| config.as_ref().map(|d| d.join(name));
    let [(aws_config, config_env), (credentials, credentials_env)] = aws_files();
    Places {
        places: vec![
            place("settings", config.clone(), config_from),
            place(
                "saved queries and history",
                in_config("queries"),
                config_from,
            ),
            place(
                "saved connections (read-only, protected)",
                in_config(crate::connection::MARKS_FILE),
                config_from,
            ),
            place(
                "your price table (over the built-in one)",
                in_config(USER_FILE),
                config_from,
            ),
            place("the app's window state", app_state(), data_from),
            place("the MCP audit log", default_audit_log(), data_from),
            place(
                "lines an import from S3 skipped",
                data_dir().map(|d| d.join("rejected")),
                data_from,
            ),
            place("AWS config (profiles, SSO)", aws_config, config_env),
            place("AWS credentials", credentials, credentials_env),
        ],
    }
}

impl Places {
    /// The places as their document.
    fn document(&self) -> PlacesDocument {
        PlacesDocument {
            places: (self.places.iter())
                .map(|p| PlaceDocument {
                    what: p.what.to_owned(),
                    path: p.path.as_ref().map(|p| p.display().to_string()),
                    from: p.from.to_owned(),
                    exists: p.exists,
                })
                .collect(),
        }
    }
}

crate::document_as!(Places => PlacesDocument, document);

/// Where dynoscope keeps things on this machine, and where it reads the AWS configuration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PlacesDocument {
    /// Every place, in the order a user looks for them.
    pub places: Vec<PlaceDocument>,
}

/// One place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct PlaceDocument {
    /// What is kept there, in words.
    pub what: String,
    /// Where; `null` when nothing says (no `HOME`).
    pub path: Option<String>,
    /// What decided it: an environment variable, or the system's default.
    pub from: String,
    /// Whether it is there now.
    pub exists: bool,
}

impl Report for Places {
    fn lines(&self) -> Vec<Line> {
        let width = self.places.iter().map(|p| p.what.len()).max().unwrap_or(0);
        (self.places.iter())
            .map(|p| {
                let path = p.path.as_ref().map_or_else(
                    || "(none: HOME is not set)".to_owned(),
                    |p| p.display().to_string(),
                );
                let there = match (&p.path, p.exists) {
                    (Some(_), false) => ", not there yet",
                    _ => "",
                };
                let tone = if p.exists { Tone::Plain } else { Tone::Quiet };
                Line::new(
                    tone,
                    format!("{:width$}  {path}  ({}{there})", p.what, p.from),
                )
            })
            .collect()
    }

    fn ending(&self) -> Ending {
        Ending::Done
    }

    fn listing(&self) -> Option<Listing> {
        let keys = ["what", "path", "exists", "from"];
        let document = crate::document::Document::to_json(self);
        Some(Listing::of(&document, "places", &keys, Vec::new()))
    }
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn the_data_folder_is_made_and_kept_the_owners() {
        let root = std::env::temp_dir().join(format!("dynoscope-places-{}", std::process::id()));
        let folder = root.join("share/dynoscope");
        keep_to_owner(&folder).unwrap();
        assert_eq!(mode(&folder), 0o700);
        // A folder and a state file left wider by an earlier version are narrowed.
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        let state = folder.join("app.ron");
        std::fs::write(&state, "()").unwrap();
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o644)).unwrap();
        keep_to_owner(&folder).unwrap();
        assert_eq!((mode(&folder), mode(&state)), (0o700, 0o600));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
