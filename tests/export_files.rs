//! An export never destroys, through the CLI as a real process: an existing file or a link is
//! refused unless --force, never written through, and the file lands whole or not at all.

use crate::common;

use std::collections::HashMap;
use std::path::Path;

use dynoscope_core::transfer::{self, Format};
use dynoscope_core::value::Item;

use common::empty_engine;
use common::files::{dynoscope, scratch, table};

#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_never_replaces_or_writes_through_a_file_unless_forced() {
    let engine = empty_engine().await;
    let url = engine.sandbox.endpoint().to_owned();
    let from = table(&engine, "files-export").await;
    common::put_all(
        &engine.client,
        &from,
        vec![Item::from([
            ("PK".to_owned(), common::s("POST#e")),
            ("SK".to_owned(), common::s("META")),
        ])],
    )
    .await;
    let dir = scratch("export");
    let out = dir.join("out.jsonl");
    let precious = dir.join("precious.txt");
    std::fs::write(&out, "mine\n").unwrap();
    std::fs::write(&precious, "precious\n").unwrap();
    let export = |path: &Path, force: bool| {
        let mut args = vec![
            "export".to_owned(),
            "--table".to_owned(),
            from.clone(),
            "--out".to_owned(),
            path.display().to_string(),
        ];
        if force {
            args.push("--force".to_owned());
        }
        args
    };
    let run = |args: Vec<String>| {
        let url = url.clone();
        async move {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            dynoscope(&url, &args).await
        }
    };
    let (code, _, err) = run(export(&out, false)).await;
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("out.jsonl exists; it was left as it is"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "mine\n");
    let (code, _, err) = run(export(&out, true)).await;
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("POST#e"));

    let link = dir.join("link.jsonl");
    std::os::unix::fs::symlink(&precious, &link).unwrap();
    let (code, _, err) = run(export(&link, false)).await;
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("link.jsonl is a symbolic link"), "{err}");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "precious\n");
    let (code, _, err) = run(export(&link, true)).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "precious\n");
    assert!(
        !std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );

    // A failed export (no such folder) leaves nothing, and none leaves a temporary file.
    let (code, _, err) = run(export(&dir.join("missing/out.jsonl"), false)).await;
    assert_eq!(code, 2, "{err}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["link.jsonl", "out.jsonl", "precious.txt"]);
    // Nor does one written to a gzip with --force over a file.
    let gz = dir.join("out.jsonl.gz");
    std::fs::write(&gz, "old").unwrap();
    let mut args = export(&gz, true);
    args.push("--gzip".to_owned());
    let (code, _, err) = run(args).await;
    assert_eq!(code, 0, "{err}");
    let read = transfer::read_file(&gz, Format::DynamoDbJsonLines, &HashMap::default()).unwrap();
    assert_eq!(read.len(), 1);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 4);
}
