//! Loaded rows at scale (run with `cargo bench --bench rows`; `ROWS=100000` for a quick run):
//! - memory the row store holds per row, above the items' own DynamoDB size (goal ≤ 400 B);
//! - grid frame time (layout and tessellation) at 1,000 and 1,000,000 rows (goal ≤ 16 ms);
//! - sort by a column and find over all rows (goal ≤ 300 ms each);
//! - items loaded into the grid per second from the sandbox, beside the AWS CLI and a boto3
//!   paginator scanning the same table (goal: 3× the AWS CLI, 1.5× boto3). The AWS CLI and
//!   boto3 run when they are installed; otherwise their line says so.

#![expect(
    clippy::expect_used,
    reason = "bench code: a failed unwrap is a failed measurement"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::process::Command;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_app::browse::{Results, results_grid_ui};
use dynoscope_core::read::{self, BrowseMode, BrowseRequest, Page, Until};
use dynoscope_core::rows::{Finder, find_rows, sort_rows};

/// Counts the bytes allocated and not yet freed.
struct Counting;

static HELD: AtomicIsize = AtomicIsize::new(0);

#[expect(
    unsafe_code,
    reason = "a global allocator is an unsafe trait: each method hands the call to the system allocator as it came, and only counts"
)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        HELD.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// An item shaped like the sandbox's likes, about 160 bytes.
fn like(i: usize) -> HashMap<String, AttributeValue> {
    HashMap::from([
        (
            "PK".to_owned(),
            AttributeValue::S(format!("POST#{:04x}", i % 5000)),
        ),
        (
            "SK".to_owned(),
            AttributeValue::S(format!("LIKE#USER#{i:08x}")),
        ),
        (
            "likedAt".to_owned(),
            AttributeValue::N((1_750_636_800 + i).to_string()),
        ),
        (
            "GSI1PK".to_owned(),
            AttributeValue::S(format!("USER#{i:08x}")),
        ),
        (
            "GSI1SK".to_owned(),
            AttributeValue::S(format!("LIKE#POST#{:04x}", i % 5000)),
        ),
        (
            "device".to_owned(),
            AttributeValue::S("android-app-v3.14.2".to_owned()),
        ),
        (
            "weight".to_owned(),
            AttributeValue::N("12345678901234567890.123456789012345678".to_owned()),
        ),
    ])
}

/// DynamoDB's size of an item: names plus values (numbers about one byte per two digits).
fn dynamodb_size(item: &HashMap<String, AttributeValue>) -> usize {
    item.iter()
        .map(|(name, value)| {
            name.len()
                + match value {
                    AttributeValue::S(s) => s.len(),
                    AttributeValue::N(n) => n.len().div_ceil(2) + 1,
                    _ => 1,
                }
        })
        .sum()
}

fn request() -> BrowseRequest {
    BrowseRequest {
        table: "Bench".into(),
        index: None,
        mode: BrowseMode::Scan { segment: None },
        filter: Vec::new(),
        filter_any: false,
        page_size: None,
        count_only: false,
        partition_name: "PK".into(),
        sort_name: Some("SK".into()),
    }
}

/// Load `rows` likes into a result tab page by page (6,000 items a page, as 1 MB pages hold);
/// the bytes the tab holds afterwards and the items' own size.
fn loaded(rows: usize) -> (Results, isize, usize, Duration) {
    let mut results = Results::default();
    results.start(request(), vec!["PK".into(), "SK".into()], None);
    let before = HELD.load(Ordering::Relaxed);
    let mut own = 0;
    let started = Instant::now();
    let mut elapsed = Duration::ZERO;
    let mut i = 0;
    while i < rows {
        let n = 6_000.min(rows - i);
        let items: Vec<_> = (i..i + n).map(like).collect();
        own += items.iter().map(dynamodb_size).sum::<usize>();
        let add = Instant::now();
        results.add_page(Page {
            items,
            ..Page::default()
        });
        elapsed += add.elapsed();
        i += n;
    }
    let _ = started;
    let held = HELD.load(Ordering::Relaxed) - before;
    (results, held, own, elapsed)
}

