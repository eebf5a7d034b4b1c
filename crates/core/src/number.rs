//! DynamoDB numbers, kept exact.
//!
//! A DynamoDB number has at most 38 significant digits and a magnitude between 1E-130 and
//! 9.9999999999999999999999999999999999999E+125 (or is zero). Numbers travel as strings; this
//! module checks them with `bigdecimal` and never goes through `f64`.

use std::str::FromStr;

use bigdecimal::BigDecimal;

/// The most significant digits a DynamoDB number may have.
pub(crate) const MAX_SIGNIFICANT_DIGITS: u64 = 38;

/// Why a string is not a DynamoDB number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    /// Nothing was typed.
    #[error("a number is required")]
    Empty,
    /// Not a decimal number (`abc`, `NaN`, `inf`, `1e`).
    #[error("`{0}` is not a number")]
    NotANumber(String),
    /// More than 38 significant digits.
    #[error("`{0}` has {1} significant digits; DynamoDB keeps at most 38")]
    TooPrecise(String, u64),
    /// Magnitude above 9.99…E+125.
    #[error(
        "`{0}` is too large for DynamoDB (the largest magnitude is 9.9999999999999999999999999999999999999E+125)"
    )]
    TooLarge(String),
    /// Magnitude below 1E-130.
    #[error("`{0}` is too small for DynamoDB (the smallest non-zero magnitude is 1E-130)")]
    TooSmall(String),
}

/// Parse `text` as a DynamoDB number, exactly.
///
/// Leading and trailing white space is ignored; `NaN`, infinities and hexadecimal are refused.
pub fn parse(text: &str) -> Result<BigDecimal, NumberError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(NumberError::Empty);
    }
    if !looks_decimal(trimmed) {
        return Err(NumberError::NotANumber(trimmed.to_owned()));
    }
    let value =
        BigDecimal::from_str(trimmed).map_err(|_| NumberError::NotANumber(trimmed.to_owned()))?;
    check_range(trimmed, &value)?;
    Ok(value)
}

fn is_zero(value: &BigDecimal) -> bool {
    value.sign() == bigdecimal::num_bigint::Sign::NoSign
}

fn check_range(text: &str, value: &BigDecimal) -> Result<(), NumberError> {
    if is_zero(value) {
        return Ok(());
    }
    let normalized = value.normalized();
    let digits = normalized.digits();
    if digits > MAX_SIGNIFICANT_DIGITS {
        return Err(NumberError::TooPrecise(text.to_owned(), digits));
    }
    // value = m × 10^(-scale) with m having `digits` digits, so its decimal exponent
    // (scientific notation) is digits - 1 - scale.
    let (_, scale) = normalized.as_bigint_and_exponent();
    let exponent = digits as i64 - 1 - scale;
    if exponent > 125 {
        return Err(NumberError::TooLarge(text.to_owned()));
    }
    if exponent < -130 {
        return Err(NumberError::TooSmall(text.to_owned()));
    }
    Ok(())
}

/// Only plain decimal syntax: optional sign, digits with at most one point, optional exponent.
fn looks_decimal(text: &str) -> bool {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    let mut digits = 0;
    let mut points = 0;
    for c in mantissa.chars() {
        match c {
            '0'..='9' => digits += 1,
            '.' => points += 1,
            _ => return false,
        }
    }
    if digits == 0 || points > 1 {
        return false;
    }
    match exponent {
        None => true,
        Some(exp) => {
            let exp = exp.strip_prefix(['+', '-']).unwrap_or(exp);
            !exp.is_empty() && exp.chars().all(|c| c.is_ascii_digit()) && exp.len() <= 6
        }
    }
}

/// The number as DynamoDB should receive it: plain digits, no trailing zeros.
pub fn to_dynamodb(value: &BigDecimal) -> String {
    if value == &BigDecimal::default() {
        return "0".to_owned();
    }
    value.normalized().to_plain_string()
}

/// A whole number typed for `what`, from `low` to `high`, or why not.
pub fn whole_in(
    text: &str,
    low: usize,
    high: usize,
    what: &str,
) -> Result<usize, crate::error::Error> {
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| {
            crate::error::Error::Invalid(format!("{what}: a whole number from {low} to {high}"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thirty_eight_digits_round_trip_exactly() {
        let text = "12345678901234567890123456789012345678";
        let value = parse(text).unwrap();
        assert_eq!(value.to_string(), text);
    }

    #[test]
    fn refuses_thirty_nine_digits() {
        let text = "123456789012345678901234567890123456789";
        assert_eq!(parse(text), Err(NumberError::TooPrecise(text.into(), 39)));
    }

    #[test]
    fn trailing_zeros_are_not_significant() {
        assert!(parse("1234567890123456789012345678901234567800000").is_ok());
        assert!(parse("0.000000000000000000000000000000000000000000001").is_ok());
    }

    #[test]
    fn refuses_non_numbers() {
        for text in [
            "NaN",
            "inf",
            "-Infinity",
            "0x10",
            "1e",
            "--1",
            "1.2.3",
            "abc",
            ".",
            "1e+",
        ] {
            assert!(
                matches!(parse(text), Err(NumberError::NotANumber(_))),
                "{text}"
            );
        }
        assert_eq!(parse("  "), Err(NumberError::Empty));
    }

    #[test]
    fn range_limits() {
        assert!(parse("9.9999999999999999999999999999999999999E+125").is_ok());
        assert!(matches!(parse("1E+126"), Err(NumberError::TooLarge(_))));
        assert!(parse("1E-130").is_ok());
        assert!(parse("-1E-130").is_ok());
        assert!(matches!(parse("1E-131"), Err(NumberError::TooSmall(_))));
        assert!(parse("0").is_ok());
        assert!(parse("-0.0").is_ok());
    }
}
