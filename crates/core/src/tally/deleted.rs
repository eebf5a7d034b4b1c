//! What deleting items does to the counters, said before anything is deleted: counted children
//! deleted under a parent that stays leave its tally too high by as many, unless the tally is
//! updated after. The same count as an import's ([`ImportTallies`]), read the other way.

use crate::report::plural;
use crate::tally::imported::PARENTS_NAMED;
use crate::tally::{ChildSource, ImportTallies, TallyRule};

impl ImportTallies {
    /// The parents whose tallies deleting the counted items leaves too high: each rule with the
    /// partition of a parent that is not itself deleted and the children deleted under it.
    pub(crate) fn drifting(&self) -> Vec<(&TallyRule, &str, u64)> {
        self.parents
            .iter()
            .filter(|(_, p)| p.children > 0 && p.tally.is_none())
            .filter_map(|((r, pk), p)| Some((self.rules.get(*r)?, pk.as_str(), p.children)))
            .collect()
    }

    /// The words for a delete, per rule with children among the items: `40 `LIKE#` children
    /// of 2 parents deleted, their tallies `likeTally` left as they are: too high by up to 40`,
    /// the first parents with theirs, and the parents deleted themselves.
    pub(crate) fn deleted_lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (r, rule) in self.rules.iter().enumerate() {
            let ChildSource::SortKeyPrefix(prefix) = &rule.children else {
                continue;
            };
            let staying: Vec<(&String, u64)> = self
                .parents
                .iter()
                .filter(|((rr, _), p)| *rr == r && p.children > 0 && p.tally.is_none())
                .map(|((_, pk), p)| (pk, p.children))
                .collect();
            let gone = self
                .parents
                .iter()
                .filter(|((rr, _), p)| *rr == r && p.tally.is_some())
                .count();
            let children: u64 = staying.iter().map(|(_, n)| n).sum();
            if children > 0 {
                let of = if self.more {
                    format!("more than {} parents", staying.len())
                } else {
                    plural(staying.len(), "parent")
                };
                lines.push(format!(
                    "{children} `{prefix}` {} of {of} deleted, their tallies `{}` left as they \
                     are: too high by up to {children}",
                    if children == 1 { "child" } else { "children" },
                    rule.tally
                ));
                for (pk, n) in staying.iter().take(PARENTS_NAMED) {
                    lines.push(format!("  {pk} / {}: -{n}", rule.parents.sort_key));
                }
                if staying.len() > PARENTS_NAMED {
                    lines.push(format!(
                        "  … and {} more",
                        plural(staying.len() - PARENTS_NAMED, "parent")
                    ));
                }
            }
            if gone > 0 {
                lines.push(format!(
                    "{} with `{}` deleted too (nothing left to drift)",
                    plural(gone, "parent"),
                    rule.tally
                ));
            }
        }
        lines
    }
}
