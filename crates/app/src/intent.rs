//! What one feature asks of another. Features never touch each other's state: they return an
//! [`Intent`], and the shell hands it to the feature it is meant for.

use dynoscope_core::counter::Change;
use dynoscope_core::expr::builder::Input;
use dynoscope_core::value::Item;
use dynoscope_core::write::Destination;

/// What the browse form should show: the children of a checked parent, or an index to browse.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueryPreset {
    /// The index to read (`None`: the table).
    pub index: Option<String>,
    /// The partition key value as text; empty sets the form up without running it.
    pub partition: String,
    /// Only sort keys that begin with this.
    pub sort_prefix: Option<String>,
}

/// How an item comes to the editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EditStart {
    /// Edit it (its key fixed).
    Edit,
    /// Copy it under a new key.
    Duplicate,
    /// Stage its delete.
    Delete,
    /// A blank new item.
    New,
}

/// A request from one feature to another, carried by the shell.
#[must_use]
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Intent {
    /// Open the expression builder on `input` (a request the app made) and show it.
    OpenInBuilder {
        /// The request, in the builder's terms.
        input: Box<Input>,
        /// Where it came from, in words: "the ADD edit".
        origin: String,
    },
    /// Set the browse form up as `preset` says, run it when it names a partition, and show it.
    ShowQuery(QueryPreset),
    /// Open the counter editor on `attribute` of `item`; with a `change`, send it at once.
    EditNumber {
        /// The row, as loaded.
        item: Box<Item>,
        /// The number attribute.
        attribute: String,
        /// A change to send now (`+1` from a cell's menu), or none to just open the editor.
        change: Option<Change>,
    },
    /// A write of ours to `table` at `destination` ended (applied, refused, or perhaps): read
    /// again the rows shown at `keys`, on that connection only, and the table's description
    /// (item count, size). `keys` may be empty: a statement's or an import's items are many,
    /// or unknown.
    Written {
        /// Where the write went.
        destination: Box<Destination>,
        /// The table written.
        table: String,
        /// The items written.
        keys: Vec<Item>,
    },
    /// Items of `table` at `destination` were deleted by a write of ours: their rows leave
    /// every tab showing them (a delete of many; one item's delete is read again instead).
    Deleted {
        /// Where the delete went.
        destination: Box<Destination>,
        /// The table.
        table: String,
        /// The keys of the items known deleted.
        keys: Vec<Item>,
    },
    /// Open this table (a result tab on it was chosen).
    OpenTable(String),
    /// The tables changed (one was deleted): list them again.
    ListTables,
    /// Open the item editor on `item` of the open table (or stage its delete), and show it.
    EditItem {
        /// The row, as loaded (empty for a new item).
        item: Box<Item>,
        /// Edit, duplicate, delete, or a new item.
        start: EditStart,
    },
}
