//! The form's page buttons — Run, Load more, Load all (or Resume), Cancel — and the folded
//! form: the query in one line with those buttons, so a short window keeps its rows for the
//! grid.

use egui::Ui;

use crate::core::table::TableInfo;
use crate::ui::browse::form::{FormAction, QueryForm, ResultsState};

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
pub fn page_buttons_ui(ui: &mut Ui, scan: bool, results: &ResultsState) -> Option<FormAction> {
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
    let all_label = if results.stopped {
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

/// The form folded into one line: what it reads, a way to open it, and the page buttons.
#[must_use]
pub fn folded_form_ui(
    ui: &mut Ui,
    form: &QueryForm,
    info: &TableInfo,
    results: &ResultsState,
) -> Option<FormAction> {
    let mut action = None;
    ui.horizontal_wrapped(|ui| {
        if ui
            .button("Edit the query")
            .on_hover_text("Show the whole form: key, sort condition, filters, page size")
            .clicked()
        {
            action = Some(FormAction::Unfold);
        }
        ui.label(form.line(info));
        ui.separator();
        if let Some(asked) = page_buttons_ui(ui, form.scan, results) {
            action = Some(asked);
        }
    });
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
