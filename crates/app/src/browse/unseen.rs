//! The changes auto-refresh found that the user has not seen yet: kept across refreshes (a
//! refresh that finds nothing new does not wipe them), tinted in the grid, listed with how long
//! ago each was found, each one a jump to its row, until the user marks them seen.

use std::time::Instant;

use egui::Ui;

use crate::browse::results::Results;
use dynoscope_core::report::plural;
use dynoscope_core::rows::RowChanges;
use dynoscope_core::value::Item;
use dynoscope_core::value::key_shown;

/// Changes kept at most (the oldest leave first).
const MAX_KEPT: usize = 500;

/// Changes listed at once; the rest are counted.
const LISTED: usize = 8;

/// What happened to a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seen {
    /// A row whose key was not there.
    Added,
    /// A row whose item differs.
    Changed,
    /// A row no longer there.
    Removed,
}

impl Seen {
    fn word(self) -> &'static str {
        match self {
            Self::Added => "added",
            Self::Changed => "changed",
            Self::Removed => "removed",
        }
    }
}

/// One change found by a refresh.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Noted {
    /// The row's key.
    pub key: Item,
    /// What happened to it (the latest, when several refreshes found it).
    pub what: Seen,
    /// When the refresh found it.
    pub at: Instant,
}

/// The changes not yet seen, newest first.
#[derive(Debug, Default)]
pub(super) struct Unseen {
    noted: Vec<Noted>,
}

impl Unseen {
    /// The changes kept, newest first.
    #[cfg(test)]
    pub(super) fn noted(&self) -> &[Noted] {
        &self.noted
    }

    /// Keep what a refresh at `at` found in `results` (its rows after the refresh), and tint
    /// every unseen change still among the rows.
    pub(super) fn found(&mut self, changes: &RowChanges, results: &mut Results, at: Instant) {
        let keys = results.key_names().to_vec();
        let key_of = |row: u32| -> Option<Item> {
            let item = results.rows.item(row as usize)?;
            Some(
                keys.iter()
                    .filter_map(|k| item.get(k).map(|v| (k.clone(), v.clone())))
                    .collect(),
            )
        };
        let mut found: Vec<Noted> = Vec::new();
        for row in 0..u32::try_from(results.rows.len()).unwrap_or(u32::MAX) {
            let what = if changes.added.contains(row) {
                Seen::Added
            } else if changes.changed.contains(row) {
                Seen::Changed
            } else {
                continue;
            };
            found.extend(key_of(row).map(|key| Noted { key, what, at }));
        }
        found.extend(changes.removed.iter().map(|key| Noted {
            key: key.clone(),
            what: Seen::Removed,
            at,
        }));
        for noted in found {
            self.noted.retain(|n| n.key != noted.key);
            self.noted.insert(0, noted);
        }
        self.noted.truncate(MAX_KEPT);
        results.set_changes(Some(self.tints(results)));
    }

    /// The unseen changes as the grid tints them: rows still there, by what happened.
    fn tints(&self, results: &Results) -> RowChanges {
        let mut tints = RowChanges::default();
        for noted in &self.noted {
            let row = results
                .row_with_key(&noted.key)
                .and_then(|r| u32::try_from(r).ok());
            match (noted.what, row) {
                (Seen::Added, Some(row)) => tints.added.insert(row),
                (Seen::Changed, Some(row)) => tints.changed.insert(row),
                (Seen::Removed, None) => tints.removed.push(noted.key.clone()),
                _ => {}
            }
        }
        tints
    }

    /// The user has seen them: forgotten, and the tints with them.
    pub(super) fn seen(&mut self, results: &mut Results) {
        self.noted.clear();
        results.set_changes(None);
    }

    /// The list: each change with its age, a jump to its row when it is there; **Seen**
    /// forgets them all.
    pub(super) fn list_ui(&mut self, ui: &mut Ui, results: &mut Results) {
        if self.noted.is_empty() {
            return;
        }
        let now = Instant::now();
        let keys = results.key_names().to_vec();
        let mut jump = None;
        let mut seen = false;
        ui.horizontal_wrapped(|ui| {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!(
                    "{} since you last looked:",
                    plural(self.noted.len(), "change")
                ),
            );
            for noted in self.noted.iter().take(LISTED) {
                let text = format!(
                    "{} {} ({} s ago)",
                    key_shown(&noted.key, &keys),
                    noted.what.word(),
                    now.duration_since(noted.at).as_secs()
                );
                match results.row_with_key(&noted.key) {
                    Some(row) if noted.what != Seen::Removed => {
                        if ui.link(text).on_hover_text("Go to this row").clicked() {
                            jump = Some(row);
                        }
                    }
                    _ => {
                        ui.label(text);
                    }
                }
            }
            if self.noted.len() > LISTED {
                ui.weak(format!("and {} more", self.noted.len() - LISTED));
            }
            seen = ui
                .button("Seen")
                .on_hover_text("Forget these changes and their tints")
                .clicked();
        });
        if let Some(position) = jump.and_then(|row| results.position_of(row as u32)) {
            results.move_cursor(position, 0, false);
        }
        if seen {
            self.seen(results);
        }
    }
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;
    use dynoscope_core::rows::Rows;

    fn like(sk: &str, n: &str) -> Item {
        Item::from([
            ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
            ("SK".to_owned(), AttributeValue::S(sk.into())),
            ("n".to_owned(), AttributeValue::N(n.into())),
        ])
    }

    fn results(items: &[Item]) -> Results {
        let mut results = Results::for_rows(vec!["PK".into(), "SK".into()], 1);
        results.add_items(items);
        results
    }

    #[test]
    fn changes_stay_until_seen_whatever_the_refreshes_after() {
        let keys = ["PK".to_owned(), "SK".to_owned()];
        let before = Rows::from_items(&[like("A", "1"), like("B", "2"), like("C", "3")]);
        let mut after = results(&[like("A", "1"), like("B", "20"), like("D", "4")]);
        let changes = RowChanges::between(&before, &after.rows, &keys).unwrap();
        let mut unseen = Unseen::default();
        let t0 = Instant::now();
        unseen.found(&changes, &mut after, t0);
        let what: Vec<Seen> = unseen.noted().iter().map(|n| n.what).collect();
        assert_eq!(what.len(), 3);
        assert!(what.contains(&Seen::Removed) && what.contains(&Seen::Added));
        // The next refresh finds nothing new: the three are still there, still tinted.
        let mut again = results(&[like("A", "1"), like("B", "20"), like("D", "4")]);
        let nothing = RowChanges::between(&after.rows, &again.rows, &keys).unwrap();
        assert!(nothing.is_empty());
        unseen.found(&nothing, &mut again, t0);
        assert_eq!(unseen.noted().len(), 3);
        assert_eq!(
            again.change_of(1),
            Some(crate::browse::results::RowChange::Changed)
        );
        assert_eq!(
            again.change_of(2),
            Some(crate::browse::results::RowChange::Added)
        );
        unseen.seen(&mut again);
        assert!(unseen.noted().is_empty());
        assert_eq!(again.change_of(1), None);
    }
}
