//! The lines of a text read one at a time, each at most [`MAX_LINE_BYTES`]: a file of any size
//! is read in a buffer of one line, and a line without an end (`/dev/zero`, a gzip of one
//! enormous line) is an error at 16 MiB, never a buffer that grows until memory runs out.
//! Every byte is looked at once, so a long line costs what its length does.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::transfer::file_error;

/// The longest line (or CSV record) read: 16 MiB. DynamoDB's largest item is 400 KB, so a line
/// 40 times that is no item of a DynamoDB table.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// The UTF-8 byte-order mark some editors put at the start of a text.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// One line after another from `input`.
pub(crate) struct Lines<R> {
    input: R,
    /// The file, for I/O errors.
    path: PathBuf,
    /// `reading` or `gunzipping`, for I/O errors.
    action: &'static str,
    /// The line being read, then returned.
    buf: Vec<u8>,
    /// The number of the line last returned (from 1).
    line: usize,
    /// Bytes of the input looked at so far: each once.
    examined_bytes: u64,
    /// The longest line allowed.
    max_bytes: usize,
}

impl<R: BufRead> Lines<R> {
    /// The lines of `input`, read from the file at `path` (`action` names how, in errors).
    pub(crate) fn new(input: R, path: &Path, action: &'static str) -> Self {
        Self {
            input,
            path: path.to_owned(),
            action,
            buf: Vec::new(),
            line: 0,
            examined_bytes: 0,
            max_bytes: MAX_LINE_BYTES,
        }
    }

    /// The same with another longest line (tests use a small one).
    #[cfg(test)]
    pub(crate) fn with_max(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// The number of the line last returned (from 1; 0 before the first).
    pub(crate) fn line(&self) -> usize {
        self.line
    }

    /// Bytes of the input looked at so far (every byte once, its newline included).
    pub(crate) fn examined_bytes(&self) -> u64 {
        self.examined_bytes
    }

    /// The line last returned, as it was read (until the next is read).
    pub(crate) fn last(&self) -> &[u8] {
        &self.buf
    }

    /// The next line without its `\n` (a `\r` before it is kept: CSV needs it, the JSON formats
    /// strip it), or `None` at the end of the text. A byte-order mark at the start of the text
    /// is left out. A line longer than the longest allowed is an error naming it, found having
    /// buffered no more than that.
    pub(crate) fn next_raw(&mut self) -> Result<Option<&[u8]>> {
        self.buf.clear();
        let mut any = false;
        loop {
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(file_error(&self.path, self.action, &e)),
            };
            if available.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let (take, end) = match memchr::memchr(b'\n', available) {
                Some(at) => (at, true),
                None => (available.len(), false),
            };
            if self.buf.len() + take > self.max_bytes {
                let error = self.too_long();
                self.skip_line()?;
                return Err(error);
            }
            self.buf.extend_from_slice(&available[..take]);
            let used = take + usize::from(end);
            self.input.consume(used);
            self.examined_bytes += used as u64;
            if end {
                break;
            }
        }
        self.line += 1;
        if self.line == 1 && self.buf.starts_with(BOM) {
            self.buf.drain(..BOM.len());
        }
        Ok(Some(&self.buf))
    }

    /// The next line without its end (`\n` or `\r\n`).
    pub(crate) fn next_line(&mut self) -> Result<Option<&[u8]>> {
        Ok(self
            .next_raw()?
            .map(|line| line.strip_suffix(b"\r").unwrap_or(line)))
    }

    /// Read past the rest of a line too long to keep, holding none of it: the next line is
    /// the one after it, and the line last read is none ([`Lines::last`] is empty).
    fn skip_line(&mut self) -> Result<()> {
        self.buf.clear();
        loop {
            let available = match self.input.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(file_error(&self.path, self.action, &e)),
            };
            if available.is_empty() {
                break;
            }
            let (used, end) = match memchr::memchr(b'\n', available) {
                Some(at) => (at + 1, true),
                None => (available.len(), false),
            };
            self.input.consume(used);
            self.examined_bytes += used as u64;
            if end {
                break;
            }
        }
        self.line += 1;
        Ok(())
    }

    fn too_long(&self) -> Error {
        Error::Invalid(format!(
            "line {}: longer than {} MiB; no item of DynamoDB's is (400 KB at most), so this is \
             not a file of items (is it one line without line ends?)",
            self.line + 1,
            self.max_bytes >> 20
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8]) -> Lines<&[u8]> {
        Lines::new(text, Path::new("t.jsonl"), "reading")
    }

    #[test]
    fn lines_come_without_their_ends_and_the_bom_is_left_out() {
        let mut read = lines(b"\xef\xbb\xbf{\"a\":1}\r\n\n\xef\xbb\xbfx\nlast");
        assert_eq!(read.next_line().unwrap(), Some(&b"{\"a\":1}"[..]));
        assert_eq!(read.next_line().unwrap(), Some(&b""[..]));
        // Only the text's first bytes can be a byte-order mark.
        assert_eq!(read.next_line().unwrap(), Some(&b"\xef\xbb\xbfx"[..]));
        assert_eq!(read.next_raw().unwrap(), Some(&b"last"[..]));
        assert_eq!(read.line(), 4);
        assert_eq!(read.next_line().unwrap(), None);
        assert_eq!(lines(b"").next_line().unwrap(), None);
    }

    #[test]
    fn a_line_too_long_is_an_error_at_its_number_having_buffered_no_more() {
        let text = b"short\n0123456789abcdef\nnext\n";
        let mut read = lines(text).with_max(8);
        assert_eq!(read.next_line().unwrap(), Some(&b"short"[..]));
        let error = read.next_line().unwrap_err().to_string();
        assert!(error.starts_with("line 2: longer than"), "{error}");
        assert!(
            read.buf.is_empty(),
            "nothing of it kept: {}",
            read.buf.len()
        );
        // The rest of the long line is not taken for lines of its own.
        assert_eq!(read.next_line().unwrap(), Some(&b"next"[..]));
        assert_eq!(read.line(), 3);
    }

    /// A reader that hands out a few bytes at a time, as a gunzipping reader does.
    struct Trickle<'a>(&'a [u8], usize);

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(self.1).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn every_byte_is_looked_at_once_however_long_the_line() {
        // 4 MiB in one line, handed out 1,000 bytes at a time: each byte is examined once, where
        // re-scanning the line so far at every piece would look at about 8 GB.
        let text = vec![b'x'; 4 << 20];
        let input = std::io::BufReader::with_capacity(1 << 16, Trickle(&text, 1000));
        let mut read = Lines::new(input, Path::new("long"), "reading");
        assert_eq!(read.next_line().unwrap().map(<[u8]>::len), Some(4 << 20));
        assert_eq!(read.examined_bytes(), text.len() as u64);
    }
}
