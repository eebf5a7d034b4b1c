//! What the app offers where a newcomer looks: the sample on the sandbox's first screen, and
//! ±1 on a counter but not on a time.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable};

use crate::*;

/// The sandbox's first screen offers the sample's places; one click opens the table on its
/// partition.
#[test]
fn the_first_screen_offers_the_sample_and_opens_it() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, None);
    let h = &mut app.harness;
    step_until(h, "the sample offered", |h| {
        has_label(h, "POST#3b0c in Social") && has_label(h, "VID#c0de in Videos")
    });
    assert!(has_label(
        h,
        "drifted -2: two children put without their tally"
    ));
    h.get_by_label("POST#3b0c in Social").click();
    step_until(h, "the drifted post read", |h| {
        has_label(h, "LIKE#USER#052f") && h.query_all_by_label("POST#3b0c").count() > 3
    });
}

/// A number that holds a time (`likedAt`) is not offered ±1; a counter is.
#[test]
fn a_time_is_not_offered_plus_one_and_a_counter_is() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(2000.0, 800.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    let time = h
        .query_all_by(|n| {
            n.label().or_else(|| n.value()).is_some_and(|l| {
                l.len() == 10 && l.starts_with("175") && l.bytes().all(|b| b.is_ascii_digit())
            })
        })
        .next()
        .map(|n| {
            let node = n.accesskit_node();
            node.label()
                .or_else(|| node.value())
                .unwrap_or_default()
                .clone()
        })
        .expect("a likedAt cell");
    h.get_by_label(&time).click_secondary();
    step_until(h, "the menu", |h| has_label(h, "Copy item as JSON"));
    assert!(
        has_label_containing(h, "holds a time, not a counter"),
        "the menu of {time}"
    );
    assert!(!has_label_containing(h, "(ADD)"));
    h.key_press(egui::Key::Escape);
    h.step();
    // The likeTally cell (the row number 3 is a label too).
    let threes = h.query_all_by_label("3").count();
    let offered = (0..threes).any(|i| {
        h.query_all_by_label("3").nth(i).unwrap().click_secondary();
        h.step();
        h.step();
        let found = has_label(h, "+1 on likeTally (ADD)");
        h.key_press(egui::Key::Escape);
        h.step();
        found
    });
    assert!(offered, "a counter is offered +1");
}

/// The item's Numbers panel offers ±1 and Edit on a counter, never on a time.
#[test]
fn the_numbers_panel_offers_plus_one_on_a_counter_and_not_on_a_time() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#a91f");
    step_until(h, "the META row", |h| has_label(h, "META"));
    h.get_by_label("META").click();
    step_until(h, "the counter editor", |h| has_label(h, "Numbers"));
    // META holds two numbers: likeTally (a counter) and createdAt (epoch seconds).
    assert!(has_label(h, "createdAt") && has_label(h, "likeTally"));
    assert!(has_label(h, "a time, not a counter"), "createdAt is a time");
    let plus = h.query_all_by_role_and_label(Role::Button, "+1").count();
    let edit = h.query_all_by_role_and_label(Role::Button, "Edit").count();
    assert_eq!((plus, edit), (1, 1), "±1 and Edit on likeTally alone");
}
