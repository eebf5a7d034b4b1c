//! The arithmetic of drift, exactly, and what a parent records about when it was last touched.

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::error::{Error, Result};
use crate::number;
use crate::value::{self, Item};

/// Stored tally minus counted children; `None` when the tally is missing.
pub fn drift(stored: Option<&str>, counted: u64) -> Result<Option<BigDecimal>> {
    stored
        .map(|s| {
            number::parse(s)
                .map(|v| v - BigDecimal::from(counted))
                .map_err(|e| Error::Invalid(format!("the stored tally: {e}")))
        })
        .transpose()
}

/// The stored tally of `parent` as text; refuses a tally that is not a number.
pub(crate) fn stored_tally(parent: &Item, tally: &str) -> Result<Option<String>> {
    match parent.get(tally) {
        None => Ok(None),
        Some(AttributeValue::N(n)) => Ok(Some(n.clone())),
        Some(other) => Err(Error::Invalid(format!(
            "the tally `{tally}` is {}, not a number",
            value::type_tag(other)
        ))),
    }
}

pub(crate) use crate::value::epoch_text;

/// The attributes [`last_touched`] looks at, in order.
pub(super) const TOUCHED: [&str; 6] = [
    "updatedAt",
    "tallyUpdatedAt",
    "lastLikedAt",
    "lastUpdated",
    "modifiedAt",
    "lastModified",
];

/// Attributes of a parent that may tell when a like or unlike last touched it.
pub fn last_touched(parent: &Item) -> Option<(String, String)> {
    TOUCHED.iter().find_map(|name| {
        parent.get(*name).map(|v| {
            let raw = value::cell_text(v);
            let shown = epoch_text(&raw).map_or(raw.clone(), |t| format!("{t} ({raw})"));
            ((*name).to_owned(), shown)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_and_missing() {
        assert_eq!(drift(Some("4"), 3).unwrap(), Some(BigDecimal::from(1)));
        assert_eq!(drift(None, 3).unwrap(), None);
        assert!(drift(Some("x"), 3).is_err());
    }

    #[test]
    fn epochs_become_dates() {
        assert_eq!(
            epoch_text("1750636800").as_deref(),
            Some("2025-06-23 00:00:00 UTC")
        );
        assert_eq!(epoch_text("42"), None);
    }
}
