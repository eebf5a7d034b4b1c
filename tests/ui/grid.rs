//! The grid and result tabs: sort by a header, find, keyboard and copy, tabs that keep their
//! rows across table switches, and a PartiQL tab.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use crate::*;

/// A key pressed with `modifiers` in one frame, so that what it copies is that frame's output.
fn press(
    h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>,
    modifiers: Modifiers,
    key: Key,
) {
    h.event(egui::Event::Key {
        key,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers,
    });
}

fn top_of(h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>, label: &str) -> f32 {
    h.get_by_label(label).rect().top()
}

#[test]
fn sorts_by_a_header_finds_and_copies() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    // Server order: the likes, then META.
    assert!(top_of(h, "LIKE#USER#19be") < top_of(h, "META"));

    h.get_by_role_and_label(Role::Button, "SK").click();
    step_until(h, "ascending", |h| {
        h.query_by_role_and_label(Role::Button, "SK asc").is_some()
    });
    h.get_by_role_and_label(Role::Button, "SK asc").click();
    step_until(h, "descending", |h| {
        h.query_by_role_and_label(Role::Button, "SK desc").is_some()
    });
    assert!(
        top_of(h, "META") < top_of(h, "LIKE#USER#e4d2")
            && top_of(h, "LIKE#USER#e4d2") < top_of(h, "LIKE#USER#7c20")
            && top_of(h, "LIKE#USER#7c20") < top_of(h, "LIKE#USER#19be"),
        "descending by SK"
    );

    // Ctrl+F, type, only matching rows.
    h.key_press_modifiers(Modifiers::COMMAND, Key::F);
    step_until(h, "the find bar", |h| has_label(h, "Only matching rows"));
    h.get_by_label("Find").type_text("7C20");
    step_until(h, "one match", |h| has_label(h, "row 1 of 1 matching"));
    h.get_by_role_and_label(Role::CheckBox, "Only matching rows")
        .click();
    step_until(h, "the filter", |h| {
        has_label_containing(h, "1 shown (find filter)")
    });
    assert!(!has_label(h, "META"), "rows without the text are hidden");
    h.get_by_role_and_label(Role::Button, "Close find").click();
    step_until(h, "every row again", |h| has_label(h, "META"));

    // Click a cell, move down with the keyboard, copy the cell; Shift+Down and copy rows.
    h.get_by_label("META").click();
    h.step();
    h.key_press(Key::ArrowDown);
    h.step();
    press(h, Modifiers::COMMAND, Key::C);
    h.step();
    assert_eq!(copied(h), ["LIKE#USER#e4d2"], "the cell under the cursor");
    h.step();
    h.key_press_modifiers(Modifiers::SHIFT, Key::ArrowDown);
    h.step();
    press(h, Modifiers::COMMAND, Key::C);
    h.step();
    let tsv = copied(h);
    assert_eq!(tsv.len(), 1);
    let lines: Vec<&str> = tsv[0].lines().collect();
    assert_eq!(lines.len(), 3, "a header and two rows: {tsv:?}");
    assert!(lines[0].starts_with("PK\tSK\t"), "{tsv:?}");
    assert!(lines[1].starts_with("POST#a91f\tLIKE#USER#e4d2"), "{tsv:?}");
    h.step();
    press(h, Modifiers::COMMAND | Modifiers::SHIFT, Key::C);
    h.step();
    let json = copied(h);
    assert!(json[0].starts_with('['), "{json:?}");
    assert!(json[0].contains("\"SK\": \"LIKE#USER#7c20\""), "{json:?}");
}

#[test]
fn tabs_keep_their_rows_across_tables() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#a91f");
    step_until(h, "the Social rows", |h| has_label(h, "LIKE#USER#7c20"));

    h.get_by_label("Videos").click();
    step_until(h, "a Videos tab", |h| has_label(h, "Tab Videos"));
    assert!(
        !has_label(h, "LIKE#USER#7c20"),
        "the Videos tab has its own rows"
    );
    query_partition(h, "VID#9f3a");
    step_until(h, "the Videos rows", |h| has_label(h, "STATS#TOTAL"));

    // Back to the Social tab: its query and rows are still there, not run again.
    h.get_by_label("Tab Social").click();
    step_until(h, "the Social rows again", |h| {
        has_label(h, "LIKE#USER#7c20")
    });
    let pk = h.get_by_label("PK (S) =").value().unwrap_or_default();
    assert_eq!(pk, "POST#a91f");

    // Ctrl+T opens a tab on the open table; Ctrl+W closes it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::T);
    step_until(h, "a new tab", |h| has_label(h, "Tab Social_2 · Social"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::W);
    step_until(h, "the tab closed", |h| {
        !has_label(h, "Tab Social_2 · Social")
    });
    // The tab shown next may be on the other table, which is described again first.
    step_until(h, "the Videos tab still there", |h| {
        has_label(h, "Tab Videos")
    });
    // The tabs are remembered (their queries, not their rows).
    let names: Vec<String> = h
        .state()
        .remembered()
        .tabs
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert_eq!(names, ["Social", "Videos"]);
}

