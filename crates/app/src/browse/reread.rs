//! Reading shown rows again: the item view's Reload (and F5 over it), and every row a write of
//! ours touched, so that no screen keeps showing what the server no longer holds. Each is one
//! consistent `GetItem`, put in place of its row in every tab on its table.

use std::time::Instant;

use dynoscope_core::connection::Connection;
use dynoscope_core::error::Error;
use dynoscope_core::read;
use dynoscope_core::task::{Pending, Spawner};
use dynoscope_core::value::Item;

/// The most rows read again for one write (a transaction's 100 items): a write of more (an
/// import) leaves its rows to a run of the query, and their age says how old they are.
pub(super) const MAX_AT_ONCE: usize = 100;

/// One row being read again.
struct Reread {
    table: String,
    key: Item,
    answer: Option<Pending<Option<Item>>>,
}

/// A row read again: its table, its key, and the item as the server has it now (`None`: not
/// any more).
pub(super) struct ReadAgain {
    /// The table.
    pub table: String,
    /// The row's key.
    pub key: Item,
    /// The item now.
    pub item: Option<Item>,
    /// When it was read.
    pub at: Instant,
}

/// Rows being read again, and the last that could not be.
#[derive(Default)]
pub(super) struct Rereads {
    pending: Vec<Reread>,
    failed: Option<(String, Item, Error)>,
}

impl Rereads {
    /// Read the item at `key` of `table` again on `connection`. A read of it already under
    /// way is stopped and sent again: it may have left before the write that asks for this one,
    /// and its answer would be shown as fresh.
    pub(super) fn start(
        &mut self,
        spawner: &Spawner,
        connection: &Connection,
        table: &str,
        key: Item,
    ) {
        if let Some(at) = self
            .pending
            .iter()
            .position(|r| r.table == table && r.key == key)
        {
            let stale = self.pending.swap_remove(at);
            if let Some(answer) = &stale.answer {
                answer.abort();
            }
        }
        if self.failed_for(table, &key).is_some() {
            self.failed = None;
        }
        let client = connection.reader();
        let (name, sent) = (table.to_owned(), key.clone());
        let answer = spawner.spawn("GetItem", async move {
            read::get_item(&client, &name, sent).await
        });
        self.pending.push(Reread {
            table: table.to_owned(),
            key,
            answer: Some(answer),
        });
    }

    /// The rows read again since the last poll.
    pub(super) fn poll(&mut self) -> Vec<ReadAgain> {
        let mut done = Vec::new();
        let mut i = 0;
        while i < self.pending.len() {
            let Some(answer) = Pending::take_ready(&mut self.pending[i].answer) else {
                i += 1;
                continue;
            };
            let reread = self.pending.swap_remove(i);
            match answer {
                Ok(item) => done.push(ReadAgain {
                    table: reread.table,
                    key: reread.key,
                    item,
                    at: Instant::now(),
                }),
                Err(error) => self.failed = Some((reread.table, reread.key, error)),
            }
        }
        done
    }

    /// Whether the row at `key` of `table` is being read again.
    pub(super) fn busy(&self, table: &str, key: &Item) -> bool {
        self.pending
            .iter()
            .any(|r| r.table == table && &r.key == key)
    }

    /// Why the row at `key` of `table` could not be read again, the last time it was tried.
    pub(super) fn failed_for(&self, table: &str, key: &Item) -> Option<&Error> {
        self.failed
            .as_ref()
            .filter(|(t, k, _)| t == table && k == key)
            .map(|(_, _, e)| e)
    }

    /// Forget every read under way (another connection: their rows are gone).
    pub(super) fn clear(&mut self) {
        for reread in self.pending.drain(..) {
            if let Some(answer) = &reread.answer {
                answer.abort();
            }
        }
        self.failed = None;
    }
}
