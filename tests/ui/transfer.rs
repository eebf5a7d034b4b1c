//! Import / Export: a CSV previewed with its columns' types (one changed and read again), a
//! dry run, the import through the gateway, a malformed file refused whole then its other line
//! imported with the bad one skipped to `FILE.rejected`, an export folder's
//! files read and left out, and exports (a tab's, a whole table's) that ask before replacing a
//! file.

use std::fmt::Write as _;

use dynoscope_core::connection::ConnectionSpec;
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable};

use crate::*;

fn open_transfer(h: &mut egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>) {
    step_until(h, "the views", |h| has_label(h, "Import / Export"));
    h.get_by_role_and_label(Role::Button, "Import / Export")
        .click();
    step_until(h, "the import form", |h| has_label(h, "File to import"));
}

/// A malformed line in a file in `dir`: named, and nothing written; skipped, the file is read
/// again, the line listed and kept aside, and the other item imported.
fn a_malformed_line_is_named_then_skipped(
    h: &mut egui_kittest::Harness<'_, dynoscope_app::DynoscopeApp>,
    dir: &std::path::Path,
) {
    // A malformed line: named, and nothing written.
    let bad = dir.join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"PK\":{\"S\":\"POST#b1\"},\"SK\":{\"S\":\"META\"}}\n{\"PK\": oops}\n",
    )
    .unwrap();
    replace_text(h, "File to import", &bad.display().to_string());
    h.get_by_role_and_label(Role::Button, "Read and check")
        .click();
    step_until(h, "the refusal", |h| {
        has_label_containing(h, "bad.jsonl: line 2: not valid JSON")
    });
    assert!(has_label(
        h,
        "Nothing was written. Skip invalid lines imports the others."
    ));
    // Skipping it: the file is read again, the line listed, and the other imported.
    h.get_by_role_and_label(Role::CheckBox, "Skip invalid lines")
        .click();
    step_until(h, "the skipped line", |h| {
        has_label(h, "1 line not items DynamoDB would take, skipped:")
    });
    assert!(has_label_containing(h, "bad.jsonl: line 2: not valid JSON"));
    assert!(has_label_containing(
        h,
        "bad.jsonl.rejected (fix them there"
    ));
    h.get_by_role_and_label(Role::Button, "Import 1 item")
        .click();
    step_until(h, "the import", |h| {
        has_label_containing(h, "import: 1 read, 1 invalid line skipped, 1 written")
    });
    let rejected = std::fs::read_to_string(dir.join("bad.jsonl.rejected")).unwrap();
    assert!(
        rejected.ends_with("# line 2: not valid JSON: expected value (column 8)\n{\"PK\": oops}\n"),
        "{rejected}"
    );
}

