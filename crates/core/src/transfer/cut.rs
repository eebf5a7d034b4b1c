//! Cutting a text read in pieces into blocks of whole lines, for the export stream: every byte
//! looked at a bounded number of times however long its line, and a line over 16 MiB refused.

use crate::error::{Error, Result};
use crate::transfer::MAX_LINE_BYTES;

/// Bytes of whole lines handed from the gunzipping thread at a time.
pub(super) const BLOCK: usize = 1 << 20;

/// The UTF-8 byte-order mark some editors put at the start of a text.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Cuts a text read in pieces into blocks of whole lines. Only the bytes new in each piece are
/// searched for a newline, and a partial line is carried over without being copied again, so
/// every byte is looked at a bounded number of times however long its line: a line without an
/// end costs its length, not its length squared, and is an error at 16 MiB.
#[derive(Default)]
pub(super) struct Cutter {
    /// The partial line after the last newline so far.
    pub(super) carry: Vec<u8>,
    /// The line number of the carried line (from 1; 0 before the first piece).
    line: usize,
    /// Bytes looked at so far.
    examined_bytes: u64,
}

impl Cutter {
    /// The buffer to read the next piece into: the carried line, with room for a piece.
    pub(super) fn buffer(&mut self) -> Vec<u8> {
        let mut text = std::mem::take(&mut self.carry);
        text.reserve(BLOCK);
        text
    }

    /// `text` is the carried line, then new bytes from `start`: the block of whole lines it
    /// completes (with its first line's number), if any; what follows the block's last newline
    /// is carried.
    pub(super) fn cut(
        &mut self,
        mut text: Vec<u8>,
        start: usize,
    ) -> Result<Option<(usize, Vec<u8>)>> {
        self.line = self.line.max(1);
        if self.line == 1 && start == 0 && text.starts_with(BOM) {
            // A byte-order mark before the first line is no part of it.
            text.drain(..BOM.len());
        }
        let new = text.get(start..).unwrap_or_default();
        self.examined_bytes += new.len() as u64;
        let Some(last) = memchr::memrchr(b'\n', new) else {
            if text.len() > MAX_LINE_BYTES {
                return Err(Error::Invalid(format!(
                    "line {}: longer than {} MiB; no item of DynamoDB's is (400 KB at most), so \
                     this is not a file of items (is it one line without line ends?)",
                    self.line,
                    MAX_LINE_BYTES >> 20
                )));
            }
            self.carry = text;
            return Ok(None);
        };
        // What follows the last newline is less than a piece: copying it is linear.
        self.carry = text.split_off(start + last + 1);
        Ok(Some(self.block(text)))
    }

    /// The last line, without a newline at its end.
    pub(super) fn finish(&mut self) -> Option<(usize, Vec<u8>)> {
        let text = std::mem::take(&mut self.carry);
        // No longer than 16 MiB: a longer carry was refused by [`cut`](Self::cut).
        if text.is_empty() {
            return None;
        }
        self.line = self.line.max(1);
        Some(self.block(text))
    }

    fn block(&mut self, text: Vec<u8>) -> (usize, Vec<u8>) {
        let first = self.line;
        self.examined_bytes += text.len() as u64;
        self.line += memchr::memchr_iter(b'\n', &text).count();
        (first, text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A block's first line and its text.
    type Cut = (usize, Vec<u8>);

    /// Feed `text` to a cutter in pieces of `piece` bytes, as `read_one` does; the blocks.
    fn cut_all(text: &[u8], piece: usize) -> (Result<Vec<Cut>>, u64) {
        let mut cutter = Cutter::default();
        let mut blocks = Vec::new();
        for chunk in text.chunks(piece) {
            let mut buffer = cutter.buffer();
            let start = buffer.len();
            buffer.extend_from_slice(chunk);
            match cutter.cut(buffer, start) {
                Ok(Some(block)) => blocks.push(block),
                Ok(None) => {}
                Err(e) => return (Err(e), cutter.examined_bytes),
            }
        }
        blocks.extend(cutter.finish());
        (Ok(blocks), cutter.examined_bytes)
    }

    #[test]
    fn a_long_line_is_looked_at_a_bounded_number_of_times() {
        // 15 MiB in one line, then a short one, in pieces of 64 KiB: each byte is examined at
        // most twice (searched for the newline as it arrives, counted once in its block).
        // Searching the whole carried line again at every piece would examine about 1.8 GB.
        let mut text = vec![b'x'; 15 << 20];
        text.extend_from_slice(b"\nlast\n");
        let (blocks, examined) = cut_all(&text, 64 << 10);
        let blocks = blocks.unwrap();
        assert!(
            examined <= 2 * text.len() as u64,
            "{examined} for {}",
            text.len()
        );
        // Both lines end in the last piece: one block, from line 1.
        let lines: Vec<usize> = blocks.iter().map(|(line, _)| *line).collect();
        assert_eq!(lines, [1]);
        assert_eq!(
            blocks.iter().map(|(_, t)| t.len()).sum::<usize>(),
            text.len()
        );
    }

    #[test]
    fn a_line_over_16_mib_is_an_error_at_its_number_and_the_bom_is_left_out() {
        let mut text = b"\xef\xbb\xbf{}\n{}\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', (16 << 20) + 10));
        let (blocks, examined) = cut_all(&text, 1 << 20);
        let error = blocks.unwrap_err().to_string();
        assert!(error.starts_with("line 3: longer than 16 MiB"), "{error}");
        assert!(examined <= 2 * text.len() as u64);
        let (blocks, _) = cut_all(b"\xef\xbb\xbf{\"a\":1}\n", 4);
        assert_eq!(blocks.unwrap()[0].1, b"{\"a\":1}\n");
    }
}
