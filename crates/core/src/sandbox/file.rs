//! A sandbox's database: in memory, or in a file that one process at a time holds, its stream
//! indexed either way before anything is written.

use std::path::Path;

use crate::error::{Error, Result};
use crate::files;

/// The database, whether it is new, and a file's hold ([`hold`]). Either way its stream is
/// indexed ([`index_stream`]) before anything is written to it.
pub(super) fn open_db(
    db_path: Option<&Path>,
) -> Result<(dynoxide::Database, bool, Option<std::fs::File>)> {
    match db_path {
        None => {
            let db = dynoxide::Database::memory().map_err(|e| Error::Sandbox(e.to_string()))?;
            index_memory_stream(&db)?;
            Ok((db, true, None))
        }
        Some(path) => {
            let fresh = db_file_is_new(path)?;
            let text = path
                .to_str()
                .ok_or_else(|| Error::Sandbox(format!("{} is not a UTF-8 path", path.display())))?;
            let held = hold(path)?;
            let open = || {
                dynoxide::Database::new(text)
                    .map_err(|e| Error::Sandbox(format!("cannot open {}: {e}", path.display())))
            };
            // One connection at a time: the engine's schema made (a new file) and let go of,
            // then the index added by a connection of ours alone, then the engine's again.
            if fresh {
                drop(open()?);
            }
            index_stream(path)?;
            Ok((open()?, fresh, Some(held)))
        }
    }
}

/// The index the engine's stream lacks. The engine numbers each stream record one past the
/// largest so far (`MAX(CAST(sequence_number AS INTEGER))` over the table's records), and with
/// no index that reads the whole stream: every write into a table with a stream was slower than
/// the one before (a 3,000-user storm fell from about 2,900 to 200 WCU/s; a clone into a seeded
/// table ran at 290 items/s). On this expression SQLite answers that `MAX` from the index's end,
/// and a shard's records in order from it.
const STREAM_INDEX: &str = "CREATE INDEX IF NOT EXISTS dynoscope_stream_sequence \
    ON _stream_records (table_name, CAST(sequence_number AS INTEGER))";

/// Add [`STREAM_INDEX`] to the engine's database file at `path` (kept from then on), when its
/// stream table is there, through a connection of ours while no other is open.
fn index_stream(path: &Path) -> Result<()> {
    let failed = |e: rusqlite::Error| {
        Error::Sandbox(format!(
            "cannot index the stream of {}: {e}",
            path.display()
        ))
    };
    let conn = rusqlite::Connection::open(path).map_err(failed)?;
    let has_stream: bool = conn
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_stream_records')",
            [],
            |row| row.get(0),
        )
        .map_err(failed)?;
    if has_stream {
        conn.execute_batch(STREAM_INDEX).map_err(failed)?;
    }
    conn.close().map_err(|(_, e)| failed(e))
}

/// [`index_stream`] for an in-memory engine, before it holds anything: its empty schema copied
/// to a file of its own (`VACUUM INTO`), indexed there, and copied back (SQLite's backup, which
/// keeps the index); the file is removed.
pub(super) fn index_memory_stream(db: &dynoxide::Database) -> Result<()> {
    let path = std::env::temp_dir().join(format!(
        "dynoscope-sandbox-schema-{}-{}.db",
        std::process::id(),
        files::unique()
    ));
    let text = path.to_string_lossy().into_owned();
    let done = db
        .vacuum_into(&text)
        .map_err(|e| Error::Sandbox(format!("cannot copy the sandbox's schema: {e}")))
        .and_then(|()| index_stream(&path))
        .and_then(|()| {
            db.restore_from(&text)
                .map_err(|e| Error::Sandbox(format!("cannot index the sandbox's stream: {e}")))
        });
    for end in ["", "-wal", "-shm", "-journal"] {
        let _gone = std::fs::remove_file(format!("{text}{end}"));
    }
    done
}

