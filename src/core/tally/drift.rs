//! The arithmetic of drift, exactly, and what a parent records about when it was last touched.

use aws_sdk_dynamodb::types::AttributeValue;
use bigdecimal::BigDecimal;

use crate::core::error::{Error, Result};
use crate::core::number;
use crate::core::value::{self, Item};

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
pub fn stored_tally(parent: &Item, tally: &str) -> Result<Option<String>> {
    match parent.get(tally) {
        None => Ok(None),
        Some(AttributeValue::N(n)) => Ok(Some(n.clone())),
        Some(other) => Err(Error::Invalid(format!(
            "the tally `{tally}` is {}, not a number",
            value::type_tag(other)
        ))),
    }
}

/// An epoch-seconds number as `YYYY-MM-DD HH:MM:SS UTC`, when it looks like one.
pub fn epoch_text(text: &str) -> Option<String> {
    let secs: i64 = text.parse().ok()?;
    if !(946_684_800..=4_102_444_800).contains(&secs) {
        return None; // not between 2000 and 2100: probably not a timestamp
    }
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    Some(format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    ))
}

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
