//! Whole programs copied from the app and run as they are by Python (and Go, and Node.js with
//! dynamodb-toolbox) against the app's own sandbox: the like from the Like lab, the reconcile
//! from the Tally check, the Numbers panel's ADD.

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;

use crate::*;

/// Run `code` with Python (boto3 from the test tools on the PATH): (exit status, stdout,
/// stderr).
fn python(code: &str) -> (Option<i32>, String, String) {
    let out = std::process::Command::new("python3")
        .args(["-c", code])
        .env_remove("AWS_PROFILE")
        .output()
        .expect("python3 runs (scripts/test.sh puts boto3 on the PATH)");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// Build and run Go `code` offline with Debian's SDK (GOPATH mode), as gofmt writes it:
/// (exit status, stdout, stderr).
fn go(name: &str, code: &str) -> (Option<i32>, String, String) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ui-programs-go");
    std::fs::create_dir_all(&dir).expect("a folder");
    let file = dir.join(format!("{name}.go"));
    std::fs::write(&file, code).expect("written");
    let gofmt = std::process::Command::new("gofmt")
        .arg("-l")
        .arg(&file)
        .output();
    assert!(
        gofmt.is_ok_and(|o| o.status.success() && o.stdout.is_empty()),
        "gofmt: {code}"
    );
    let out = std::process::Command::new("sh")
        .args(["-c", "go build -o \"$0.bin\" \"$0\" && exec \"$0.bin\""])
        .arg(&file)
        .env("GO111MODULE", "off")
        .env("GOPATH", "/usr/share/gocode")
        .env("GOPROXY", "off")
        .env("GOCACHE", dir.join("cache"))
        .env_remove("AWS_PROFILE")
        .output()
        .expect("go runs (scripts/test.sh names golang-go and Debian's SDK)");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// Run `code` with Node.js and dynamodb-toolbox from npm (installed under the target folder):
/// (exit status, stdout, stderr).
fn toolbox(code: &str) -> (Option<i32>, String, String) {
    let dir = common::npm::installed(
        "expr-toolbox",
        &[
            "@aws-sdk/client-dynamodb@3",
            "@aws-sdk/lib-dynamodb@3",
            "dynamodb-toolbox@2",
        ],
    );
    let file = dir.join("ui-program.mjs");
    std::fs::write(&file, code).expect("written");
    let out = std::process::Command::new("node")
        .arg(&file)
        .current_dir(&dir)
        .env_remove("AWS_PROFILE")
        .output()
        .expect("node runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// The Numbers panel card's "Copy as program" menu, open, until it shows `label`.
fn open_program_menu(h: &mut Harness<'_, DynoscopeApp>, label: &str) {
    click_shown(h, "Copy as program");
    step_until(h, "the menu", |h| {
        h.query_by_role_and_label(Role::Button, label).is_some()
    });
}

/// The like just sent, copied as a program: a fresh token, so run again it is a second like
/// of the same user, cancelled with its reasons; the tally does not move.
#[test]
fn the_like_lab_copies_a_like_as_a_program_that_runs() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1400.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label_containing(h, "items ·"));
    h.get_by_role_and_label(Role::Button, "Like lab").click();
    step_until(h, "the like lab", |h| {
        has_label(h, "Like and unlike by hand")
    });
    h.get_by_role_and_label(Role::Button, "Like").click();
    step_until(h, "the like", |h| has_label_containing(h, "Committed · "));
    h.get_by_role_and_label(Role::Button, "Copy as boto3 program")
        .click();
    h.step();
    let texts = copied(h);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(
        texts[0].contains("TOKEN = str(uuid.uuid4())"),
        "{}",
        texts[0]
    );
    let (status, _, stderr) = python(&texts[0]);
    assert_eq!(status, Some(1), "{stderr}");
    assert!(
        stderr.contains(
            r#"already liked; nothing was written; reasons: ["ConditionalCheckFailed", "None"]"#
        ),
        "{stderr}"
    );
}

/// The reconcile of the whole table, copied from the Tally check as a program: run, it prints
/// the sandbox's seeded drifts and exits 1.
#[test]
fn the_tally_check_copies_the_reconcile_as_a_program_that_runs() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    h.set_size(egui::vec2(1280.0, 1600.0));
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| has_label(h, "Use"));
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the reconcile form", |h| has_label(h, "Reconcile"));
    h.get_by_role_and_label(Role::Button, "Copy as boto3 program")
        .click();
    h.step();
    let texts = copied(h);
    assert_eq!(texts.len(), 1, "{texts:?}");
    step_until(h, "the note", |h| {
        has_label_containing(h, "save it as reconcile.py and run: pip install boto3")
    });
    let (status, stdout, stderr) = python(&texts[0]);
    assert_eq!(status, Some(1), "{stderr}");
    for drift in [
        r#"{"pk": "POST#3b0c", "stored": "272", "counted": "274", "drift": "-2"}"#,
        r#"{"pk": "POST#77f1", "stored": null, "counted": "298", "drift": null}"#,
        r#"{"pk": "POST#d71e", "stored": "226", "counted": "225", "drift": "1"}"#,
    ] {
        assert!(stdout.lines().any(|l| l == drift), "{drift} in {stdout}");
    }
    // The same reconcile in Go: the same three parents, the same exit.
    h.get_by_role_and_label(Role::Button, "Copy as Go program")
        .click();
    h.step();
    let texts = copied(h);
    assert_eq!(texts.len(), 1, "{texts:?}");
    let (status, go_out, stderr) = go("reconcile", &texts[0]);
    assert_eq!(status, Some(1), "{stderr}");
    let go_lines: Vec<String> = go_out
        .lines()
        .map(|l| l.replace(",\"", ", \"").replace("\":", "\": "))
        .collect();
    assert_eq!(
        go_lines,
        stdout.lines().map(str::to_owned).collect::<Vec<_>>()
    );
}

/// The Numbers panel's +1, copied as a program: run, it adds 1 again and prints the server's
/// new value.
#[test]
fn the_numbers_panel_copies_its_add_as_a_program_that_runs() {
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Videos"));
    let h = &mut app.harness;
    open_stats_row(h);
    h.get_by_role_and_label(Role::Button, "+1").click();
    step_until(h, "the result card", |h| has_label(h, "41 → 42"));
    open_program_menu(h, "Copy as boto3 program");
    h.get_by_role_and_label(Role::Button, "Copy as boto3 program")
        .click();
    h.step();
    let texts = copied(h);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].contains("total_max_attempts"), "{}", texts[0]);
    let (status, stdout, stderr) = python(&texts[0]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stdout.trim(), r#"{"play_count": {"N": "43"}}"#);
    // The same ADD with dynamodb-toolbox: `$add(1)`, the server's value printed.
    open_program_menu(h, "Copy as dynamodb-toolbox program");
    h.get_by_role_and_label(Role::Button, "Copy as dynamodb-toolbox program")
        .click();
    h.step();
    let texts = copied(h);
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].contains("$add(1)"), "{}", texts[0]);
    let (status, stdout, stderr) = toolbox(&texts[0]);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stdout.trim(), r#"{"play_count":44}"#);
}