/// The lock file beside a sandbox file: `sandbox.db` → `sandbox.db.lock`.
pub fn lock_path(db_path: &Path) -> std::path::PathBuf {
    let mut name = db_path.as_os_str().to_owned();
    name.push(".lock");
    name.into()
}

/// One process at a time writes a sandbox file: the engine opens it in SQLite's WAL mode, and
/// the SQLite bundled here (3.49.2, pinned by the engine) has the WAL-reset bug fixed in
/// 3.51.3, which can corrupt a database written by two connections at once. So a file sandbox
/// holds an exclusive lock on `<file>.lock` (the operating system's own: `flock` on Linux,
/// `LockFileEx` on Windows; let go of when the process ends, however it ends) and writes who
/// holds it there; a second process is refused with the holder's words and the way to share
/// the file: serve it from one process (`dynoscope --sandbox-db FILE sandbox`) and connect the
/// others to that endpoint. The lock file is left in place (removing it could race a process
/// opening it).
fn hold(db_path: &Path) -> Result<std::fs::File> {
    use std::io::{Read as _, Seek as _, Write as _};
    let path = lock_path(db_path);
    let failed = |e: std::io::Error| {
        Error::Sandbox(format!(
            "cannot lock {} (it keeps a second process off {}): {e}",
            path.display(),
            db_path.display()
        ))
    };
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(failed)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            // Windows keeps a locked file's bytes from everyone else: then no words are read.
            let _unread = (&mut file).take(1024).read_to_string(&mut holder);
            let holder = match holder.trim() {
                "" => "another process".to_owned(),
                words => crate::terminal::escape_controls(words).into_owned(),
            };
            return Err(Error::Sandbox(format!(
                "{} is in use by {holder}: one process at a time opens a sandbox file (two \
                 writing it at once could corrupt it). Stop that one, or share the file through \
                 one process: `dynoscope --sandbox-db {} sandbox --port 8000` serves it, and the \
                 others connect with `--endpoint-url http://127.0.0.1:8000`",
                db_path.display(),
                db_path.display()
            )));
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(failed(e)),
    }
    let since = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let words = format!(
        "dynoscope (process {}, since {})\n",
        std::process::id(),
        crate::value::epoch_text(&since.to_string()).unwrap_or_else(|| since.to_string())
    );
    file.set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| file.write_all(words.as_bytes()))
        .and_then(|()| file.flush())
        .map_err(failed)?;
    Ok(file)
}

/// The first bytes of every SQLite database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Whether nothing is at `path` yet (a new database, to be seeded), refusing what the engine
/// must not open: anything but a regular file (a device such as `/dev/null` would be opened,
/// and a `-journal` file left beside it), and a file that is not SQLite.
fn db_file_is_new(path: &Path) -> Result<bool> {
    let meta = match std::fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        Err(e) => {
            return Err(Error::Sandbox(format!(
                "cannot open {}: {e}",
                path.display()
            )));
        }
    };
    if !meta.is_file() {
        return Err(Error::Sandbox(format!(
            "{} is {}, not a regular file: a sandbox database is a file (name a new one to start \
             a sandbox there)",
            path.display(),
            files::kind_of(&meta.file_type())
        )));
    }
    let mut header = Vec::with_capacity(SQLITE_HEADER.len());
    let file = std::fs::File::open(path)
        .map_err(|e| Error::Sandbox(format!("cannot open {}: {e}", path.display())))?;
    std::io::Read::read_to_end(&mut std::io::Read::take(file, 16), &mut header)
        .map_err(|e| Error::Sandbox(format!("cannot read {}: {e}", path.display())))?;
    // An empty file is what SQLite takes as a database with nothing in it yet.
    if !header.is_empty() && header != SQLITE_HEADER {
        return Err(Error::Sandbox(format!(
            "{} is not a dynoscope sandbox database (not SQLite); name a new file, or one a \
             sandbox made",
            path.display()
        )));
    }
    Ok(false)
}
