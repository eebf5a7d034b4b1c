//! One policy for how much runs at once: scan segments, storm users, lab writers. However many
//! are asked for, at most [`MAX_AT_ONCE`] requests are in flight together; asking for none is
//! bad input.

use crate::core::error::{Error, Result};

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
}
