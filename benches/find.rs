//! Find as you type at 1,000,000 rows (run with `cargo bench --bench find`; `ROWS=100000` for a
//! quick run): a text typed a letter at a time into a grid sorted by a number column, as the
//! app's frames run it (the find looks through its slice of rows, the grid is laid out and
//! tessellated). For each keystroke: the time until the first match is painted in the grid
//! (its cell's text among the frame's shapes: scrolled into view), and the slowest single frame
//! meanwhile (goal ≤ 50 ms each: the first match in view, and typing never waiting).

#![expect(
    clippy::unwrap_used,
    reason = "bench code: a failed unwrap is a failed measurement"
)]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_app::browse::{FIND_TIME_PER_FRAME, Results, results_grid_ui};
use dynoscope_core::read::{BrowseMode, BrowseRequest, Page};
use dynoscope_core::rows::{Finder, find_rows};

/// An item shaped like the sandbox's likes.
fn like(i: usize) -> HashMap<String, AttributeValue> {
    let s = |t: String| AttributeValue::S(t);
    HashMap::from([
        ("PK".to_owned(), s(format!("POST#{:04x}", i % 5000))),
        ("SK".to_owned(), s(format!("LIKE#USER#{i:08x}"))),
        (
            "n".to_owned(),
            AttributeValue::N(((i * 7919) % 1_000_003).to_string()),
        ),
        ("GSI1PK".to_owned(), s(format!("USER#{i:08x}"))),
        ("device".to_owned(), s("android-app-v3.14.2".to_owned())),
        ("name".to_owned(), s(format!("user{i}"))),
    ])
}

fn loaded(rows: usize) -> Results {
    let mut results = Results::default();
    let request = BrowseRequest {
        table: "Bench".into(),
        index: None,
        mode: BrowseMode::Scan { segment: None },
        filter: Vec::new(),
        filter_any: false,
        page_size: None,
        count_only: false,
        partition_name: "PK".into(),
        sort_name: Some("SK".into()),
    };
    results.start(request, vec!["PK".into(), "SK".into()], None);
    let mut i = 0;
    while i < rows {
        let n = 6_000.min(rows - i);
        results.add_page(Page {
            items: (i..i + n).map(like).collect(),
            ..Page::default()
        });
        i += n;
    }
    results
}

/// Every text painted in a frame.
fn texts(shapes: &[egui::epaint::ClippedShape]) -> Vec<String> {
    fn walk(shape: &egui::Shape, out: &mut Vec<String>) {
        match shape {
            egui::Shape::Text(text) => out.push(text.galley.text().to_owned()),
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for clipped in shapes {
        walk(&clipped.shape, &mut out);
    }
    out
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// One frame as the app runs it: the find's slice (after `keystroke`, the find's text now),
/// then the grid; how long it took and the texts painted.
fn frame(
    ctx: &egui::Context,
    results: &mut Results,
    keystroke: Option<&str>,
) -> (Duration, Vec<String>) {
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    let started = Instant::now();
    let mut out = ctx.run_ui(input(), |ui| {
        egui::CentralPanel::default().show(ui, |ui| {
            if let Some(text) = keystroke {
                results.set_find(text, false);
            }
            results.find_frame();
            let _ = results_grid_ui(ui, results, false, true);
        });
    });
    out.textures_delta.clear();
    let _ = ctx.tessellate(out.shapes.clone(), out.pixels_per_point);
    (started.elapsed(), texts(&out.shapes))
}

/// The `typed` text pasted at once: how long until its first match is in view.
fn pasted_at_once(ctx: &egui::Context, results: &mut Results, typed: &str) {
    // The same text pasted at once: no earlier find to narrow, every row looked at in turn.
    results.close_find();
    results.open_find();
    results.set_find("", false);
    let started = Instant::now();
    let (_, mut painted) = frame(ctx, results, Some(typed));
    let mut frames = 1;
    let name = typed.to_owned();
    while !painted.contains(&name) && frames < 200 {
        painted = frame(ctx, results, None).1;
        frames += 1;
    }
    println!(
        "  `{typed}` pasted at once: first match in view in {:.1} ms ({frames} frames)",
        ms(started.elapsed())
    );
}

fn main() {
    let rows: usize = std::env::var("ROWS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1_000_000);
    let mut results = loaded(rows);
    let started = Instant::now();
    results.toggle_sort("n");
    println!("{rows} rows: sort by n {:.0} ms", ms(started.elapsed()));
    let ctx = egui::Context::default();
    for _ in 0..3 {
        frame(&ctx, &mut results, None);
    }
    results.open_find();
    let typed = format!("user{}", rows * 4 / 5 + 4242);
    println!(
        "{rows} rows sorted by n, typing `{typed}` a letter at a time (at most {} ms of looking a frame):",
        FIND_TIME_PER_FRAME.as_millis()
    );
    let mut worst_first = Duration::ZERO;
    let mut worst_frame = Duration::ZERO;
    for end in 1..=typed.len() {
        let text = &typed[..end];
        // Where the first match is, by a search of every row in the order shown.
        let order: Vec<u32> = (0..results.view().len())
            .filter_map(|p| results.row_at(p).map(|r| r as u32))
            .collect();
        let expected = find_rows(&results.rows, &order, &Finder::new(text).unwrap())
            .first()
            .and_then(|&r| results.rows.value(r as usize, "name"))
            .map(|v| dynoscope_core::value::cell_text(&v));
        let started = Instant::now();
        let (took, mut painted) = frame(&ctx, &mut results, Some(text));
        let mut slowest = took;
        let mut frames = 1;
        let shown = |painted: &[String]| {
            expected
                .as_ref()
                .is_none_or(|name| painted.iter().any(|t| t == name))
        };
        while !shown(&painted) && frames < 200 {
            let (took, p) = frame(&ctx, &mut results, None);
            slowest = slowest.max(took);
            painted = p;
            frames += 1;
        }
        let first = started.elapsed();
        // The rest of the search (the full count) in later frames.
        while results.searching() {
            let (took, _) = frame(&ctx, &mut results, None);
            slowest = slowest.max(took);
        }
        worst_first = worst_first.max(first);
        worst_frame = worst_frame.max(slowest);
        println!(
            "  `{text}`: first match {} in {:.1} ms ({frames} frames), slowest frame {:.1} ms, {} matching",
            if shown(&painted) {
                "in view"
            } else {
                "NOT in view"
            },
            ms(first),
            ms(slowest),
            results.find().matches().len()
        );
    }
    pasted_at_once(&ctx, &mut results, &typed);
    println!(
        "{rows} rows: find as you type: first match in view within {:.1} ms of a keystroke at worst, slowest frame {:.1} ms (goal ≤ 50 ms each)",
        ms(worst_first),
        ms(worst_frame)
    );
}