#[test]
fn a_csv_is_previewed_typed_dry_run_then_imported() {
    let dir = std::env::temp_dir().join(format!("dynoscope-ui-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("fixture.csv");
    std::fs::write(
        &csv,
        "PK,SK,title,zip\nPOST#imp1,META,Hola,28001\nPOST#imp2,META,\"a, b\",8001\nPOST#imp3,META,x,123\n",
    )
    .unwrap();
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    open_transfer(h);
    type_into(h, "File to import", &csv.display().to_string());
    h.get_by_role_and_label(Role::Button, "Read and check")
        .click();
    step_until(h, "the preview", |h| {
        has_label_containing(h, "3 items read from")
    });
    assert!(has_label(
        h,
        "line 2: {\"PK\":\"POST#imp1\",\"SK\":\"META\",\"title\":\"Hola\",\"zip\":28001}"
    ));
    assert!(has_label(h, "N"), "zip read as a number");
    // zip is a code, not a number: read it as S.
    let combos: Vec<_> = h
        .query_all_by(|n| n.value().as_deref() == Some("read as: by its text"))
        .collect();
    assert_eq!(combos.len(), 4, "one per column");
    combos[3].click();
    step_until(h, "the column's types", |h| {
        has_label(h, "S (text as written)")
    });
    h.get_by_label("S (text as written)").click();
    h.step();
    h.get_by_role_and_label(Role::Button, "Read and check")
        .click();
    step_until(h, "the typed preview", |h| {
        has_label(
            h,
            "line 2: {\"PK\":\"POST#imp1\",\"SK\":\"META\",\"title\":\"Hola\",\"zip\":\"28001\"}",
        )
    });
    h.get_by_role_and_label(Role::Button, "Dry run").click();
    step_until(h, "the dry run", |h| {
        has_label(h, "dry run: 3 items read and checked; nothing was written")
    });
    h.get_by_role_and_label(Role::Button, "Import 3 items")
        .click();
    step_until(h, "the import", |h| {
        has_label_containing(
            h,
            "import: 3 read, 3 written, 0 refused, 0 unknown, 0 not sent",
        )
    });

    a_malformed_line_is_named_then_skipped(h, &dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_whole_table_is_exported_in_a_parallel_scan() {
    let (path, picker) = saving_to("videos-export.jsonl");
    let mut app = start_with_picker(
        ConnectionSpec::Sandbox { db_path: None },
        Some("Videos"),
        Some(picker.clone()),
    );
    let h = &mut app.harness;
    open_transfer(h);
    h.get_by_role_and_label(Role::Button, "Export table…")
        .click();
    step_until(h, "the export", |h| has_label_containing(h, "items to"));
    assert_eq!(
        picker.suggested.lock().unwrap().as_slice(),
        ["Videos.jsonl"]
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let lines = text.lines().count();
    assert!(
        has_label_containing(h, &format!("Exported {lines} items to")),
        "{lines}"
    );
    assert!(
        text.contains("\"play_count\":{\"N\":\"41\"}")
            || text.contains("\"play_count\": {\"N\": \"41\"}"),
        "{}",
        &text[..200]
    );
    std::fs::remove_file(&path).unwrap();
}

/// The files of `dir` other than `keep`: temporary files left beside an export.
fn leftovers(dir: &std::path::Path, keep: &std::path::Path) -> Vec<String> {
    let prefix = format!(".{}", keep.file_name().unwrap().to_string_lossy());
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(&prefix))
        .collect()
}

#[test]
fn a_tab_export_to_a_file_that_exists_asks_before_replacing_it() {
    let (path, picker) = saving_to("replace-me.jsonl");
    std::fs::write(&path, "mine\n").unwrap();
    let mut app = start_with_picker(
        ConnectionSpec::Sandbox { db_path: None },
        Some("Social"),
        Some(picker.clone()),
    );
    let h = &mut app.harness;
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    let question = format!("Replace {}?", path.display());
    export_dynamodb_json(h);
    step_until(h, "the question", |h| has_label(h, &question));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "mine\n",
        "asked first"
    );
    // The status bar has its own Cancel (of a load), off while nothing loads.
    h.query_all_by_role_and_label(Role::Button, "Cancel")
        .find(|b| !b.accesskit_node().is_disabled())
        .expect("the question's Cancel")
        .click();
    step_until(h, "the file kept", |h| {
        has_label_containing(h, "was kept as it was; nothing exported.")
    });
    assert!(!has_label(h, &question));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine\n");

    export_dynamodb_json(h);
    step_until(h, "the question again", |h| has_label(h, &question));
    h.get_by_role_and_label(Role::Button, "Replace").click();
    step_until(h, "the export", |h| {
        has_label_containing(h, "Exported 4 items to")
    });
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(leftovers(path.parent().unwrap(), &path).is_empty());
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_table_export_to_a_file_that_exists_asks_before_replacing_it() {
    let (path, picker) = saving_to("videos-replace.jsonl");
    std::fs::write(&path, "mine\n").unwrap();
    let mut app = start_with_picker(
        ConnectionSpec::Sandbox { db_path: None },
        Some("Videos"),
        Some(picker.clone()),
    );
    let h = &mut app.harness;
    open_transfer(h);
    let question = format!("Replace {}?", path.display());
    h.get_by_role_and_label(Role::Button, "Export table…")
        .click();
    step_until(h, "the question", |h| has_label(h, &question));
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    step_until(h, "the file kept", |h| {
        has_label_containing(h, "was kept as it was; nothing exported.")
    });
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine\n");
    h.get_by_role_and_label(Role::Button, "Export table…")
        .click();
    step_until(h, "the question again", |h| has_label(h, &question));
    h.get_by_role_and_label(Role::Button, "Replace").click();
    step_until(h, "the export", |h| has_label_containing(h, "items to"));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("play_count"), "{text}");
    assert!(leftovers(path.parent().unwrap(), &path).is_empty());
    std::fs::remove_file(&path).unwrap();
}

#[cfg(unix)]
#[test]
fn an_export_folder_shows_the_files_read_and_those_left_out() {
    let dir = std::env::temp_dir().join(format!("dynoscope-ui-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let line = |pk: &str| {
        format!("{{\"Item\":{{\"PK\":{{\"S\":\"{pk}\"}},\"SK\":{{\"S\":\"META\"}}}}}}\n")
    };
    std::fs::write(data.join("a.json"), line("POST#ui1")).unwrap();
    std::fs::write(data.join("b.json"), line("POST#ui2") + &line("POST#ui3")).unwrap();
    std::os::unix::fs::symlink(".", data.join("loop")).unwrap();
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    open_transfer(h);
    type_into(h, "File to import", &dir.display().to_string());
    h.get_by_role_and_label(Role::Button, "Read and check")
        .click();
    step_until(h, "the preview", |h| {
        has_label_containing(h, "3 items read from")
    });
    assert!(has_label(h, "Read 2 files"));
    assert!(has_label(
        h,
        &format!("{} (1 item)", data.join("a.json").display())
    ));
    assert!(has_label(
        h,
        &format!("{} (2 items)", data.join("b.json").display())
    ));
    assert!(has_label(
        h,
        &format!(
            "skipped {}: a link to a folder, not followed",
            data.join("loop").display()
        )
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_import_of_likes_says_the_tally_it_leaves_behind_before_writing() {
    let dir =
        std::env::temp_dir().join(format!("dynoscope-ui-import-tally-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("likes.jsonl");
    let mut likes = String::new();
    for i in 0..30 {
        writeln!(
            likes,
            "{{\"PK\":{{\"S\":\"POST#a91f\"}},\"SK\":{{\"S\":\"LIKE#USER#imp{i}\"}}}}"
        )
        .unwrap();
    }
    std::fs::write(&file, likes).unwrap();
    let mut app = start(ConnectionSpec::Sandbox { db_path: None }, Some("Social"));
    let h = &mut app.harness;
    query_partition(h, "POST#a91f");
    step_until(h, "the results", |h| has_label(h, "LIKE#USER#7c20"));
    // The counter rule, from the suggestion.
    h.get_by_role_and_label(Role::Button, "Tally check").click();
    step_until(h, "the suggestion", |h| has_label(h, "Use"));
    h.get_by_role_and_label(Role::Button, "Use").click();
    step_until(h, "the rule", |h| has_label(h, "Check"));
    open_transfer(h);
    type_into(h, "File to import", &file.display().to_string());
    h.get_by_role_and_label(Role::Button, "Read and check")
        .click();
    step_until(h, "the preview", |h| {
        has_label_containing(h, "30 items read from")
    });
    assert!(has_label(
        h,
        "30 `LIKE#` children for 1 parent, their tallies `likeTally` unchanged: they drift by up to +30 (a child already stored is replaced, not added)"
    ));
    assert!(has_label(h, "  POST#a91f / META: +30"));
    std::fs::remove_dir_all(&dir).unwrap();
}
