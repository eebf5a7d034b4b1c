//! An item's size as DynamoDB counts it, in the core's one line (the words `dynoscope size`
//! prints first), under every item the app shows: the item view, the editor, the builder's put.

use egui::Ui;

use dynoscope_core::cost::size::size_line;
use dynoscope_core::value::Item;

/// `Size: 1,234 B · put 2 WCU (tx 4) · read 1 RCU strong / 0.5 eventual · 0.3% of 400 KB`, for
/// an item with any attribute.
pub(crate) fn item_size_ui(ui: &mut Ui, item: &Item) {
    if let Some(line) = size_line(item) {
        size_text_ui(ui, &line);
    }
}

/// The line as the app shows it.
pub(crate) fn size_text_ui(ui: &mut Ui, line: &str) {
    ui.weak(format!("Size: {line}")).on_hover_text(
        "As DynamoDB counts it: names and values; units rounded up per 1 KB written, 4 KB read",
    );
}

/// The size line of what is being typed, made again only when the typing changes: an editor
/// holds text, not an item, and parsing it every frame would be work for nothing.
#[derive(Debug, Default)]
pub(crate) struct SizeMemo {
    /// What the line was made from (a hash of the typed text); `None` before the first.
    made_from: Option<u64>,
    /// The line, or `None` while the text is not a whole item.
    line: Option<String>,
}

impl SizeMemo {
    /// The line of the item `item` makes of what is typed, whose hash is `typed`; `item` is
    /// called only when `typed` changed.
    pub(crate) fn line(&mut self, typed: u64, item: impl FnOnce() -> Option<Item>) -> Option<&str> {
        if self.made_from != Some(typed) {
            self.made_from = Some(typed);
            self.line = item().as_ref().and_then(size_line);
        }
        self.line.as_deref()
    }
}

/// A hash of `parts`, for [`SizeMemo::line`].
pub(crate) fn typed_hash<'a>(parts: impl IntoIterator<Item = &'a str>) -> u64 {
    use std::hash::{Hash as _, Hasher as _};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for part in parts {
        part.hash(&mut hasher);
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;

    fn item(value: &str) -> Item {
        Item::from([("a".to_owned(), AttributeValue::S(value.to_owned()))])
    }

    #[test]
    fn the_line_is_made_again_only_when_the_typing_changes() {
        let mut memo = SizeMemo::default();
        let mut made = 0;
        let typed = typed_hash(["a", "xyz"]);
        let first = memo
            .line(typed, || {
                made += 1;
                Some(item("xyz"))
            })
            .map(str::to_owned);
        assert_eq!(
            first.as_deref(),
            Some("4 B · put 1 WCU (tx 2) · read 1 RCU strong / 0.5 eventual · < 0.1% of 400 KB")
        );
        let again = memo.line(typed, || {
            made += 1;
            None
        });
        assert_eq!(again.map(str::to_owned), first);
        assert_eq!(made, 1);
        // Text that is not an item (yet) has no line; an empty item neither.
        assert_eq!(memo.line(typed_hash(["a", "xy"]), || None), None);
        assert_eq!(memo.line(typed_hash(["b"]), || Some(Item::new())), None);
        // Parts are kept apart: "ab" + "c" is not "a" + "bc".
        assert_ne!(typed_hash(["ab", "c"]), typed_hash(["a", "bc"]));
    }
}
