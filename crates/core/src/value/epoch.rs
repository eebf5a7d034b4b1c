//! Numbers that look like times: epoch seconds or milliseconds, shown with their date beside
//! them (never instead of them: the value stays the server's text).

/// An epoch-seconds number as `YYYY-MM-DD HH:MM:SS UTC`, when it looks like one.
pub(crate) fn epoch_text(text: &str) -> Option<String> {
    let secs: i64 = text.parse().ok()?;
    if !(946_684_800..=4_102_444_800).contains(&secs) {
        return None; // not between 2000 and 2100: probably not a timestamp
    }
    let rem = secs.rem_euclid(86_400);
    let (year, month, day) = civil_date(secs.div_euclid(86_400));
    Some(format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    ))
}

/// The calendar date of `days` since 1970-01-01 (Howard Hinnant's civil-from-days).
pub(crate) fn civil_date(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// The date a number of attribute `name` looks like, to show beside it: a whole number of 10
/// digits (epoch seconds) or 13 (milliseconds), or of an attribute named like a time (`…At`,
/// `…_at`, `timestamp`, `ttl`), between 2000 and 2100; `None` otherwise.
pub fn date_of(name: &str, text: &str) -> Option<String> {
    let digits = text.len();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    let named =
        name.ends_with("At") || lower.ends_with("_at") || lower == "timestamp" || lower == "ttl";
    match digits {
        13 => {
            let (secs, millis) = text.split_at(10);
            let date = epoch_text(secs)?;
            Some(date.replace(" UTC", &format!(".{millis} UTC")))
        }
        10 => epoch_text(text),
        9..=12 if named => epoch_text(text),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_that_look_like_times_get_their_date_and_others_none() {
        assert_eq!(
            date_of("likedAt", "1750707782").as_deref(),
            Some("2025-06-23 19:43:02 UTC")
        );
        assert_eq!(
            date_of("n", "1750707782123").as_deref(),
            Some("2025-06-23 19:43:02.123 UTC"),
            "13 digits: milliseconds"
        );
        assert_eq!(date_of("play_count", "41"), None);
        assert_eq!(date_of("weight", "1234567890.5"), None, "not whole");
        assert_eq!(date_of("n", "9999999999"), None, "past 2100");
        assert_eq!(date_of("ttl", "-1"), None);
    }
}
