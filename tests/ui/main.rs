//! UI tests: the real app on the embedded sandbox, driven by role and label with egui_kittest,
//! one module per feature; the harness and its helpers are here.

#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code: a failed unwrap is a failed test"
)]

#[expect(
    dead_code,
    reason = "the test binaries share these helpers, each using a part"
)]
#[path = "../common/mod.rs"]
mod common;

mod admin;
mod browse;
mod columns;
mod connection;
mod edit;
mod environments;
mod expr;
mod grid;
mod in_step;
mod items;
mod likes;
mod offers;
mod palette;
mod programs;
mod s3;
mod size;
mod small;
mod stale;
mod tally;
mod transfer;
mod watch;

use std::time::{Duration, Instant};

use dynoscope_app::{DynoscopeApp, Remembered, SavePicker, Saver};
use dynoscope_core::connection::{ConnectOptions, ConnectionSpec};
use dynoscope_core::saved::QueryStore;
use dynoscope_core::task::Spawner;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};

pub struct App {
    // Dropped after the harness: the app's tasks need the runtime until the end.
    pub harness: Harness<'static, DynoscopeApp>,
    _runtime: tokio::runtime::Runtime,
}

pub fn start(spec: ConnectionSpec, remembered_table: Option<&str>) -> App {
    start_with_picker(spec, remembered_table, None)
}

/// The app as `dynoscope --read-only` starts it.
pub fn start_read_only(spec: ConnectionSpec, remembered_table: Option<&str>) -> App {
    let options = ConnectOptions {
        read_only: true,
        ..Default::default()
    };
    start_with(spec, remembered_table, None, options)
}

pub fn start_with_picker(
    spec: ConnectionSpec,
    remembered_table: Option<&str>,
    picker: Option<std::sync::Arc<dyn SavePicker>>,
) -> App {
    start_with(spec, remembered_table, picker, ConnectOptions::default())
}

fn start_with(
    spec: ConnectionSpec,
    remembered_table: Option<&str>,
    picker: Option<std::sync::Arc<dyn SavePicker>>,
    options: ConnectOptions,
) -> App {
    let remembered = Remembered {
        table: remembered_table.map(str::to_owned),
        ..Remembered::default()
    };
    start_remembering(spec, remembered, picker, options)
}

/// The app as a run before left it: `remembered` (its tabs, table, layouts).
/// # Panics
/// When its runtime cannot be built.
pub fn start_remembering(
    spec: ConnectionSpec,
    remembered: Remembered,
    picker: Option<std::sync::Arc<dyn SavePicker>>,
    options: ConnectOptions,
) -> App {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("ui-test-worker")
        .enable_all()
        .build()
        .unwrap();
    let spawner = Spawner::new(runtime.handle().clone(), || {});
    let mut app = DynoscopeApp::new(spawner, spec, options, remembered);
    // Saved queries go to a folder of the test's own, never the user's config folder.
    let saver = picker.map_or_else(Saver::default, Saver::new);
    app = app.with_saver(saver.with_queries(QueryStore::new(query_dir())));
    let harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut DynoscopeApp| app.ui(ui), app);
    App {
        harness,
        _runtime: runtime,
    }
}

/// A folder of saved queries for one test app.
pub fn query_dir() -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!("dynoscope-ui-queries-{}-{n}", std::process::id()))
}

