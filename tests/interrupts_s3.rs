//! Ctrl-C while a read waits on a server that does not answer: an S3 object's GET
//! (`check --from-export s3://…`) and a DescribeExport (`table export` following the export it
//! started). Each run stops at the signal, not at the end of its
//! request's timeout (600 s here) or the stall's (two minutes): it ends within a minute.

use std::time::Duration;

use crate::common::files::{cli, scratch};
use crate::common::moto::{moto_connection, table_with};
use crate::common::{Fault, LIKES_RULE, fault_proxy};
use crate::interrupts::Watched;
use crate::s3_export::social_export;

/// Send SIGINT to `run` once `begun` holds; how it ended.
fn interrupted(mut run: Watched, begun: impl Fn() -> bool) -> (Option<i32>, String, String) {
    run.until("the request under way", |_| begun());
    run.interrupt();
    assert!(
        run.ends_within(Duration::from_mins(1)),
        "ended at the signal"
    );
    run.finish()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_interrupt_stops_a_stalled_s3_read_and_a_describe_export_never_answered() {
    let (moto, connection) = moto_connection().await;
    let table = table_with(&connection, "Stalled", 0).await;
    let dir = scratch("interrupt-s3");
    let gz = social_export(&dir);
    let s3 = connection.s3();
    s3.create_bucket().bucket("stall").send().await.unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for (i, part) in lines.chunks(lines.len().div_ceil(3)).enumerate() {
        let body = (part.join("\n") + "\n").into_bytes();
        let key = format!("split/data/part-{i}.json");
        s3.put_object()
            .bucket("stall")
            .key(key)
            .body(body.into())
            .send()
            .await
            .unwrap();
    }

    // The second object's GET is never answered.
    let stalled = fault_proxy(moto.addr(), &[], Fault::NeverAnswer("part-1")).await;
    let mut args = vec!["--timeout", "600", "check", "--table", &table];
    args.extend(LIKES_RULE);
    args.extend(["--from-export", "s3://stall/split"]);
    let run = Watched::of(cli(&stalled.url, &args));
    let (code, out, err) =
        tokio::task::spawn_blocking(move || interrupted(run, || stalled.arrived() > 0))
            .await
            .unwrap();
    assert_eq!(code, Some(2), "{out}{err}");
    assert!(err.contains("GetObject cancelled"), "{err}");

    // The export starts; following it, DescribeExport is never answered.
    let silent = fault_proxy(moto.addr(), &["DescribeExport"], Fault::SilentBeforeApply).await;
    let args = ["--timeout", "600", "table", "export", "--table", &table];
    let args: Vec<&str> = args
        .into_iter()
        .chain(["--to", "s3://stall/exported", "--enable-pitr"])
        .collect();
    let run = Watched::of(cli(&silent.url, &args));
    let (code, out, err) =
        tokio::task::spawn_blocking(move || interrupted(run, || silent.arrived() > 0))
            .await
            .unwrap();
    assert_eq!(code, Some(0), "the export was started: {out}{err}");
    assert!(out.contains("stopped following"), "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
