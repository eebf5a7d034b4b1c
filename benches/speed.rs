//! Speed goals, measured (run with `cargo bench --bench speed`):
//! - the results grid stays smooth with 100,000 rows (frame time independent of row count);
//! - adding pages of rows to the grid is cheap;
//! - the sandbox seeds in under 2 s.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope::core::read::{BrowseMode, BrowseRequest, Page};
use dynoscope::ui::browse::{Results, results_grid_ui};

fn item(i: usize) -> HashMap<String, AttributeValue> {
    HashMap::from([
        ("PK".to_owned(), AttributeValue::S("POST#f00d".into())),
        (
            "SK".to_owned(),
            AttributeValue::S(format!("LIKE#USER#{i:06}")),
        ),
        (
            "likedAt".to_owned(),
            AttributeValue::N((1_750_636_800 + i).to_string()),
        ),
        (
            "GSI1PK".to_owned(),
            AttributeValue::S(format!("USER#{i:06}")),
        ),
        (
            "GSI1SK".to_owned(),
            AttributeValue::S("LIKE#POST#f00d".into()),
        ),
        (
            "big".to_owned(),
            AttributeValue::N("12345678901234567890123456789012345678".into()),
        ),
    ])
}

fn results_with(rows: usize) -> (Results, Duration) {
    let request = BrowseRequest {
        table: "Social".into(),
        index: None,
        mode: BrowseMode::Scan { segment: None },
        filter: Vec::new(),
        page_size: None,
        count_only: false,
        partition_name: "PK".into(),
        sort_name: Some("SK".into()),
    };
    let mut results = Results::default();
    results.start(request, vec!["PK".into(), "SK".into()], None);
    let pages: Vec<Page> = (0..rows)
        .collect::<Vec<_>>()
        .chunks(5_000)
        .map(|chunk| Page {
            items: chunk.iter().map(|i| item(*i)).collect(),
            ..Page::default()
        })
        .collect();
    let started = Instant::now();
    for page in pages {
        results.add_page(page);
    }
    (results, started.elapsed())
}

/// Mean time of one frame (layout and tessellation) of the grid, over `frames` frames.
fn frame_time(results: &mut Results, frames: u32) -> Duration {
    let ctx = egui::Context::default();
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        ..Default::default()
    };
    let run = |results: &mut Results| {
        let out = ctx.run_ui(input(), |ui| {
            egui::CentralPanel::default().show(ui, |ui| results_grid_ui(ui, results, false));
        });
        let mut out = out;
        out.textures_delta.clear();
        let _ = ctx.tessellate(out.shapes, out.pixels_per_point);
    };
    for _ in 0..5 {
        run(results);
    }
    let started = Instant::now();
    for _ in 0..frames {
        run(results);
    }
    started.elapsed() / frames
}

fn main() {
    for rows in [1_000, 100_000] {
        let (mut results, ingest) = results_with(rows);
        let frame = frame_time(&mut results, 60);
        println!(
            "grid {rows:>7} rows: {:>7.3} ms/frame (goal < 16 ms), pages added in {:>7.1} ms",
            frame.as_secs_f64() * 1e3,
            ingest.as_secs_f64() * 1e3
        );
    }
    let db = dynoxide::Database::memory().expect("engine");
    let started = Instant::now();
    let report = dynoscope::core::seed::seed(&db).expect("seed");
    println!(
        "seed: {} items in {:.0} ms (goal < 2000 ms)",
        report.items,
        started.elapsed().as_secs_f64() * 1e3
    );
}
