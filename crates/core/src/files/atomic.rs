//! Writing a file without destroying one: the text goes to a new temporary file beside the
//! target (created, never opened if it exists), which takes the target's name only once it is
//! complete. An existing target is left alone unless replacing was asked for; a symbolic link is
//! never written through (replacing it replaces the link, not the file it points to); a write
//! that fails leaves neither a partial file nor the temporary one.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, Result, file_error};
use crate::files::unique;

/// What to do when the file to write exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IfExists {
    /// Leave it as it is and write nothing (the default).
    #[default]
    Refuse,
    /// Put the new file in its place (a link is replaced itself, never what it points to).
    Replace,
}

/// Whether a file may be written at `path`: refused when something is there and `if_exists`
/// refuses, and always when what is there is a folder or not a regular file or link. Checked
/// before a long read, so that it is refused before the work; [`write_file`] checks again.
pub fn check_target(path: &Path, if_exists: IfExists) -> Result<()> {
    if path.as_os_str() == "-" {
        return Err(Error::Invalid(
            "`-` is a file name here, not standard output: give the file to write".into(),
        ));
    }
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(file_error(path, "writing", &e)),
    };
    let kind = meta.file_type();
    if !kind.is_file() && !kind.is_symlink() {
        return Err(Error::Invalid(format!(
            "{} exists and is not a regular file (a folder, a device, a FIFO?); nothing was written",
            path.display()
        )));
    }
    // A link to something other than a regular file (`/dev/stdout`, a device, a folder) is
    // never replaced: it is the system's, not an earlier export.
    if kind.is_symlink() && !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return Err(Error::Invalid(format!(
            "{} is a symbolic link to something that is not a regular file; nothing was written, and --force does not replace it",
            path.display()
        )));
    }
    match if_exists {
        IfExists::Replace => Ok(()),
        IfExists::Refuse if kind.is_symlink() => Err(Error::Invalid(format!(
            "{} is a symbolic link; nothing is written through one, so nothing was written \
             (--force replaces the link itself, not the file it points to)",
            path.display()
        ))),
        IfExists::Refuse => Err(Error::Invalid(format!(
            "{} exists; it was left as it is and nothing was written (--force replaces it)",
            path.display()
        ))),
    }
}

/// Write a file at `path` through `write`, which is given a buffered new temporary file beside
/// it; the temporary file takes `path`'s name when `write` has finished and the file is on
/// disk. Whatever fails, neither the temporary file nor a part of the target is left.
pub fn write_file<T>(
    path: &Path,
    if_exists: IfExists,
    write: impl FnOnce(&mut BufWriter<File>) -> std::io::Result<T>,
) -> Result<T> {
    check_target(path, if_exists)?;
    let temp = Temp::beside(path)?;
    let mut out = BufWriter::new(temp.file.try_clone().map_err(|e| temp.error(&e))?);
    let written = write(&mut out).map_err(|e| file_error(path, "writing", &e))?;
    out.flush().map_err(|e| file_error(path, "writing", &e))?;
    drop(out);
    temp.file
        .sync_all()
        .map_err(|e| file_error(path, "writing", &e))?;
    temp.publish(path, if_exists)?;
    Ok(written)
}

/// A new file beside the target, removed when dropped unless it took the target's name.
struct Temp {
    path: PathBuf,
    file: File,
    kept: bool,
}

impl Temp {
    fn beside(target: &Path) -> Result<Self> {
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
            _ => PathBuf::from("."),
        };
        let name = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| {
                Error::Invalid(format!("{} names no file to write", target.display()))
            })?;
        let mut tries = 0;
        loop {
            let path = dir.join(format!(
                ".{name}.{}-{}.dynoscope-part",
                std::process::id(),
                unique()
            ));
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
                    return Ok(Self {
                        path,
                        file,
                        kept: false,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < 100 => {
                    tries += 1;
                }
                Err(e) => return Err(file_error(target, "creating", &e)),
            }
        }
    }

    fn error(&self, e: &std::io::Error) -> Error {
        file_error(&self.path, "writing", e)
    }

    /// Give the complete file the target's name: replacing what is there, or only if nothing
    /// is (a hard link is made only when the name is free, so a file that appeared meanwhile is
    /// not replaced either).
    fn publish(mut self, target: &Path, if_exists: IfExists) -> Result<()> {
        match if_exists {
            IfExists::Replace => {
                std::fs::rename(&self.path, target)
                    .map_err(|e| file_error(target, "writing", &e))?;
                self.kept = true;
            }
            IfExists::Refuse => match std::fs::hard_link(&self.path, target) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    // Taken meanwhile: refused, and said so even if the name was freed again
                    // since (this file is not there, whatever check_target now finds).
                    check_target(target, IfExists::Refuse)?;
                    return Err(file_error(target, "writing", &e));
                }
                // A file system without hard links: the name was free a moment ago.
                Err(_) => {
                    check_target(target, IfExists::Refuse)?;
                    std::fs::rename(&self.path, target)
                        .map_err(|e| file_error(target, "writing", &e))?;
                    self.kept = true;
                }
            },
        }
        Ok(())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.kept {
            // A leftover would be in the target's folder; there is nothing more to do if the
            // removal fails.
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("dynoscope-atomic-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_is_written_whole_and_an_existing_one_only_when_asked() {
        let dir = scratch("write");
        let path = dir.join("out.jsonl");
        let n = write_file(&path, IfExists::Refuse, |w| {
            w.write_all(b"one\n").map(|()| 1)
        });
        assert_eq!(n.unwrap(), 1);
        let again = write_file(&path, IfExists::Refuse, |w| w.write_all(b"two\n"));
        let error = again.unwrap_err().to_string();
        assert!(error.contains("exists; it was left as it is"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\n");
        write_file(&path, IfExists::Replace, |w| w.write_all(b"two\n")).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two\n");
        assert_eq!(entries(&dir), ["out.jsonl"], "no temporary file left");
    }

    #[test]
    fn a_failed_write_leaves_nothing_and_the_old_file_as_it_was() {
        let dir = scratch("fail");
        let path = dir.join("out.jsonl");
        let failing = |w: &mut BufWriter<File>| -> std::io::Result<()> {
            w.write_all(&vec![b'x'; 100_000])?;
            Err(std::io::Error::other("the disk is full"))
        };
        let error = write_file(&path, IfExists::Refuse, failing).unwrap_err();
        assert!(error.to_string().contains("the disk is full"), "{error}");
        assert!(entries(&dir).is_empty(), "{:?}", entries(&dir));
        std::fs::write(&path, "kept\n").unwrap();
        write_file(&path, IfExists::Replace, failing).unwrap_err();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "kept\n");
        assert_eq!(entries(&dir), ["out.jsonl"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_never_written_through() {
        let dir = scratch("link");
        let target = dir.join("precious.txt");
        std::fs::write(&target, "precious\n").unwrap();
        let link = dir.join("out.jsonl");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let error = write_file(&link, IfExists::Refuse, |w| w.write_all(b"x\n"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("is a symbolic link"), "{error}");
        write_file(&link, IfExists::Replace, |w| w.write_all(b"new\n")).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
        assert!(
            !std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "new\n");
        // A folder (or a device) is never replaced.
        let error = write_file(&dir, IfExists::Replace, |w| w.write_all(b"x"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("not a regular file"), "{error}");
    }
}