#[test]
fn a_partiql_tab_reads_pages_and_writes_through_the_gateway() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    step_until(h, "the tabs", |h| has_label(h, "+ PartiQL"));
    h.get_by_role_and_label(Role::Button, "+ PartiQL").click();
    step_until(h, "the statement", |h| {
        has_label(h, "Statement (Ctrl+Enter runs)")
    });
    type_into(
        h,
        "Statement (Ctrl+Enter runs)",
        r#"SELECT * FROM "Social" WHERE PK = ?"#,
    );
    type_into(
        h,
        "Parameters (DynamoDB JSON, one per line, for each ? in order)",
        r#"{"S": "POST#a91f"}"#,
    );
    type_into(h, "Page size", "2");
    h.get_by_role_and_label(Role::Button, "Run statement")
        .click();
    step_until(h, "the first page", |h| {
        has_label_containing(h, "2 items · 1 page")
    });
    h.get_by_role_and_label(Role::Button, "Load all").click();
    step_until(h, "every page", |h| has_label_containing(h, "4 items · "));
    assert!(has_label(h, "META") && has_label(h, "LIKE#USER#7c20"));
    // Its rows open read-only: a statement's rows may come from any table, so the counter
    // editor (which writes to the open table) is not offered.
    h.get_by_label("META").click();
    step_until(h, "the item view", |h| has_label(h, "Item JSON"));
    assert!(
        !has_label(h, "Numbers"),
        "no counter editor for a statement's rows"
    );
    assert!(has_label_containing(
        h,
        "not from a table tab on the open table"
    ));

    // An UPDATE is a write plan: on the sandbox it is sent at once and reported.
    h.get_by_label("Statement (Ctrl+Enter runs)").focus();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.step();
    h.get_by_label("Statement (Ctrl+Enter runs)")
        .type_text(r#"UPDATE "Social" SET note = 'checked' WHERE PK = ? AND SK = 'META'"#);
    h.step();
    h.get_by_role_and_label(Role::Button, "Run statement")
        .click();
    step_until(h, "the outcome", |h| {
        has_label_containing(h, "UPDATE applied")
    });
    // Each statement's rows replace the last one's: the SELECT's are gone.
    assert!(
        !has_label(h, "LIKE#USER#7c20"),
        "no rows of the SELECT before"
    );
    h.get_by_label("Statement (Ctrl+Enter runs)").focus();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.step();
    h.get_by_label("Statement (Ctrl+Enter runs)").type_text(
        r#"UPDATE "Social" SET note = 'again' WHERE PK = ? AND SK = 'META' RETURNING ALL NEW *"#,
    );
    h.step();
    h.get_by_role_and_label(Role::Button, "Run statement")
        .click();
    step_until(h, "the item returned", |h| has_label(h, "META"));
    assert!(
        has_label_containing(h, "1 item · 1 page"),
        "one item, not the two statements' rows"
    );
}

