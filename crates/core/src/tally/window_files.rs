//! Which files are one incremental export's. DynamoDB writes an incremental export's data files
//! into `AWSDynamoDB/data/`, a folder every export to that prefix shares, and lists this
//! export's own in `AWSDynamoDB/<ExportId>/manifest-files.json` (`dataFileS3Key`, one JSON
//! object a line): so an export's folder is read by its manifest, never by listing `data/`,
//! which would mix windows.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::files;
use crate::transfer::{MAX_MANIFEST_BYTES, export_files, manifest_keys};

/// One incremental export's data files, and its view when its summary says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WindowFiles {
    /// The data files, in the manifest's order (or sorted, without one).
    pub files: Vec<PathBuf>,
    /// `NEW_AND_OLD_IMAGES` or `NEW_IMAGE`, from `manifest-summary.json`, when it says.
    pub view: Option<String>,
}

/// A manifest or summary here: a regular file of at most 64 MiB (a FIFO or a device refused,
/// never waited on), as UTF-8 text.
fn read_small(path: &Path) -> Result<String> {
    let too_big = "is over 64 MiB: not an export's manifest";
    files::utf8(path, files::read_small(path, MAX_MANIFEST_BYTES, too_big)?)
}

/// The data files of the incremental export at `path`: one data file; an export's folder
/// (`AWSDynamoDB/<ExportId>/`, its files found by its manifest beside `AWSDynamoDB/data/`); or
/// a folder of data files with no manifest (every `.json` and `.json.gz` under it). A full
/// export, an export made with the new-images view, or a folder holding several exports'
/// manifests is refused.
pub fn window_files(path: &Path) -> Result<WindowFiles> {
    let manifest = path.join("manifest-files.json");
    if !manifest.is_file() {
        if has_manifests_below(path) {
            return Err(Error::Invalid(format!(
                "{} holds exports' folders: give one export's folder (AWSDynamoDB/<ExportId>/), \
                 whose manifest names its files",
                path.display()
            )));
        }
        let files = export_files(path)?.files;
        return Ok(WindowFiles { files, view: None });
    }
    let view = summary_view(path)?;
    let root = path.parent().unwrap_or(path);
    let mut files = Vec::new();
    let name = manifest.display().to_string();
    for key in manifest_keys(&read_small(&manifest)?, &name)? {
        let below = (key.rsplit_once("AWSDynamoDB/").map(|(_, rest)| rest))
            .filter(|rest| !rest.split('/').any(|part| part == ".." || part.is_empty()))
            .ok_or_else(|| Error::Invalid(format!("{name}: {key} is not under AWSDynamoDB/")))?;
        let file = root.join(below);
        if !file.is_file() {
            return Err(Error::Invalid(format!(
                "{name} names {below}, which is not at {}: download the export's data files \
                 (AWSDynamoDB/data/) beside its folder",
                file.display()
            )));
        }
        files.push(file);
    }
    Ok(WindowFiles { files, view })
}

/// Whether a folder below `path` (one level) holds an export's manifest.
fn has_manifests_below(path: &Path) -> bool {
    std::fs::read_dir(path).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.path().join("manifest-files.json").is_file())
    })
}

/// The export's view from `manifest-summary.json` beside its manifest, when it says; a full
/// export or one made with the new-images view is refused.
fn summary_view(path: &Path) -> Result<Option<String>> {
    let summary = path.join("manifest-summary.json");
    if !summary.is_file() {
        return Ok(None);
    }
    view_of_summary(&read_small(&summary)?, &summary.display().to_string())
}

/// The view a `manifest-summary.json` (`text`, at `name`) says, when it does; a full export's
/// summary or one of the new-images view is refused.
pub(crate) fn view_of_summary(text: &str, name: &str) -> Result<Option<String>> {
    let json: serde_json::Value =
        serde_json::from_str(text).map_err(|_| Error::Invalid(format!("{name} is not JSON")))?;
    let text = |key: &str| json.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    if text("exportType").is_some_and(|t| t != "INCREMENTAL_EXPORT") {
        return Err(Error::Invalid(format!(
            "{name} is a full export's: a window is read from an incremental export"
        )));
    }
    let view = text("outputView").or_else(|| text("exportViewType"));
    if view.as_deref().is_some_and(|v| v.starts_with("NEW_IMAGE")) {
        return Err(Error::Invalid(format!(
            "the export was made with the new-images view ({name}): a window is summed from an \
             export with old images too (NEW_AND_OLD_IMAGES)"
        )));
    }
    Ok(view)
}
