//! A clone as asked, the same for the app and the CLI: the destination's name (the default
//! said once), the whole table in segments or one partition, where a stopped clone goes on,
//! how many batches at once, and the check at the end — checked once, in one set of words.

use crate::clone::{ClonePlan, PartAsked, SAMPLE, default_to_table};
use crate::error::{Error, Result};
use crate::import::BATCHES_AT_ONCE;
use crate::limits::{AtOnce, MAX_SEGMENTS};
use crate::read::SegmentStarts;
use crate::value::Item;

/// The segments a clone of a whole table reads in when none are asked.
pub const SEGMENTS: usize = 4;

/// A clone, as the user asked it.
#[derive(Debug, Clone, PartialEq)]
pub struct CloneSpec {
    /// The source table.
    pub table: String,
    /// The destination's name; `None` or blank: the default ([`default_to_table`]).
    pub to_table: Option<String>,
    /// The destination is the source's own connection.
    pub same_connection: bool,
    /// One partition's key value as typed; `None` or blank: the whole table.
    pub pk: Option<String>,
    /// The whole table's parallel scan segments, 1 to [`MAX_SEGMENTS`].
    pub segments: usize,
    /// Where a stopped clone of the whole table goes on, segment by segment.
    pub resume_segments: Option<SegmentStarts>,
    /// Where a stopped clone of one partition goes on: after this key.
    pub resume_after: Option<Item>,
    /// Batches of 25 items in flight at once.
    pub concurrency: usize,
    /// Items compared one by one at the end; `None`: no check at all.
    pub sample: Option<usize>,
    /// With a check: every item compared by key instead of counts and a sample.
    pub full_check: bool,
}

impl CloneSpec {
    /// A clone of `table` from its beginning, with the defaults: [`SEGMENTS`] segments,
    /// [`BATCHES_AT_ONCE`] batches at once, and a check of [`SAMPLE`] items at the end.
    pub fn new(table: &str, same_connection: bool) -> Self {
        Self {
            table: table.to_owned(),
            to_table: None,
            same_connection,
            pk: None,
            segments: SEGMENTS,
            resume_segments: None,
            resume_after: None,
            concurrency: BATCHES_AT_ONCE,
            sample: Some(SAMPLE),
            full_check: false,
        }
    }

    /// The plan, and a note when fewer batches run at once than were asked; refused in words
    /// when the asking does not hold together.
    pub fn plan(&self) -> Result<(ClonePlan, Option<String>)> {
        let to_table = match self.to_table.as_deref().map(str::trim) {
            None | Some("") => default_to_table(&self.table, self.same_connection),
            Some(name) => name.to_owned(),
        };
        let at_once = AtOnce::new(self.concurrency, "concurrency")?;
        let plan = ClonePlan {
            table: self.table.clone(),
            to_table,
            part: self.part()?,
            batches_at_once: at_once.at_once,
            sample: self.sample,
            full_check: self.full_check,
        };
        Ok((plan, at_once.note("batches")))
    }

    /// What is read: one partition (from the start or after a key), or the table's segments.
    fn part(&self) -> Result<PartAsked> {
        match self.pk.as_deref().map(str::trim) {
            Some(pk) if !pk.is_empty() => {
                if self.resume_segments.is_some() {
                    return Err(Error::Invalid(
                        "a clone of one partition goes on after one key, not segment by segment"
                            .into(),
                    ));
                }
                Ok(PartAsked::Partition(
                    pk.to_owned(),
                    self.resume_after.clone(),
                ))
            }
            _ => {
                if self.resume_after.is_some() {
                    return Err(Error::Invalid(
                        "a clone of the whole table goes on segment by segment: a key alone is \
                         for a clone of one partition"
                            .into(),
                    ));
                }
                if !(1..=MAX_SEGMENTS).contains(&self.segments) {
                    return Err(Error::Invalid(format!(
                        "segments {}: a whole number from 1 to {MAX_SEGMENTS}",
                        self.segments
                    )));
                }
                match &self.resume_segments {
                    Some(starts) => Ok(PartAsked::Table(starts.clone())),
                    None => Ok(PartAsked::Table(SegmentStarts::all(self.segments)?)),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_destination_defaults_to_the_same_name_elsewhere_and_a_copy_here() {
        let elsewhere = CloneSpec::new("Social", false).plan().unwrap().0;
        assert_eq!(elsewhere.to_table, "Social");
        let mut here = CloneSpec::new("Social", true);
        here.to_table = Some("  ".into());
        assert_eq!(here.plan().unwrap().0.to_table, "Social-copy");
        here.to_table = Some(" Copy2 ".into());
        assert_eq!(here.plan().unwrap().0.to_table, "Copy2");
    }

    #[test]
    fn segments_and_resumes_are_checked_once_in_one_set_of_words() {
        let mut spec = CloneSpec::new("Social", false);
        assert_eq!(
            spec.plan().unwrap().0.part,
            PartAsked::Table(SegmentStarts::all(SEGMENTS).unwrap())
        );
        for bad in [0, MAX_SEGMENTS + 1] {
            spec.segments = bad;
            let error = spec.plan().unwrap_err().to_string();
            assert!(error.contains("a whole number from 1 to 1000"), "{error}");
        }
        spec.segments = 2;
        spec.pk = Some("POST#a91f".into());
        spec.resume_segments = Some(SegmentStarts::all(2).unwrap());
        assert!(
            spec.plan()
                .unwrap_err()
                .to_string()
                .contains("after one key")
        );
        spec.resume_segments = None;
        spec.resume_after = Some(Item::new());
        let (plan, _) = spec.plan().unwrap();
        assert_eq!(
            plan.part,
            PartAsked::Partition("POST#a91f".into(), Some(Item::new()))
        );
        spec.pk = Some(" ".into());
        assert!(spec.plan().unwrap_err().to_string().contains("a key alone"));
    }

    #[test]
    fn batches_past_the_bound_run_at_the_bound_and_say_so() {
        let mut spec = CloneSpec::new("Social", false);
        spec.concurrency = 0;
        assert!(spec.plan().is_err());
        spec.concurrency = 10_000;
        let (plan, note) = spec.plan().unwrap();
        assert!(plan.batches_at_once < 10_000);
        assert!(note.is_some_and(|n| n.contains("10000 batches asked for")));
        spec.sample = None;
        assert_eq!(spec.plan().unwrap().0.sample, None);
    }
}
