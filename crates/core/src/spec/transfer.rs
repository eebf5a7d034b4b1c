//! Items to and from files, as typed: an export of a table or a partition, an import of a file
//! or a folder.

use std::collections::HashMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::limits::AtOnce;
use crate::spec::InputError;
use crate::transfer::{CellType, Format, IfExists};

/// Write a table (a Scan) or one partition (a Query) to a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExportSpec {
    /// The table.
    pub table: String,
    /// Only this partition (a Query instead of a Scan).
    #[serde(default)]
    pub pk: Option<String>,
    /// `csv`, `jsonl`, `ddb-json` or `s3-export`.
    pub format: String,
    /// Gzip the file (as when `out` ends in `.gz`).
    #[serde(default)]
    pub gzip: bool,
    /// The file: written beside it first, given this name only when complete.
    pub out: PathBuf,
    /// Replace a file already there (otherwise it is refused).
    #[serde(default)]
    pub force: bool,
    /// Segments of the parallel scan of a whole table.
    pub segments: usize,
}

/// A checked export: its format, what to do with a file already there, how many segments at
/// once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportPlan {
    /// The file's format.
    pub format: Format,
    /// Gzipped: asked for, or the file's name ends in `.gz` (a name that says gzip is never
    /// given plain text).
    pub gzip: bool,
    /// Refuse or replace a file already there.
    pub if_exists: IfExists,
    /// Segments read at once.
    pub segments: AtOnce,
}

impl ExportSpec {
    /// The export, checked before the table is read.
    pub fn plan(&self) -> Result<ExportPlan, InputError> {
        Ok(ExportPlan {
            format: Format::parse(&self.format).map_err(|e| InputError::from_error("format", e))?,
            gzip: crate::transfer::gzipped(&self.out, self.gzip),
            if_exists: if self.force {
                IfExists::Replace
            } else {
                IfExists::Refuse
            },
            segments: AtOnce::new(self.segments, "segments")
                .map_err(|e| InputError::from_error("segments", e))?,
        })
    }
}

/// Put every item of a file (or of an S3 export's folder) into a table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportSpec {
    /// The table.
    pub table: String,
    /// The file, or a folder of an S3 export.
    pub path: PathBuf,
    /// `csv`, `jsonl`, `ddb-json` or `s3-export` (each plain or gzipped).
    pub format: String,
    /// How to read CSV columns: each `NAME=S`, `NAME=N` or `NAME=BOOL`.
    #[serde(default)]
    pub types: Vec<String>,
    /// Read and check everything, write nothing.
    #[serde(default)]
    pub dry_run: bool,
    /// Batches of 25 in flight at once.
    pub concurrency: usize,
}

/// A checked import: its format, the CSV columns' types, how many batches at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportPlan {
    /// The files' format.
    pub format: Format,
    /// The CSV columns' types given.
    pub types: HashMap<String, CellType>,
    /// Batches in flight at once.
    pub batches: AtOnce,
}

impl ImportSpec {
    /// The import, checked before any file is read.
    pub fn plan(&self) -> Result<ImportPlan, InputError> {
        let format =
            Format::parse(&self.format).map_err(|e| InputError::from_error("format", e))?;
        let mut types = HashMap::new();
        for pair in &self.types {
            let bad = |why: String| InputError::new("types", why);
            let (name, kind) = pair
                .split_once('=')
                .ok_or_else(|| bad(format!("type `{pair}` is not NAME=S|N|BOOL")))?;
            let kind = CellType::parse(kind).map_err(|e| InputError::from_error("types", e))?;
            if types.insert(name.to_owned(), kind).is_some() {
                return Err(bad(format!(
                    "the types give `{name}` twice; give each column's type once"
                )));
            }
        }
        if !types.is_empty() && format != Format::Csv {
            return Err(InputError::new(
                "types",
                "types are for CSV columns; the JSON formats carry their types",
            ));
        }
        Ok(ImportPlan {
            format,
            types,
            batches: AtOnce::new(self.concurrency, "batches")
                .map_err(|e| InputError::from_error("concurrency", e))?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn import(format: &str, types: &[&str]) -> ImportSpec {
        ImportSpec {
            table: "Social".into(),
            path: "likes.csv".into(),
            format: format.into(),
            types: types.iter().map(|t| (*t).to_owned()).collect(),
            dry_run: false,
            concurrency: 4,
        }
    }

    #[test]
    fn an_import_names_each_csv_column_type_once_and_only_for_csv() {
        let plan = import("csv", &["n=N", "flag=BOOL"])
            .plan()
            .expect("planned");
        assert_eq!(plan.types.len(), 2);
        assert_eq!(plan.batches.at_once, 4);
        for (spec, words) in [
            (import("csv", &["n"]), "is not NAME=S|N|BOOL"),
            (import("csv", &["n=N", "n=S"]), "twice"),
            (import("ddb-json", &["n=N"]), "are for CSV columns"),
            (import("xml", &[]), "xml"),
        ] {
            let error = spec.plan().expect_err("refused");
            assert!(error.reason.contains(words), "{error}");
        }
    }

    #[test]
    fn an_export_refuses_an_existing_file_unless_forced() {
        let mut spec = ExportSpec {
            table: "Social".into(),
            pk: None,
            format: "jsonl".into(),
            gzip: true,
            out: "out.jsonl.gz".into(),
            force: false,
            segments: 4,
        };
        assert_eq!(spec.plan().expect("planned").if_exists, IfExists::Refuse);
        spec.force = true;
        assert_eq!(spec.plan().expect("planned").if_exists, IfExists::Replace);
        spec.format = "yaml".into();
        assert_eq!(spec.plan().expect_err("no such format").field, "format");
    }

    #[test]
    fn an_export_to_a_gz_name_is_gzipped_whether_asked_or_not() {
        let spec = |out: &str, gzip: bool| ExportSpec {
            table: "Social".into(),
            pk: None,
            format: "ddb-json".into(),
            gzip,
            out: out.into(),
            force: false,
            segments: 4,
        };
        for (out, gzip, gzipped) in [
            ("likes.json.gz", false, true),
            ("C:\\exports\\LIKES.JSON.GZ", false, true),
            ("likes.json", true, true),
            ("likes.json", false, false),
            ("likes.gzip", false, false),
        ] {
            let plan = spec(out, gzip).plan().expect("planned");
            assert_eq!(plan.gzip, gzipped, "{out} with gzip {gzip}");
        }
    }
}
