//! The whole-item JSON of a load's rows, written on a second thread while the first inserts.

use crate::rows::Rows;
use crate::rows::encode::Fields;
use crate::sql::item_json;

/// The whole-item JSON of consecutive rows, written by one thread for another to insert.
pub(super) struct JsonBatch {
    /// The first row's index.
    pub first: usize,
    /// The rows' JSON, one after another.
    text: String,
    /// Where each row's JSON ends in `text`.
    ends: Vec<usize>,
}

impl JsonBatch {
    /// Rows per batch: enough to keep both threads busy, few enough to hold little.
    pub(super) const ROWS: usize = 1024;

    pub(super) fn texts(&self) -> impl Iterator<Item = &str> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| self.text.get(start..end).unwrap_or_default())
    }
}

/// Write every row's whole-item JSON (attributes in `place_of` order) into batches sent to
/// `out`, until all are written or the receiver is gone.
#[expect(
    clippy::needless_pass_by_value,
    reason = "`out` is dropped when this ends, which ends the receiver's loop"
)]
pub(super) fn write_json_batches(
    rows: &Rows,
    place_of: &[u32],
    out: std::sync::mpsc::SyncSender<JsonBatch>,
) {
    let json_keys: Vec<String> = rows
        .names()
        .iter()
        .map(|n| item_json::json_key(n))
        .collect();
    let mut entries: Vec<item_json::Entry<'_>> = Vec::new();
    let mut json = String::new();
    let mut first = 0;
    while first < rows.len() {
        let last = rows.len().min(first + JsonBatch::ROWS);
        let mut batch = JsonBatch {
            first,
            text: String::with_capacity(256 * (last - first)),
            ends: Vec::with_capacity(last - first),
        };
        for row in first..last {
            entries.clear();
            for (id, body) in Fields::new(rows.bytes(row)) {
                if let (Some(key), Some(&place)) = (json_keys.get(id), place_of.get(id)) {
                    entries.push((place, key, body));
                }
            }
            entries.sort_unstable_by_key(|e| e.0);
            item_json::write_item(&mut json, &entries);
            batch.text.push_str(&json);
            batch.ends.push(batch.text.len());
        }
        if out.send(batch).is_err() {
            return;
        }
        first = last;
    }
}
