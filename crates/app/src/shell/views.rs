//! The row above the central view: which view is shown (Browse, Tally check, Watch, Like lab,
//! Expressions) and the theme.

use egui::Ui;

use crate::scope::Scope;
use crate::shell::{TableFeatures, Theme, View};

/// The theme menu; `true` when the choice changed.
pub(super) fn theme_ui(ui: &mut Ui, theme: &mut Theme) -> bool {
    let before = *theme;
    // Drawn right to left: the menu first, so that its label stands before it.
    let menu = egui::ComboBox::from_id_salt("theme")
        .selected_text(theme.label())
        .show_ui(ui, |ui| {
            for choice in Theme::ALL {
                ui.selectable_value(theme, choice, choice.label());
            }
        })
        .response;
    let label = ui.label("Theme");
    menu.labelled_by(label.id);
    *theme != before
}

/// Show `to`, coming from `from`. The parent of a counter is picked once and carried: the one
/// the view left showed (the partition queried in Browse, the parent checked, liked or
/// watched) is the one the Tally check, the Like lab and the Watch open on; each of them keeps
/// what was typed in it otherwise, and a watch under way keeps its own. The Like lab and the
/// Watch also take the tally check's rule in use.
pub(super) fn go_to(view: &mut View, from: View, to: View, features: &mut TableFeatures) {
    *view = to;
    let parent = match from {
        View::Browse => features.browse.partition().to_owned(),
        View::Tally => features.tally.partition().to_owned(),
        View::Likes => features.likes.parent().to_owned(),
        View::Watch => features.watch.parent().to_owned(),
        View::Items | View::Expr | View::Transfer | View::Table | View::Compare => String::new(),
    };
    let parent = parent.trim();
    match to {
        View::Tally => features.tally.carry(parent, features.browse.partition()),
        View::Likes => {
            let rule = features.tally.rule_in_use();
            features
                .likes
                .carry(parent, features.browse.partition(), rule);
        }
        View::Watch => {
            let rule = features.tally.rule_in_use();
            features
                .watch
                .carry(parent, features.browse.partition(), rule);
        }
        View::Compare => features.compare.carry(features.browse.partition()),
        View::Browse | View::Items | View::Expr | View::Transfer | View::Table => {}
    }
}

/// The tabs of the central view, drawn into the caller's (wrapping) row; a tab opened from
/// another one starts from what it shows.
pub(super) fn view_tabs_ui(
    ui: &mut Ui,
    view: &mut View,
    features: &mut TableFeatures,
    scope: &Scope<'_>,
) {
    ui.selectable_value(view, View::Browse, "Browse");
    let staged = features.items.staged_count(Some(scope));
    let items = if staged == 0 {
        "Items".to_owned()
    } else {
        format!("Items ({staged} staged)")
    };
    ui.selectable_value(view, View::Items, items);
    let before = *view;
    ui.selectable_value(view, View::Tally, "Tally check");
    ui.selectable_value(view, View::Watch, "Watch");
    ui.selectable_value(view, View::Likes, "Like lab");
    // Compare runs on another open connection: its tab shows once there is one (Ctrl+K's Go
    // to Compare says how to open one).
    if !scope.others.is_empty() || *view == View::Compare {
        ui.selectable_value(view, View::Compare, "Compare");
    }
    if *view != before {
        let chosen = *view;
        go_to(view, before, chosen, features);
    }
    ui.selectable_value(view, View::Expr, "Expressions");
    ui.selectable_value(view, View::Transfer, "Import / Export");
    ui.selectable_value(view, View::Table, "Table");
}