/// Step the app until `found` holds: background answers arrive in their own time.
/// # Panics
/// After 90 s without it, saying what is on screen.
pub fn step_until(
    harness: &mut Harness<'_, DynoscopeApp>,
    what: &str,
    found: impl Fn(&Harness<'_, DynoscopeApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        harness.step();
        if found(harness) {
            harness.step();
            return;
        }
        if Instant::now() >= deadline {
            // Say what is on screen, so that a failure can be read without a rerun.
            let mut shown: Vec<String> = harness
                .query_all_by(|n| n.label().is_some() || n.value().is_some())
                .filter_map(|n| {
                    let node = n.accesskit_node();
                    node.label().or_else(|| node.value())
                })
                .collect();
            // The end of the screen is where an answer usually appears.
            shown.drain(..shown.len().saturating_sub(80));
            panic!("timed out waiting for {what}; on screen: {shown:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn has_label(harness: &Harness<'_, DynoscopeApp>, label: &str) -> bool {
    harness.query_all_by_label(label).next().is_some()
}

pub fn has_label_containing(harness: &Harness<'_, DynoscopeApp>, part: &str) -> bool {
    // A multi-line label carries its text as the node's value.
    harness
        .query_all_by(|n| {
            n.label().is_some_and(|l| l.contains(part))
                || n.value().is_some_and(|v| v.contains(part))
        })
        .next()
        .is_some()
}

pub fn query_partition(harness: &mut Harness<'_, DynoscopeApp>, pk: &str) {
    step_until(harness, "the query form", |h| has_label(h, "PK (S) ="));
    let field = harness.get_by_label("PK (S) =");
    field.focus();
    field.type_text(pk);
    harness.step();
    harness
        .get_by_role_and_label(Role::Button, "Run query")
        .click();
    harness.step();
}

pub struct FakePicker {
    answer: Option<std::path::PathBuf>,
    pub suggested: std::sync::Mutex<Vec<String>>,
}

impl FakePicker {
    /// A picker that answers `answer` to every question.
    pub fn answering(answer: Option<std::path::PathBuf>) -> Self {
        Self {
            answer,
            suggested: std::sync::Mutex::default(),
        }
    }
}

impl SavePicker for FakePicker {
    fn pick_save_path(&self, suggested_name: &str) -> Option<std::path::PathBuf> {
        self.suggested
            .lock()
            .unwrap()
            .push(suggested_name.to_owned());
        self.answer.clone()
    }

    fn pick_open_path(&self) -> Option<std::path::PathBuf> {
        self.answer.clone()
    }
}

pub fn export_dynamodb_json(h: &mut Harness<'_, DynoscopeApp>) {
    h.get_by_label("Export…").click();
    step_until(h, "the export menu", |h| {
        has_label(h, "DynamoDB JSON lines (.jsonl)")
    });
    h.get_by_label("DynamoDB JSON lines (.jsonl)").click();
}

pub fn copied(h: &Harness<'_, DynoscopeApp>) -> Vec<String> {
    h.output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

pub fn type_into(h: &mut Harness<'_, DynoscopeApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.step();
    h.get_by_label(label).type_text(text);
    h.step();
}

/// A sandbox the test reaches too, to change data behind the app's back. The runtime serves it
/// and must outlive the app.
pub struct Outside {
    pub runtime: tokio::runtime::Runtime,
    pub sandbox: dynoscope_core::sandbox::Sandbox,
    pub client: aws_sdk_dynamodb::Client,
    /// A connection of the test's own to it, for core's reads.
    pub connection: dynoscope_core::connection::Connection,
}

/// A sandbox of its own, reached as [`Outside`].
/// # Panics
/// When it cannot start.
pub fn outside_sandbox() -> Outside {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (sandbox, client, connection) = runtime.block_on(async {
        let sandbox = dynoscope_core::sandbox::Sandbox::start(None, 0)
            .await
            .unwrap();
        let client = common::sdk_client(sandbox.endpoint());
        let connection =
            common::connect_to(sandbox.endpoint(), std::time::Duration::from_secs(10)).await;
        (sandbox, client, connection)
    });
    Outside {
        runtime,
        sandbox,
        client,
        connection,
    }
}

/// A connection to `url` as an endpoint (not the sandbox: writes ask first).
pub fn endpoint(url: &str) -> ConnectionSpec {
    ConnectionSpec::Endpoint {
        url: url.to_owned(),
        profile: None,
        region: None,
    }
}

/// A picker that saves to a temporary file named after `name`: the path, and the picker.
pub fn saving_to(name: &str) -> (std::path::PathBuf, std::sync::Arc<FakePicker>) {
    let path = std::env::temp_dir().join(format!("dynoscope-{}-{name}", std::process::id()));
    let picker = std::sync::Arc::new(FakePicker {
        answer: Some(path.clone()),
        suggested: std::sync::Mutex::default(),
    });
    (path, picker)
}

/// Query VID#9f3a in Videos and open its STATS#TOTAL row in the counter editor.
pub fn open_stats_row(h: &mut Harness<'_, DynoscopeApp>) {
    query_partition(h, "VID#9f3a");
    step_until(h, "the stats row", |h| has_label(h, "STATS#TOTAL"));
    h.get_by_label("STATS#TOTAL").click();
    step_until(h, "the counter editor", |h| has_label(h, "Numbers"));
}

/// Replace the text of the field labelled `label` with `text`.
pub fn replace_text(h: &mut Harness<'_, DynoscopeApp>, label: &str, text: &str) {
    h.get_by_label(label).focus();
    h.step();
    h.key_press(egui::Key::End);
    for _ in 0..120 {
        h.key_press(egui::Key::Backspace);
    }
    h.step();
    h.get_by_label(label).type_text(text);
    h.step();
}

/// A TCP endpoint that accepts connections and never answers; its URL, and how many
/// connections it has taken.
/// # Panics
/// When no local port can be had.
pub fn silent_endpoint() -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let arrived = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = arrived.clone();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for stream in listener.incoming() {
            counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            held.push(stream);
        }
    });
    (url, arrived)
}

/// Credentials for endpoints not on this machine, which get no dummy ones: set once, before
/// any app of this process resolves credentials. The SDK reads the environment through
/// `std::env`, whose lock makes this safe against its readers.
#[expect(
    unsafe_code,
    reason = "set_var is unsafe where another thread may read the environment; see SAFETY below"
)]
pub fn remote_credentials() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: only std::env readers (the SDK's) run concurrently, and std::env serialises
        // them with set_var.
        unsafe {
            std::env::set_var("AWS_ACCESS_KEY_ID", "test");
            std::env::set_var("AWS_SECRET_ACCESS_KEY", "test");
            std::env::set_var("AWS_EC2_METADATA_DISABLED", "true");
        }
    });
}