/// Mean time of one frame (layout and tessellation) of the grid, scrolling, over `frames`.
fn frame_time(results: &mut Results, frames: u32) -> Duration {
    let ctx = egui::Context::default();
    let input = |scroll: f32| egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(
            egui::Pos2::ZERO,
            egui::vec2(1280.0, 800.0),
        )),
        events: vec![
            egui::Event::PointerMoved(egui::pos2(600.0, 400.0)),
            egui::Event::MouseWheel {
                unit: egui::MouseWheelUnit::Point,
                delta: egui::vec2(0.0, scroll),
                modifiers: egui::Modifiers::NONE,
                phase: egui::TouchPhase::Move,
                source: egui::MouseWheelSource::Wheel,
            },
        ],
        ..Default::default()
    };
    let run = |results: &mut Results, scroll: f32| {
        let mut out = ctx.run_ui(input(scroll), |ui| {
            egui::CentralPanel::default().show(ui, |ui| {
                let _ = results_grid_ui(ui, results, false, true);
            });
        });
        out.textures_delta.clear();
        let _ = ctx.tessellate(out.shapes, out.pixels_per_point);
    };
    for _ in 0..5 {
        run(results, 0.0);
    }
    let started = Instant::now();
    for _ in 0..frames {
        run(results, -400.0);
    }
    started.elapsed() / frames
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let rows: usize = std::env::var("ROWS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1_000_000);
    for n in [1_000, rows] {
        let (mut results, held, own, add) = loaded(n);
        let extra = (held as f64 - own as f64) / n as f64;
        println!(
            "{n:>9} rows: items' own size {:.0} B/row; store holds {:.0} B/row, {extra:.0} B/row above it (goal ≤ 400); pages added in {:.0} ms",
            own as f64 / n as f64,
            held as f64 / n as f64,
            ms(add)
        );
        let frame = frame_time(&mut results, 60);
        println!(
            "{n:>9} rows: grid frame {:.2} ms while scrolling (goal ≤ 16 ms)",
            ms(frame)
        );
        if n == rows {
            let all: Vec<u32> = (0..n as u32).collect();
            for column in ["SK", "likedAt", "weight"] {
                let mut view = all.clone();
                let started = Instant::now();
                sort_rows(&results.rows, &mut view, column, true);
                println!(
                    "{n:>9} rows: sort by {column} {:.0} ms (goal ≤ 300 ms)",
                    ms(started.elapsed())
                );
            }
            let finder = Finder::new("user#00000f42").expect("text");
            let started = Instant::now();
            let found = find_rows(&results.rows, &all, &finder);
            println!(
                "{n:>9} rows: find over all rows {:.0} ms, {} found (goal ≤ 300 ms)",
                ms(started.elapsed()),
                found.len()
            );
        }
    }
    load_speed();
}

/// A connection to `url`, as the app makes one.
async fn connect(url: &str) -> dynoscope_core::connection::Connection {
    let spec = dynoscope_core::connection::ConnectionSpec::Endpoint {
        url: url.to_owned(),
        profile: None,
        region: None,
    };
    dynoscope_core::connection::connect(spec)
        .await
        .expect("connects")
}

/// Items per second into a result tab from the sandbox's `Social` table, beside the AWS CLI and
/// boto3 reading the same table through the same endpoint.
fn load_speed() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let sandbox = runtime
        .block_on(dynoscope_core::sandbox::Sandbox::start(None, 0))
        .expect("sandbox");
    let endpoint = sandbox.endpoint().to_owned();
    let connection = runtime.block_on(connect(&endpoint));
    let client = connection.reader();
    let mut request = request();
    request.table = "Social".into();
    let started = Instant::now();
    let mut results = Results::default();
    results.start(request.clone(), vec!["PK".into(), "SK".into()], None);
    let mut pages = Vec::new();
    runtime
        .block_on(read::read_pages(
            &client,
            &request,
            None,
            Until::LastPage,
            &dynoscope_core::cancel::CancelToken::default(),
            |p| pages.push(p),
        ))
        .expect("scan");
    for page in pages {
        results.add_page(page);
    }
    let ours = started.elapsed();
    let items = results.rows.len();
    let rate = |d: Duration| items as f64 / d.as_secs_f64();
    println!(
        "load Social ({items} items): dynoscope {:.0} items/s ({:.0} ms)",
        rate(ours),
        ms(ours)
    );
    let env = [
        ("AWS_ACCESS_KEY_ID", "sandbox"),
        ("AWS_SECRET_ACCESS_KEY", "sandbox"),
        ("AWS_DEFAULT_REGION", "us-east-1"),
        ("AWS_EC2_METADATA_DISABLED", "true"),
    ];
    let timed = |program: &str, args: &[&str]| -> Option<Duration> {
        let started = Instant::now();
        let out = Command::new(program).args(args).envs(env).output().ok()?;
        out.status.success().then(|| started.elapsed())
    };
    let cli = timed(
        "aws",
        &[
            "dynamodb",
            "scan",
            "--table-name",
            "Social",
            "--endpoint-url",
            &endpoint,
            "--output",
            "json",
        ],
    );
    let boto = format!(
        "import boto3\nc = boto3.client('dynamodb', endpoint_url='{endpoint}')\nn = 0\n\
         for p in c.get_paginator('scan').paginate(TableName='Social'):\n    n += len(p['Items'])\nprint(n)"
    );
    let boto3 = timed("python3", &["-c", &boto]);
    for (name, took, goal) in [("AWS CLI", cli, 3.0), ("boto3", boto3, 1.5)] {
        match took {
            Some(d) => println!(
                "load Social: {name} {:.0} items/s ({:.0} ms); dynoscope is {:.1}× (goal ≥ {goal}×)",
                rate(d),
                ms(d),
                d.as_secs_f64() / ours.as_secs_f64()
            ),
            None => println!("load Social: {name} not installed or failed; not compared"),
        }
    }
}
