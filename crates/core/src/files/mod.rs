//! A small file a user names — a price file, an item to size, a saved query — read only when it
//! is a regular file, and only up to a bound: a FIFO would block every reader forever (no signal
//! ends a blocked `open`), and a link to `/dev/zero` would be read until memory runs out. A
//! file written is written whole or not at all (`atomic.rs`): a new name, then a rename.

use std::fs::{File, FileType};
use std::io::Read as _;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result, file_error};

mod atomic;

pub use atomic::{IfExists, check_target, write_file};

/// The user's home folder as the AWS SDK and CLI find it: `HOME`, and on Windows, where `HOME`
/// is rarely set, `USERPROFILE`, then `HOMEDRIVE` + `HOMEPATH`.
pub fn home_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(home) = var("HOME") {
        return Some(PathBuf::from(home));
    }
    if !cfg!(windows) {
        return None;
    }
    var("USERPROFILE").map(PathBuf::from).or_else(|| {
        let (drive, path) = (var("HOMEDRIVE")?, var("HOMEPATH")?);
        Some(PathBuf::from(drive).join(path))
    })
}

/// How the home folder is written in words: `~` (`%USERPROFILE%` on Windows).
pub fn home_words() -> &'static str {
    if cfg!(windows) { "%USERPROFILE%" } else { "~" }
}

/// The file at `path`, whole, when it is a regular file of at most `max_bytes`; `None` when
/// nothing is there. `too_big` follows the path in the refusal of a larger file
/// (`is over 1 MiB; a price file is at most that`).
pub(crate) fn read_small_if_there(
    path: &Path,
    max_bytes: u64,
    too_big: &str,
) -> Result<Option<Vec<u8>>> {
    let file = match open_without_waiting(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(file_error(path, "reading", &e)),
    };
    // What the opened file is (fstat), not what the path named a moment before.
    let meta = file
        .metadata()
        .map_err(|e| file_error(path, "reading", &e))?;
    if !meta.is_file() {
        return Err(Error::Invalid(format!(
            "{} is {}, not a regular file: only a regular file is read",
            path.display(),
            kind_of(&meta.file_type())
        )));
    }
    // Read through the bound, not by the size said: the file may grow while it is read.
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| file_error(path, "reading", &e))?;
    if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > max_bytes {
        return Err(Error::Invalid(format!("{} {too_big}", path.display())));
    }
    Ok(Some(bytes))
}

/// The file at `path` as [`read_small_if_there`] reads it; nothing there is an error.
pub(crate) fn read_small(path: &Path, max_bytes: u64, too_big: &str) -> Result<Vec<u8>> {
    match read_small_if_there(path, max_bytes, too_big)? {
        Some(bytes) => Ok(bytes),
        None => Err(file_error(
            path,
            "reading",
            &std::io::Error::from(std::io::ErrorKind::NotFound),
        )),
    }
}

/// The bytes of the file at `path` as UTF-8 text.
pub fn utf8(path: &Path, bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes)
        .map_err(|_| Error::Invalid(format!("{} is not UTF-8 text", path.display())))
}

/// The file at `path` opened for reading without waiting: a FIFO opens at once (and is then
/// refused for what it is) instead of waiting for a writer; a terminal does not become this
/// process's controlling terminal.
fn open_without_waiting(path: &Path) -> std::io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    options.open(path)
}

/// What a file is, in words: `a FIFO`, `a socket`, `a device`, `a folder`.
pub fn kind_of(kind: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// A number no other call in this process gets (for the names of temporary files).
pub(crate) fn unique() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "dynoscope-small-file-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_regular_file_is_read_and_a_missing_one_is_none() {
        let dir = scratch("regular");
        let path = dir.join("a.json");
        std::fs::write(&path, "{}").unwrap();
        assert_eq!(read_small(&path, 2, "").unwrap(), b"{}");
        assert!(
            read_small_if_there(&dir.join("none"), 2, "")
                .unwrap()
                .is_none()
        );
        let error = read_small(&path, 1, "is over 1 byte")
            .unwrap_err()
            .to_string();
        assert!(error.ends_with("a.json is over 1 byte"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_a_device_and_a_folder_are_refused_without_waiting() {
        let dir = scratch("special");
        let fifo = dir.join("fifo.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let error = read_small(&fifo, 10, "").unwrap_err().to_string();
        assert!(error.contains("is a FIFO, not a regular file"), "{error}");
        let zero = dir.join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        let error = read_small(&zero, 10, "").unwrap_err().to_string();
        assert!(error.contains("is a device, not a regular file"), "{error}");
        let error = read_small(&dir, 10, "").unwrap_err().to_string();
        assert!(error.contains("is a folder"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