/// Scroll the button `label` into view (as a user scrolls up to it), then click it.
pub fn click_shown(h: &mut Harness<'_, DynoscopeApp>, label: &str) {
    h.get_by_role_and_label(Role::Button, label).scroll_to_me();
    // The scroll area takes the request in one pass and moves in a later one (in an inner
    // scroll area, the third): four passes, then the button is where it is drawn.
    for _ in 0..4 {
        h.step();
    }
    h.get_by_role_and_label(Role::Button, label).click();
}

/// Select the row labelled `row` in the grid, open the Table view's Delete items on the one
/// selected row and count it (a dry run).
pub fn count_the_selected_row(h: &mut Harness<'_, DynoscopeApp>, row: &str) {
    h.get_by_label(row).click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Table").click();
    step_until(h, "the table read", |h| has_label(h, "Delete items"));
    h.get_by_label("Delete items").click();
    step_until(h, "the selected row offered", |h| {
        has_label(h, "The 1 selected rows")
    });
    h.get_by_label("The 1 selected rows").click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Count (dry run)")
        .click();
}

/// The attribute `name` of the item at `pk` / `sk` in `table`, as the server holds it (a
/// consistent read), in text.
/// # Panics
/// When the read fails or finds no item.
pub fn stored(outside: &Outside, table: &str, (pk, sk): (&str, &str), name: &str) -> String {
    use aws_sdk_dynamodb::types::AttributeValue;
    outside.runtime.block_on(async {
        let item = outside
            .client
            .get_item()
            .table_name(table)
            .key("PK", AttributeValue::S(pk.into()))
            .key("SK", AttributeValue::S(sk.into()))
            .consistent_read(true)
            .send()
            .await
            .unwrap()
            .item
            .unwrap();
        dynoscope_core::value::cell_text(&item[name])
    })
}
