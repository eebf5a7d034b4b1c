//! One policy for how much runs at once: scan segments, storm users, lab writers. However many
//! are asked for, at most [`MAX_AT_ONCE`] requests are in flight together; asking for none is
//! bad input. And how many segments a parallel scan may be cut into: each is at least one
//! request, so more than a table's size can use is a cost asked about first.

use crate::error::{Error, Result};
use crate::table::{TableInfo, human_bytes};

/// The most segments a parallel scan is cut into (DynamoDB would take a million; each is at
/// least one request).
pub(crate) const MAX_SEGMENTS: usize = 1000;

/// Segments a scan may have without a question however small the table: as many as run at
/// once.
const SEGMENTS_WITHOUT_ASKING: usize = MAX_AT_ONCE;

/// Segments as typed in a form (empty: `default`): a whole number from 1 to
/// [`MAX_SEGMENTS`], the bound every front end takes (the CLI's `--segments` included).
pub fn segments_typed(text: &str, default: usize) -> Result<usize> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(default);
    }
    text.parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_SEGMENTS).contains(n))
        .ok_or_else(|| {
            Error::Invalid(format!(
                "segments `{text}`: a whole number from 1 to {MAX_SEGMENTS}"
            ))
        })
}

/// Check a parallel scan of table `info` in `segments`: 0 or more than [`MAX_SEGMENTS`] is bad
/// input; more than the table's size can use (a segment per MiB, DescribeTable's size) and more
/// than 64 needs `confirmed`, and the refusal says what it would cost.
pub fn check_segments(segments: usize, info: &TableInfo, confirmed: bool) -> Result<()> {
    if segments == 0 {
        return Err(Error::Invalid("--segments must be at least 1".into()));
    }
    if segments > MAX_SEGMENTS {
        return Err(Error::Invalid(format!(
            "--segments {segments}: a parallel scan is cut into at most {MAX_SEGMENTS} segments"
        )));
    }
    let Some(size) = info.size_bytes else {
        return Ok(());
    };
    let useful = usize::try_from(size.max(0))
        .unwrap_or(usize::MAX)
        .div_ceil(1 << 20)
        .max(1);
    if segments <= useful.max(SEGMENTS_WITHOUT_ASKING) || confirmed {
        return Ok(());
    }
    // Each segment sends at least one Scan, and each Scan reads at least 0.5 RCU.
    let min_rcu = segments.div_ceil(2);
    Err(Error::Invalid(format!(
        "--segments {segments} on {} ({}): every segment is at least one Scan request, so this sends at least {segments} requests and reads at least {min_rcu} RCU, where {useful} segment{} can read it all; ask for fewer (the CLI sends them anyway with --yes)",
        info.name,
        human_bytes(size),
        if useful == 1 { "" } else { "s" }
    )))
}

/// The most requests (segments, simulated users, writers) in flight at once.
pub const MAX_AT_ONCE: usize = 64;

/// How many run at once, out of how many were asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtOnce {
    /// What was asked for.
    pub asked: usize,
    /// What runs at once: `asked`, at most [`MAX_AT_ONCE`].
    pub at_once: usize,
}

impl AtOnce {
    /// `asked` of `what` (`segments`, `concurrency`): 0 is refused, more than
    /// [`MAX_AT_ONCE`] run [`MAX_AT_ONCE`] at a time.
    pub fn new(asked: usize, what: &str) -> Result<Self> {
        if asked == 0 {
            return Err(Error::Invalid(format!("{what} must be at least 1")));
        }
        Ok(Self {
            asked,
            at_once: asked.min(MAX_AT_ONCE),
        })
    }

    /// When fewer run at once than were asked: saying so.
    pub fn note(&self, what: &str) -> Option<String> {
        (self.at_once < self.asked).then(|| {
            format!(
                "{} {what} asked for: at most {} run at a time",
                self.asked, self.at_once
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_is_refused_and_many_are_bounded() {
        assert!(AtOnce::new(0, "segments").is_err());
        let many = AtOnce::new(100_000, "segments").unwrap();
        assert_eq!(many.at_once, MAX_AT_ONCE);
        assert!(many.note("segments").unwrap().contains("at most 64"));
        assert_eq!(AtOnce::new(8, "segments").unwrap().note("segments"), None);
    }

    #[test]
    fn segments_beyond_what_the_table_can_use_are_asked_about() {
        let mut info = TableInfo::with_keys(
            "Videos",
            crate::table::KeyAttr::new("PK", crate::condition::ScalarType::S),
            None,
        );
        info.size_bytes = Some(2_100);
        assert!(check_segments(0, &info, true).is_err());
        assert_eq!(segments_typed(" ", 4).unwrap(), 4, "empty: the default");
        assert_eq!(segments_typed("1000", 4).unwrap(), 1000);
        for bad in ["0", "1001", "-1", "two"] {
            let err = segments_typed(bad, 4).unwrap_err().to_string();
            assert!(err.contains("a whole number from 1 to 1000"), "{err}");
        }
        assert!(
            check_segments(1001, &info, true).is_err(),
            "never past the cap"
        );
        assert!(check_segments(64, &info, false).is_ok());
        let err = check_segments(1000, &info, false).unwrap_err().to_string();
        assert!(
            err.contains("at least 1000 requests and reads at least 500 RCU"),
            "{err}"
        );
        assert!(err.contains("where 1 segment can read it all"), "{err}");
        assert!(
            check_segments(1000, &info, true).is_ok(),
            "asked and answered"
        );
        info.size_bytes = Some(300 << 20);
        assert!(
            check_segments(300, &info, false).is_ok(),
            "a segment per MiB"
        );
        info.size_bytes = None;
        assert!(
            check_segments(1000, &info, false).is_ok(),
            "no size to judge by"
        );
    }
}
