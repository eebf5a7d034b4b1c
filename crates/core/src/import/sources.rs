//! Where an import's items come from: a file, the data files of a folder here, or the data
//! objects of an export in S3 (`s3://BUCKET/PREFIX/AWSDynamoDB/<ExportId>/`, its manifest read
//! to find them). Each is read twice — checked, then written — so each is kept with what it
//! was when it was checked, and an object is streamed both times, never copied to disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cancel::CancelToken;
use crate::connection::Connection;
use crate::error::{Error, Result};
use crate::places::data_dir;
use crate::transfer::{
    CellType, FileItems, Fingerprint, Format, S3Location, TextSource, export_files, object_sources,
    rejected_path,
};

/// One file or object of an import.
#[derive(Clone)]
pub struct DataSource(Arc<dyn TextSource>);

impl DataSource {
    /// Its name: a path, or `s3://bucket/key`.
    pub fn name(&self) -> String {
        self.0.name()
    }

    /// The same source read for a later run, given up on when `stop` (that run's) is cancelled:
    /// a source is found by one job (the check) and read again by another (the import), and the
    /// first's stop has ended with it.
    pub(crate) fn stopped_by(&self, stop: &CancelToken) -> Self {
        match self.0.stopped_by(stop) {
            Some(source) => Self(Arc::from(source)),
            None => self.clone(),
        }
    }

    /// What it is now (a file's size and time, an object's size and ETag).
    pub(crate) fn fingerprint(&self) -> Result<Fingerprint> {
        self.0.fingerprint()
    }

    /// Its items in `format` (`types` for CSV columns), from the start.
    pub(crate) fn items(
        &self,
        format: Format,
        types: &HashMap<String, CellType>,
    ) -> Result<FileItems> {
        FileItems::of_source(self.0.as_ref(), format, types)
    }

    /// Its items again in `format` (`types` for CSV columns), read only while it is as
    /// `checked` (an object in S3 is read with `If-Match` on the ETag it had when checked, so a
    /// replacement is refused by S3 itself).
    pub(crate) fn items_as_checked(
        &self,
        format: Format,
        types: &HashMap<String, CellType>,
        checked: &Fingerprint,
    ) -> Result<FileItems> {
        match self.0.pinned(checked) {
            Some(pinned) => FileItems::of_source(pinned.as_ref(), format, types),
            None => self.items(format, types),
        }
    }
}

impl std::fmt::Debug for DataSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DataSource({})", self.name())
    }
}

impl PartialEq for DataSource {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

/// What an import reads, found before the first item is.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportSources {
    /// The file, folder or `s3://` location given.
    pub path: PathBuf,
    /// Each file or object to read, in order.
    pub files: Vec<DataSource>,
    /// Entries of a folder here left out, each with why.
    pub skipped: Vec<String>,
    /// Where the lines an import skips are written: beside a file or folder here; for an
    /// export in S3, in dynoscope's data folder's `rejected/`, named after the export's folder
    /// (the same place whichever front end, or folder, the import is run from).
    pub rejected: PathBuf,
}

/// The files or objects an import of `path` reads: a file or folder here, or, for `s3://…`, the
/// export's data objects through `connection`'s S3 client. Call it on a blocking thread of the
/// runtime (the app's and the CLI's check does): S3's answers are waited for here. An object's
/// read is given up on when `stop` is cancelled.
pub fn import_sources(
    path: &Path,
    connection: &Connection,
    stop: &CancelToken,
) -> Result<ImportSources> {
    let text = path.to_string_lossy();
    let Some(at) = S3Location::parse(&text)? else {
        let data = export_files(path)?;
        return Ok(ImportSources {
            path: path.to_owned(),
            files: (data.files.into_iter())
                .map(|f| DataSource(Arc::new(f)))
                .collect(),
            skipped: data.skipped,
            rejected: rejected_path(path),
        });
    };
    let runtime = tokio::runtime::Handle::try_current().map_err(|e| Error::TaskDied {
        op: "finding the export's objects",
        detail: e.to_string(),
    })?;
    let objects = runtime.block_on(object_sources(&connection.s3(), &at, stop))?;
    Ok(ImportSources {
        path: path.to_owned(),
        files: (objects.into_iter())
            .map(|o| DataSource(Arc::from(o)))
            .collect(),
        skipped: Vec::new(),
        rejected: rejected_here(&at),
    })
}

/// Where the skipped lines of an import from S3 go: `rejected/<folder>.rejected` in dynoscope's
/// data folder (the export's folder, `AWSDynamoDB/01234…` → `01234….rejected`); without a data
/// folder (no `HOME`), the current folder.
fn rejected_here(at: &S3Location) -> PathBuf {
    let name = (at.prefix.rsplit('/'))
        .find(|part| !part.is_empty() && *part != "data")
        .unwrap_or(&at.bucket);
    let folder = (data_dir().map(|d| d.join("rejected")))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    folder.join(format!("{name}.rejected"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exports_skipped_lines_go_to_the_data_folder_named_after_its_folder() {
        let at = |text: &str| S3Location::parse(text).unwrap().unwrap();
        let here = data_dir().unwrap().join("rejected");
        assert_eq!(
            rejected_here(&at("s3://b-1/x/AWSDynamoDB/0170-abc/")),
            here.join("0170-abc.rejected")
        );
        assert_eq!(
            rejected_here(&at("s3://b-1/x/AWSDynamoDB/0170-abc/data/")),
            here.join("0170-abc.rejected")
        );
        assert_eq!(rejected_here(&at("s3://b-1")), here.join("b-1.rejected"));
    }
}
