//! Which files a path to read names: a regular file, or the data files under a folder (an S3
//! export's). Only regular files are read: a FIFO would block for ever and a device never ends,
//! so they are skipped with a note; a symbolic link to a folder is not followed (two links to
//! `.` would make the walk endless), one to a regular file is read.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::error::{Error, Result};
use crate::files::kind_of;
use crate::transfer::file_error;

/// The files to read at a path, in name order, and what was left out and why.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DataFiles {
    /// The files, each a regular file (or a link to one).
    pub files: Vec<PathBuf>,
    /// A sentence for each entry left out that looked like data: `skipped data/p.json: a FIFO,
    /// not a regular file`.
    pub skipped: Vec<String>,
}

/// The data files of an export at `path`: the file itself, or every `.json` and `.json.gz`
/// regular file under the folder (an S3 export's `data/` folder, or the export's whole
/// folder), manifests left out. A path that is neither a regular file nor a folder (`/dev/zero`,
/// a FIFO) is refused, and so is a folder without data files.
pub fn export_files(path: &Path) -> Result<DataFiles> {
    // A file is read twice (checked, then imported): standard input cannot be.
    if path.as_os_str() == "-" {
        return Err(Error::Invalid(
            "`-` is a file name here, not standard input (a file is read twice: checked, then written): give the file".into(),
        ));
    }
    let meta = std::fs::metadata(path).map_err(|e| file_error(path, "reading", &e))?;
    if meta.is_file() {
        return Ok(DataFiles {
            files: vec![path.to_owned()],
            skipped: Vec::new(),
        });
    }
    if !meta.is_dir() {
        return Err(not_a_file(path, &meta));
    }
    let mut found = DataFiles::default();
    let mut dirs = vec![path.to_owned()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| file_error(&dir, "reading", &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| file_error(&dir, "reading", &e))?;
            let p = entry.path();
            // The entry itself, not what a link points to.
            let own = entry
                .file_type()
                .map_err(|e| file_error(&p, "reading", &e))?;
            if own.is_dir() {
                dirs.push(p);
                continue;
            }
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            // The export's manifests describe it; they hold no items.
            #[expect(
                clippy::case_sensitive_file_extension_comparisons,
                reason = "DynamoDB names an export's files in lowercase; no other case is one of them"
            )]
            let data = (name.ends_with(".json.gz") || name.ends_with(".json"))
                && !name.starts_with("manifest-");
            if own.is_symlink() {
                match std::fs::metadata(&p) {
                    Ok(target) if target.is_dir() => found.skipped.push(format!(
                        "skipped {}: a link to a folder, not followed",
                        p.display()
                    )),
                    Ok(target) if target.is_file() && data => found.files.push(p),
                    Ok(target) if data => found.skipped.push(format!(
                        "skipped {}: a link to {}, not a regular file",
                        p.display(),
                        kind_of(&target.file_type())
                    )),
                    Err(e) if data => found.skipped.push(format!(
                        "skipped {}: a link that cannot be followed ({e})",
                        p.display()
                    )),
                    _ => {}
                }
            } else if data && own.is_file() {
                found.files.push(p);
            } else if data {
                found.skipped.push(format!(
                    "skipped {}: {}, not a regular file",
                    p.display(),
                    kind_of(&own)
                ));
            }
        }
    }
    found.files.sort();
    found.skipped.sort();
    if found.files.is_empty() {
        return Err(Error::Invalid(format!(
            "{} holds no .json or .json.gz files, so there is nothing to import or check (an S3 export keeps its items in data/)",
            path.display()
        )));
    }
    Ok(found)
}

/// The refusal of a path that is neither a regular file nor a folder.
pub(crate) fn not_a_file(path: &Path, meta: &std::fs::Metadata) -> Error {
    Error::Invalid(format!(
        "{} is {}, not a regular file or a folder: only files are read",
        path.display(),
        kind_of(&meta.file_type())
    ))
}

/// What a file (or an object in S3) was when it was read: its size, when it last changed, and
/// an object's ETag. One whose fingerprint moved between the check and the write was changed
/// meanwhile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    /// Its size in bytes.
    pub size_bytes: u64,
    /// When it last changed, when the system says.
    pub modified: Option<SystemTime>,
    /// An S3 object's ETag (a new one for every write of the object).
    pub etag: Option<String>,
}

impl Fingerprint {
    /// The file at `path` now.
    pub fn of(path: &Path) -> Result<Self> {
        let meta = std::fs::metadata(path).map_err(|e| file_error(path, "reading", &e))?;
        Ok(Self {
            size_bytes: meta.len(),
            modified: meta.modified().ok(),
            etag: None,
        })
    }
}
