//! The form's page buttons — Run, Load more, Load all (or Resume), Cancel — each off with
//! why, what they are told of the results, and what the user asked the form to do.

use egui::Ui;

/// What the user asked the form to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FormAction {
    /// Start over with the first page.
    Run,
    /// Fetch the next page.
    LoadMore,
    /// Fetch every remaining page.
    LoadAll,
    /// Stop loading; keep what loaded.
    Cancel,
    /// Show (or hide) Get item…: one item by its key.
    GetItem,
    /// Fold the form into one line (the grid gets its rows).
    Fold,
    /// Show the whole form again.
    Unfold,
}

/// What the form needs to know about the results to enable its buttons.
#[derive(Debug, Clone, Default)]
pub(super) struct ResultsState {
    /// A page is being fetched.
    pub loading: bool,
    /// There is a next page.
    pub has_more: bool,
    /// The last load stopped early (cancelled, failed): what is left can be resumed.
    pub stopped: bool,
    /// What is left is a parallel scan's unfinished segments.
    pub segmented: bool,
    /// The form no longer describes what the rows were read by: more pages would be of the
    /// old request, so Load more and Load all wait for Run.
    pub form_changed: bool,
    /// What reading the rest costs at most, for a Scan: the whole table's read, priced.
    pub all_costs: Option<String>,
    /// Nothing was read yet by this tab (no first page to go on from).
    pub not_run: bool,
}

/// A window shorter than this folds the form once it has read rows: the grid keeps its rows.
const SHORT: f32 = 700.0;

/// Whether the window is short enough for the form to fold (and to offer folding).
pub(super) fn short_window(ui: &Ui) -> bool {
    ui.ctx().content_rect().height() < SHORT
}

/// Why Load more and Load all are off: the form changed, nothing was run yet, or the last
/// read reached the end.
fn page_why_not(results: &ResultsState, changed: &'static str) -> &'static str {
    if results.form_changed {
        changed
    } else if results.not_run {
        "Run the query or scan first: its first page is what more pages follow"
    } else {
        "No more pages: the last read reached the end"
    }
}

/// Run, Load more, Load all (Resume after a stop) and Cancel, each off with why.
#[must_use]
pub(super) fn page_buttons_ui(
    ui: &mut Ui,
    scan: bool,
    results: &ResultsState,
) -> Option<FormAction> {
    let mut action = None;
    let run_label = if scan { "Run scan" } else { "Run query" };
    if ui
        .add_enabled(!results.loading, egui::Button::new(run_label))
        .clicked()
    {
        action = Some(FormAction::Run);
    }
    let can_page = results.has_more && !results.loading && !results.form_changed;
    let why_not = "Run first: the form changed since these rows were read";
    // A parallel scan reads its segments to their ends: it resumes whole, not by a page.
    if ui
        .add_enabled(
            can_page && !results.segmented,
            egui::Button::new("Load more"),
        )
        .on_disabled_hover_text(page_why_not(results, why_not))
        .clicked()
    {
        action = Some(FormAction::LoadMore);
    }
    // Resume only where there is something to go on from.
    let all_label = if results.stopped && results.has_more {
        "Resume"
    } else {
        "Load all"
    };
    if ui
        .add_enabled(can_page, egui::Button::new(all_label))
        .on_hover_text(match &results.all_costs {
            Some(cost) => {
                format!("Read every remaining page (from where the last read stopped). {cost}.")
            }
            None => "Read every remaining page (from where the last read stopped)".to_owned(),
        })
        .on_disabled_hover_text(page_why_not(results, why_not))
        .clicked()
    {
        action = Some(FormAction::LoadAll);
    }
    if ui
        .add_enabled(results.loading, egui::Button::new("Cancel"))
        .clicked()
    {
        action = Some(FormAction::Cancel);
    }
    if results.has_more && results.form_changed {
        ui.weak(why_not);
    }
    action
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_more_and_load_all_say_why_they_are_off() {
        let before_any = ResultsState {
            not_run: true,
            ..ResultsState::default()
        };
        assert!(page_why_not(&before_any, "changed").starts_with("Run the query or scan first"));
        let ended = ResultsState::default();
        assert!(page_why_not(&ended, "changed").starts_with("No more pages"));
        let changed = ResultsState {
            form_changed: true,
            ..ResultsState::default()
        };
        assert_eq!(page_why_not(&changed, "changed"), "changed");
    }
}
