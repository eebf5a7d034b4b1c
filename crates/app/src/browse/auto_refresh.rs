//! Auto-refresh of a table tab: off by default; every N seconds, while the tab is shown and not
//! loading, the same read again (as many pages as before: to the end when the last read got
//! there), then the rows compared with those before ([`RowChanges`]): added and changed rows
//! tinted in the grid, removed keys listed, and what a refresh costs in read capacity. The
//! cursor and the open item stay on the same item, and the grid where it was.

use std::time::{Duration, Instant};

use egui::Ui;

use crate::browse::results::{Results, Sort};
use crate::browse::unseen::Unseen;
use dynoscope_core::cost::Pricing;
use dynoscope_core::rows::{MAX_COMPARED, RowChanges, Rows};
use dynoscope_core::value::Item;

/// The intervals offered, in seconds.
const CHOICES: [u64; 5] = [5, 10, 30, 60, 300];

/// What was there before a refresh.
struct Before {
    rows: Rows,
    keys: Vec<String>,
    /// The cursor's row's key and column, and whether its item was open.
    cursor: Option<(Item, usize, bool)>,
    sort: Option<Sort>,
}

/// What the last refresh found.
struct Refreshed {
    at: Instant,
    rcu: f64,
    /// `None`: too many rows to compare.
    changes: Option<RowChanges>,
}

/// A tab's auto-refresh.
#[derive(Default)]
pub(super) struct AutoRefresh {
    /// Seconds between refreshes; `None`: off.
    every: Option<u64>,
    next_at: Option<Instant>,
    before: Option<Before>,
    last: Option<Refreshed>,
    /// What the refreshes found that the user has not marked seen.
    unseen: Unseen,
}

impl AutoRefresh {
    /// Refresh every `secs` seconds from `now` (`None`: off).
    pub(super) fn set_every(&mut self, secs: Option<u64>, now: Instant) {
        self.every = secs;
        self.next_at = secs.map(|s| now + Duration::from_secs(s));
    }

    /// Whether a refresh is due at `now`.
    pub(super) fn due(&self, now: Instant) -> bool {
        self.every.is_some() && self.before.is_none() && self.next_at.is_some_and(|at| now >= at)
    }

    /// Forget a refresh under way: another read replaces it (a Run, a reconnect), so what it
    /// would compare with is not the rows it will bring.
    pub(super) fn reset(&mut self) {
        self.before = None;
    }

    /// Whether a read under way is a refresh.
    pub(super) fn refreshing(&self) -> bool {
        self.before.is_some()
    }

    /// A refresh of `results` is starting: what they hold now, to compare with.
    pub(super) fn started(&mut self, results: &Results) {
        let cursor = results.cursor().and_then(|(row, column)| {
            let item = results.rows.item(row as usize)?;
            let key: Item = results
                .key_names()
                .iter()
                .filter_map(|k| item.get(k).map(|v| (k.clone(), v.clone())))
                .collect();
            Some((key, column, results.selected() == Some(row as usize)))
        });
        self.before = Some(Before {
            rows: results.rows.clone(),
            keys: results.key_names().to_vec(),
            cursor,
            sort: results.sort().cloned(),
        });
    }

    /// Just after the refresh's read started on emptied `results`: the sort as it was, and
    /// the grid left where it is.
    pub(super) fn restarted(&self, results: &mut Results) {
        if let Some(before) = &self.before {
            results.restore_sort(before.sort.clone());
        }
        results.take_scroll();
    }

    /// A read of `results` ended at `now` (a refresh, or any other read while auto-refresh is
    /// on): the changes found, the cursor put back, the next refresh scheduled.
    pub(super) fn ended(&mut self, results: &mut Results, now: Instant) {
        if let Some(before) = self.before.take() {
            let changes = RowChanges::between(&before.rows, &results.rows, &before.keys);
            if let Some((key, column, open)) = before.cursor
                && let Some(position) = results
                    .row_with_key(&key)
                    .and_then(|row| results.position_of(row as u32))
            {
                results.click_cell(position, column, false);
                if !open {
                    results.close_item();
                }
            }
            match &changes {
                Some(found) => self.unseen.found(found, results, now),
                None => results.set_changes(None),
            }
            self.last = Some(Refreshed {
                at: now,
                rcu: results.load.consumed_rcu,
                changes,
            });
        }
        self.next_at = self.every.map(|s| now + Duration::from_secs(s));
    }

