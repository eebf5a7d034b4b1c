//! Planning a counter edit, purely: checking what the user typed against the item and computing
//! the exact delta with `bigdecimal` (never `f64`); the request is built in `update.rs`.

use bigdecimal::BigDecimal;

use crate::error::{Error, Result};
use crate::number::{self, to_dynamodb};

/// What the user typed: a new value or a delta.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Make the value this.
    To(String),
    /// Change the value by this much.
    By(String),
}

/// A checked change: the value seen, the exact delta and the value expected afterwards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The value the user saw (`None`: the attribute is missing, ADD starts from 0).
    pub current: Option<BigDecimal>,
    /// The delta to send.
    pub delta: BigDecimal,
    /// `current + delta`.
    pub expected: BigDecimal,
    /// A new value was typed: the change holds only from the value seen, so it is sent on
    /// the condition that the value is still `current` (a delta is not: it adds to whatever is
    /// there, as an atomic counter is meant to).
    pub pinned: bool,
}

impl Planned {
    /// Whether the edit creates the attribute.
    pub fn creates(&self) -> bool {
        self.current.is_none()
    }
}

/// Check `change` against the value seen (`current`, as stored) and compute the exact delta.
/// Nothing that fails here is ever sent.
pub fn plan(current: Option<&str>, change: &Change) -> Result<Planned> {
    let invalid = |what: &str, e: number::NumberError| Error::Invalid(format!("{what}: {e}"));
    let current = current
        .map(|c| number::parse(c).map_err(|e| invalid("the stored value", e)))
        .transpose()?;
    let base = current.clone().unwrap_or_default();
    let (delta, expected) = match change {
        Change::To(text) => {
            let next = number::parse(text).map_err(|e| invalid("new value", e))?;
            (&next - &base, next)
        }
        Change::By(text) => {
            let delta = number::parse(text).map_err(|e| invalid("delta", e))?;
            let expected = &base + &delta;
            (delta, expected)
        }
    };
    if delta == BigDecimal::default() {
        return Err(Error::Invalid(
            "the value would not change; nothing to send".into(),
        ));
    }
    number::parse(&to_dynamodb(&delta)).map_err(|e| invalid("the delta", e))?;
    number::parse(&to_dynamodb(&expected)).map_err(|e| invalid("the result", e))?;
    Ok(Planned {
        current,
        delta,
        expected,
        pinned: matches!(change, Change::To(_)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_value_becomes_an_exact_delta() {
        let p = plan(Some("41"), &Change::To("42".into())).unwrap();
        assert_eq!(to_dynamodb(&p.delta), "1");
        let big = "12345678901234567890123456789012345678";
        let p = plan(Some(big), &Change::By("-0.5".into()));
        // 38 digits plus a fraction would need 39 significant digits.
        assert!(p.is_err());
        let p = plan(Some(big), &Change::By("-8".into())).unwrap();
        assert_eq!(
            to_dynamodb(&p.expected),
            "12345678901234567890123456789012345670"
        );
        let p = plan(Some("0.1"), &Change::By("0.2".into())).unwrap();
        assert_eq!(to_dynamodb(&p.expected), "0.3", "no binary floating point");
    }

    #[test]
    fn a_new_value_is_pinned_to_the_value_seen_and_a_delta_is_not() {
        assert!(plan(Some("4"), &Change::To("10".into())).unwrap().pinned);
        assert!(!plan(Some("4"), &Change::By("6".into())).unwrap().pinned);
    }

    #[test]
    fn a_missing_attribute_starts_from_zero() {
        let p = plan(None, &Change::By("5".into())).unwrap();
        assert!(p.creates());
        assert_eq!(to_dynamodb(&p.expected), "5");
    }

    #[test]
    fn bad_input_is_refused_before_any_request() {
        for bad in [
            "",
            "abc",
            "NaN",
            "inf",
            "1e400",
            "123456789012345678901234567890123456789",
        ] {
            assert!(plan(Some("1"), &Change::By(bad.into())).is_err(), "{bad:?}");
            assert!(plan(Some("1"), &Change::To(bad.into())).is_err(), "{bad:?}");
        }
        assert!(
            plan(Some("1"), &Change::To("1".into())).is_err(),
            "no change"
        );
        let out_of_range = plan(
            Some("9.9999999999999999999999999999999999999E+125"),
            &Change::By("9E+125".into()),
        );
        assert!(out_of_range.is_err(), "the result would be out of range");
    }
}
