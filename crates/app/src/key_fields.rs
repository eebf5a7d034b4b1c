//! An item's key typed attribute by attribute: one field per key attribute of the table, named
//! with its type (`Key PK (S)`), read by the one key spec the CLI's `--key` and the MCP server use,
//! and filled from a row.

use egui::Ui;

use dynoscope_core::condition::ScalarType;
use dynoscope_core::spec::{InputError, KeySpec};
use dynoscope_core::table::TableInfo;
use dynoscope_core::value::{Item, whole_text};

/// The key's fields, in the table's key order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct KeyFields {
    texts: Vec<String>,
}

impl KeyFields {
    /// Fill the fields from `item`'s key attributes (a row, or a key).
    pub(crate) fn fill(&mut self, info: &TableInfo, item: &Item) {
        self.texts = info
            .key_names()
            .iter()
            .map(|name| item.get(name).map(whole_text).unwrap_or_default())
            .collect();
    }

    /// The key typed, checked as the table's key.
    pub(crate) fn key(&self, info: &TableInfo) -> Result<Item, InputError> {
        let names = info.key_names();
        let texts = self
            .texts
            .iter()
            .map(String::as_str)
            .chain(std::iter::repeat(""));
        KeySpec::new(names.iter().cloned().zip(texts)).plan(info)
    }

    /// Draw a field per key attribute; whether any was changed.
    pub(crate) fn key_fields_ui(&mut self, ui: &mut Ui, info: &TableInfo) -> bool {
        let keys = [Some(&info.partition), info.sort.as_ref()];
        self.texts
            .resize(keys.iter().flatten().count(), String::new());
        let mut changed = false;
        for (key, text) in keys.into_iter().flatten().zip(&mut self.texts) {
            let label = format!("Key {} ({})", key.name, key.kind);
            let hint = match key.kind {
                ScalarType::N => "a number",
                ScalarType::B => "base64",
                _ => "value",
            };
            changed |= crate::widgets::labelled_text_ui(ui, &label, text, 140.0, hint).changed();
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;
    use dynoscope_core::table::KeyAttr;

    #[test]
    fn a_long_key_fills_its_fields_whole() {
        let info = TableInfo::with_keys(
            "T",
            KeyAttr::new("PK", ScalarType::S),
            Some(KeyAttr::new("SK", ScalarType::B)),
        );
        let key = Item::from([
            ("PK".to_owned(), AttributeValue::S("P".repeat(2000))),
            (
                "SK".to_owned(),
                AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(vec![7; 700])),
            ),
        ]);
        let mut fields = KeyFields::default();
        fields.fill(&info, &key);
        assert_eq!(fields.key(&info).unwrap(), key);
    }
}