#[test]
fn an_sql_tab_reconciles_the_loaded_rows() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    step_until(h, "the query form", |h| has_label(h, "Scan"));
    h.get_by_role_and_label(Role::Button, "Scan").click();
    step_until(h, "the scan form", |h| has_label(h, "Run scan"));
    h.get_by_role_and_label(Role::Button, "Run scan").click();
    step_until(h, "the first page", |h| {
        has_label_containing(h, "more pages available")
    });
    h.get_by_role_and_label(Role::Button, "Load all").click();
    step_until(h, "every page", |h| {
        has_label_containing(h, "all pages loaded")
    });

    h.get_by_role_and_label(Role::Button, "+ SQL").click();
    step_until(h, "the SQL tab", |h| has_label(h, "Run SQL"));
    assert!(
        has_label_containing(h, "Social ("),
        "the Social tab is a table"
    );
    // A bad statement: the error names its place, nothing else happens.
    type_into(
        h,
        "SQL (Ctrl+Enter runs)",
        "SELECT PK FROM Social\nWHERE nope ===",
    );
    h.get_by_role_and_label(Role::Button, "Run SQL").click();
    step_until(h, "the error", |h| has_label_containing(h, "line 2"));

    h.get_by_role_and_label(Role::Button, "Insert example")
        .click();
    step_until(h, "the examples", |h| {
        has_label(h, "Reconcile like tallies with counted likes")
    });
    h.get_by_role_and_label(Role::Button, "Reconcile like tallies with counted likes")
        .click();
    step_until(h, "the example in the editor", |h| {
        !has_label(h, "Reconcile like tallies with counted likes")
    });
    h.get_by_role_and_label(Role::Button, "Run SQL").click();
    step_until(h, "the drifted posts", |h| has_label(h, "POST#d71e"));
    for post in ["POST#3b0c", "POST#77f1", "POST#d71e"] {
        assert!(has_label(h, post), "{post} drifted");
    }
    assert!(
        !has_label(h, "POST#a91f"),
        "a post that agrees is not listed"
    );
}

#[test]
fn a_parallel_scan_reads_every_segment_once() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    step_until(h, "the query form", |h| has_label(h, "Scan"));
    h.get_by_role_and_label(Role::Button, "Scan").click();
    step_until(h, "the segments field", |h| has_label(h, "Segments"));
    // The bound every front end takes, in the core's words; then the cost check of the CLI.
    for (typed, words) in [
        ("1001", "segments `1001`: a whole number from 1 to 1000"),
        ("200", "where 1 segment can read it all; ask for fewer"),
    ] {
        replace_text(h, "Segments", typed);
        h.get_by_role_and_label(Role::Button, "Run scan").click();
        step_until(h, words, |h| has_label_containing(h, words));
    }
    replace_text(h, "Segments", "4");
    h.step();
    h.get_by_role_and_label(Role::Button, "Run scan").click();
    step_until(h, "every segment", |h| {
        has_label_containing(h, "all pages loaded")
    });
    // The sandbox's Videos table holds 12 items: each read once, whatever the segments.
    assert!(has_label_containing(h, "12 items"), "every item once");
    assert!(
        !has_label_containing(h, "more pages"),
        "nothing left to resume"
    );
}

/// Whether the label `text` is drawn wholly inside the window (the grid's rows and columns are
/// virtual: a cell far down or far right is not drawn at all until scrolled to).
fn in_view(h: &egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>, text: &str) -> bool {
    h.query_all_by_label(text).any(|n| {
        let r = n.rect();
        r.left() >= 0.0 && r.right() <= 1280.0 && r.top() >= 0.0 && r.bottom() <= 800.0
    })
}

#[test]
fn find_as_you_type_scrolls_down_and_sideways_to_its_match_which_is_the_open_item() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#d71e");
    step_until(h, "the results", |h| has_label_containing(h, "226 items"));
    let title = "Counting likes without COUNT(*)";
    assert!(!in_view(h, title), "META is row 226, its title far right");
    h.key_press_modifiers(Modifiers::COMMAND, Key::F);
    step_until(h, "the find bar", |h| has_label(h, "Only matching rows"));
    // Typed a letter at a time, as a user does.
    for letter in "counting li".chars() {
        h.get_by_label("Find").type_text(&letter.to_string());
        h.step();
    }
    step_until(h, "the match in view, down and sideways", |h| {
        in_view(h, title)
    });
    assert!(has_label(h, "row 1 of 1 matching"));
    assert!(
        has_label_containing(h, "\"updatedAt\""),
        "the match is the item open below"
    );
    // Esc (the field has the keyboard) closes the bar; the item stays open.
    h.key_press(Key::Escape);
    step_until(h, "the bar closed", |h| !has_label(h, "Only matching rows"));
    assert!(has_label_containing(h, "\"updatedAt\""));
    // Esc again closes the item.
    h.key_press(Key::Escape);
    step_until(h, "the item closed", |h| {
        !has_label_containing(h, "\"updatedAt\"")
    });
}
