//! Ctrl+K: a view gone to by its words; a query saved with a `{variable}`, opened from the
//! palette with the variable asked for and run in a tab of its own; the history of what ran
//! found by a word.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use crate::*;

const SEARCH: &str = "Tables, views, saved queries and what ran: type a few letters";

fn palette(h: &mut egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>, text: &str) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::K);
    step_until(h, "the palette", |h| has_label(h, SEARCH));
    h.get_by_label(SEARCH).type_text(text);
    h.step();
    h.step();
}

#[test]
fn the_palette_goes_to_views_opens_saved_queries_with_variables_and_finds_what_ran() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    step_until(h, "the query form", |h| has_label(h, "PK (S) ="));
    palette(h, "import");
    assert!(has_label(h, "Go to Import / Export"));
    h.key_press(Key::Enter);
    step_until(h, "the import view", |h| has_label(h, "File to import"));
    assert!(!has_label(h, SEARCH), "closed once chosen");

    // A query of the likes of any post: its partition a variable.
    h.get_by_role_and_label(Role::Button, "Browse").click();
    step_until(h, "the query form", |h| has_label(h, "PK (S) ="));
    type_into(h, "PK (S) =", "POST#{post}");
    h.get_by_role_and_label(Role::Button, "Save query…").click();
    step_until(h, "the save form", |h| has_label(h, "Query name"));
    assert!(has_label_containing(
        h,
        "Asked for when it is opened: {post}."
    ));
    type_into(h, "Query name", "Likes of a post");
    h.get_by_role_and_label(Role::Button, "Save").click();
    step_until(h, "saved", |h| {
        has_label_containing(h, "likes-of-a-post.json")
    });
    // A long label carries its text as its value.
    let label: String = h
        .query_all_by(|n| n.value().is_some_and(|l| l.starts_with("Saved to ")))
        .next()
        .and_then(|n| n.value())
        .unwrap();
    let file = std::path::PathBuf::from(label.trim_start_matches("Saved to "));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("\"name\": \"Likes of a post\"") && text.contains("POST#{post}"),
        "{text}"
    );

    palette(h, "likes");
    assert!(has_label(h, "Saved: Likes of a post · asks {post}"));
    h.key_press(Key::Enter);
    step_until(h, "the variable asked", |h| has_label(h, "{post}"));
    type_into(h, "{post}", "a91f");
    h.get_by_role_and_label(Role::Button, "Open").click();
    step_until(h, "its tab, run", |h| has_label(h, "LIKE#USER#7c20"));
    assert!(has_label(h, "Tab Social_2 · Social"));

    // What ran is in the history, found by a word of it.
    palette(h, "a91f");
    assert!(has_label_containing(h, "Ran: Query Social = POST#a91f ·"));
    h.key_press(Key::Escape);
    step_until(h, "closed", |h| !has_label(h, SEARCH));
    std::fs::remove_dir_all(file.parent().unwrap()).unwrap();
}
