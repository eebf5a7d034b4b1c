//! What one feature asks of another. Features never touch each other's state: they return an
//! [`Intent`], and the shell hands it to the feature it is meant for.

use crate::core::counter::Change;
use crate::core::expr::builder::Input;
use crate::core::value::Item;
use crate::core::write::Destination;

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
pub enum EditStart {
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
pub enum Intent {
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
    /// The server holds `value` in `attribute` of the item at `key` of `table` at
    /// `destination`: show it in the grid's rows of that table, on that connection only.
    ServerValue {
        /// Where the write went.
        destination: Box<Destination>,
        /// The table written.
        table: String,
        /// The item's key.
        key: Item,
        /// The attribute.
        attribute: String,
        /// The number the server returned.
        value: String,
    },
    /// The server returned this whole item of `table`: put it in place of its row in the
    /// grid's rows of that table.
    ReplaceRow {
        /// The table written.
        table: String,
        /// The item as returned.
        item: Box<Item>,
    },
    /// Open this table (a result tab on it was chosen).
    OpenTable(String),
    /// Open the item editor on `item` of the open table (or stage its delete), and show it.
    EditItem {
        /// The row, as loaded (empty for a new item).
        item: Box<Item>,
        /// Edit, duplicate, delete, or a new item.
        start: EditStart,
    },
}