    /// The interval chooser, **Refresh now**, and what the last refresh found, drawn into the
    /// caller's row; `paused` says why refreshing waits (the form changed). `true` when Refresh
    /// now was clicked.
    #[must_use]
    pub(super) fn controls_ui(
        &mut self,
        ui: &mut Ui,
        results: &Results,
        paused: Option<&str>,
        pricing: &Pricing,
    ) -> bool {
        let now = Instant::now();
        let mut now_asked = false;
        ui.scope(|ui| {
            let before = self.every;
            let label = ui.label("Auto-refresh");
            egui::ComboBox::from_id_salt("auto_refresh")
                .selected_text(self.every.map_or("off".to_owned(), every_text))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut self.every, None, "off");
                    for secs in CHOICES {
                        ui.selectable_value(&mut self.every, Some(secs), every_text(secs));
                    }
                })
                .response
                .labelled_by(label.id);
            if self.every != before {
                self.set_every(self.every, now);
                self.last = None;
            }
            let Some(every) = self.every else {
                return;
            };
            if results.load.request.is_none() {
                ui.weak("Run a query or scan first: its read is what refreshes.");
                return;
            }
            if let Some(why) = paused {
                ui.weak(format!("paused: {why}"));
                return;
            }
            now_asked = ui
                .add_enabled(!self.refreshing(), egui::Button::new("Refresh now"))
                .on_hover_text("The same read again now, compared with the rows shown")
                .clicked();
            match &self.last {
                Some(last) => {
                    ui.label(format!(
                        "refreshed {} s ago · {} per refresh · {}",
                        now.duration_since(last.at).as_secs(),
                        pricing.read(last.rcu),
                        match &last.changes {
                            Some(c) => c.summary(),
                            None => format!("more than {MAX_COMPARED} rows: not compared"),
                        }
                    ));
                }
                None => {
                    ui.weak(format!(
                        "every {}; rows that change are tinted",
                        every_text(every)
                    ));
                }
            }
            if self.refreshing() {
                ui.spinner();
            }
            // Wake up for the next one (and for the seconds counted above).
            ui.ctx().request_repaint_after(Duration::from_secs(1));
        });
        now_asked
    }

    /// The changes found and not yet seen, on a line of their own (when there are any),
    /// each a jump to its row.
    pub(super) fn changes_ui(&mut self, ui: &mut Ui, results: &mut Results) {
        self.unseen.list_ui(ui, results);
    }
}

fn every_text(secs: u64) -> String {
    if secs.is_multiple_of(60) {
        format!("every {} min", secs / 60)
    } else {
        format!("every {secs} s")
    }
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::AttributeValue;

    use super::*;
    use dynoscope_core::condition::ScalarType;
    use dynoscope_core::read::BrowseRequest;
    use dynoscope_core::table::{KeyAttr, TableInfo};

    fn like(sk: &str, n: &str) -> Item {
        Item::from([
            ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
            ("SK".to_owned(), AttributeValue::S(sk.into())),
            ("n".to_owned(), AttributeValue::N(n.into())),
        ])
    }

    fn start(results: &mut Results) {
        let key = |name: &str| KeyAttr::new(name, ScalarType::S);
        let info = TableInfo::with_keys("Social", key("PK"), Some(key("SK")));
        let request = BrowseRequest::scan(&info, None).unwrap();
        results.start(request, vec!["PK".into(), "SK".into()], None);
    }

    #[test]
    fn a_refresh_is_due_after_its_interval_and_tints_what_changed_keeping_the_cursor() {
        let t0 = Instant::now();
        let mut auto = AutoRefresh::default();
        assert!(!auto.due(t0 + Duration::from_hours(1)), "off by default");
        auto.set_every(Some(5), t0);
        assert!(!auto.due(t0 + Duration::from_secs(4)));
        assert!(auto.due(t0 + Duration::from_secs(5)));

        let mut results = Results::default();
        start(&mut results);
        results.add_items(&[like("A", "1"), like("B", "2"), like("C", "3")]);
        results.toggle_sort("n");
        results.toggle_sort("n");
        results.move_cursor(1, 1, false);
        results.close_item();
        auto.started(&results);
        assert!(
            !auto.due(t0 + Duration::from_mins(1)),
            "not while one is under way"
        );
        start(&mut results);
        auto.restarted(&mut results);
        assert_eq!(results.take_scroll(), None, "the grid stays where it is");
        results.add_items(&[like("B", "20"), like("C", "3"), like("D", "4")]);
        let t1 = t0 + Duration::from_secs(6);
        auto.ended(&mut results, t1);
        // Sorted by n, largest first, as before the refresh.
        let sks: Vec<String> = (0..3)
            .filter_map(|p| results.row_at(p))
            .filter_map(|r| results.rows.item(r))
            .map(|i| dynoscope_core::value::cell_text(&i["SK"]))
            .collect();
        assert_eq!(sks, ["B", "D", "C"], "the sort kept");
        assert_eq!(
            results.change_of(0),
            Some(crate::browse::results::RowChange::Changed)
        );
        assert_eq!(
            results.change_of(2),
            Some(crate::browse::results::RowChange::Added)
        );
        assert_eq!(results.change_of(1), None);
        let (row, column) = results.cursor().unwrap();
        let on = results.rows.item(row as usize).unwrap();
        assert_eq!(
            (dynoscope_core::value::cell_text(&on["SK"]).as_str(), column),
            ("B", 1)
        );
        assert_eq!(results.selected(), None, "the item stays closed");
        let last = auto.last.as_ref().unwrap();
        assert_eq!(
            last.changes.as_ref().unwrap().summary(),
            "1 added, 1 changed, 1 removed"
        );
        assert!(!auto.due(t1 + Duration::from_secs(4)) && auto.due(t1 + Duration::from_secs(5)));
        // A Run or a reconnect during a refresh: no refresh is under way any more.
        auto.started(&results);
        auto.reset();
        assert!(!auto.refreshing() && auto.due(t1 + Duration::from_secs(5)));
    }
}
