//! Outcomes every whole program must say as `dynoscope` says them, in every runtime (Python,
//! JavaScript, TypeScript, Go, and bash with the AWS CLI for the like): a fractional tally's
//! exact drift; a like whose every send is throttled wrote nothing (exit 1, not unknown), and
//! one throttled once is sent again with its token and counted once.

use serde_json::Value;

use crate::common::runtimes::{
    Runtime, bash_runtime, document_runtime, electrodb_runtime, like_tally, printed_like, runtimes,
    text, toolbox_runtime,
};
use crate::common::{self, Fault, served::Served, served::succeeded};
use crate::programs::printed;

/// A tally stored as a fraction, or with an exponent at either end of DynamoDB's range, drifts
/// by the same exact decimal in every program as in `dynoscope check` (`225.25` beside 225
/// children: `0.25`; `1E+100`: a hundred digits ending `9775`; `-1E-130`: `-225.000…1`).
#[test]
fn a_fractional_tally_drifts_by_the_same_exact_decimal_everywhere() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let programs: Vec<(Runtime, String)> = runtimes()
        .into_iter()
        .chain([
            bash_runtime(),
            document_runtime(),
            toolbox_runtime(),
            electrodb_runtime(),
        ])
        .map(|runtime| {
            let mut args = vec!["--endpoint-url", &url, "check", "--table", "Social"];
            args.extend(common::LIKES_RULE);
            args.extend(["--pk", "POST#d71e", "--program", runtime.target]);
            let program = succeeded(&args).0;
            (runtime, program)
        })
        .collect();
    for stored in ["225.25", "1E+100", "-1E-130"] {
        let tally = format!(r#"{{"N":"{stored}"}}"#);
        let set = common::served::dynoscope(&[
            "--endpoint-url",
            &url,
            "partiql",
            "UPDATE \"Social\" SET likeTally = ? WHERE PK = ? AND SK = ?",
            "--param",
            &tally,
            "--param",
            r#"{"S":"POST#d71e"}"#,
            "--param",
            r#"{"S":"META"}"#,
        ]);
        assert!(set.status.success(), "{}", text(&set.stderr));
        let mut args = vec!["--endpoint-url", &url, "check", "--table", "Social"];
        args.extend(common::LIKES_RULE);
        args.extend(["--pk", "POST#d71e", "--output", "jsonl"]);
        let checked: Value =
            serde_json::from_slice(&common::served::dynoscope(&args).stdout).unwrap();
        if stored == "225.25" {
            assert_eq!(checked["drift"], "0.25");
        }
        for (runtime, program) in &programs {
            let out = runtime.run("fraction", program, &[]);
            assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
            let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(
                printed["drift"], checked["drift"],
                "{} {stored}",
                runtime.target
            );
        }
    }
}

#[test]
fn a_like_throttled_at_every_send_wrote_nothing_and_one_throttled_once_counts_once() {
    let served = Served::new();
    let bash = bash_runtime();
    let libraries = [document_runtime(), toolbox_runtime(), electrodb_runtime()];
    for runtime in runtimes().into_iter().chain([bash]).chain(libraries) {
        let before = like_tally(&served);
        let user = format!("USER#throttled-{}", runtime.target);
        let like = |url: &str| printed_like(runtime.target, &user, url, None);
        let proxy = served.fault(&["TransactWriteItems"], Fault::Throttle(3));
        let out = runtime.run(
            "throttled",
            &like(&proxy.url.replace("127.0.0.1", "localhost")),
            &[],
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}: {stderr}", runtime.target);
        assert!(
            stderr.contains("throttled, nothing was written"),
            "{stderr}"
        );
        assert_eq!(
            like_tally(&served),
            before,
            "{}: nothing written",
            runtime.target
        );
        let proxy = served.fault(&["TransactWriteItems"], Fault::Throttle(1));
        let out = runtime.run(
            "throttled-once",
            &like(&proxy.url.replace("127.0.0.1", "localhost")),
            &[],
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{}: {stderr}", runtime.target);
        assert!(
            stderr.contains("was answered ThrottlingException"),
            "{stderr}"
        );
        assert_eq!(
            like_tally(&served),
            before + 1,
            "{}: counted once",
            runtime.target
        );
    }
}

/// An endpoint where nothing listens: every program says nothing was sent (exit 2), never an
/// unknown outcome.
#[test]
fn a_program_that_cannot_connect_says_nothing_was_sent() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://localhost:{port}");
    // The like is written where its table can be described, then aimed where nothing listens.
    let served = Served::new();
    let served_url = served.url().replace("127.0.0.1", "localhost");
    let bash = bash_runtime();
    let libraries = [document_runtime(), toolbox_runtime(), electrodb_runtime()];
    for runtime in runtimes().into_iter().chain([bash]).chain(libraries) {
        let counter = printed(runtime.target, ("1", "1000000"), &url, true);
        let like = printed_like(runtime.target, "USER#nobody", &served_url, None)
            .replace(&served_url, &url);
        for (name, program) in [("dead-counter", counter), ("dead-like", like)] {
            let out = runtime.run(name, &program, &[]);
            let stderr = text(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{} {name}: {stderr}",
                runtime.target
            );
            assert!(
                stderr.contains("not sent"),
                "{} {name}: {stderr}",
                runtime.target
            );
        }
    }
}

/// A like program stamps `likedAt` with the moment it runs, not the moment it was written.
#[test]
fn a_like_program_stamps_liked_at_when_it_runs() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    let secs = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    };
    let bash = bash_runtime();
    let libraries = [document_runtime(), toolbox_runtime(), electrodb_runtime()];
    for runtime in runtimes().into_iter().chain([bash]).chain(libraries) {
        let user = format!("USER#stamped-{}", runtime.target);
        let program = printed_like(runtime.target, &user, &url, None);
        let written = secs();
        // The next second at least: a stamp of the moment of writing is then told apart.
        std::thread::sleep(std::time::Duration::from_millis(1100));
        let out = runtime.run("stamped", &program, &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            runtime.target,
            text(&out.stderr)
        );
        let child = served.item("Social", "POST#a91f", &format!("LIKE#{user}"));
        let child: Value = serde_json::from_str(child.trim()).unwrap();
        let liked_at = child["likedAt"].as_u64().unwrap();
        assert!(
            liked_at > written,
            "{}: likedAt {liked_at}, written at {written}",
            runtime.target
        );
    }
}

/// A write whose program's reader stopped reading (stdout closed before it prints): the write
/// applied once, and the program says so by its exit status (0), never a crash or a signal.
#[test]
fn a_closed_stdout_never_changes_an_applied_write() {
    let served = Served::new();
    let url = served.url().replace("127.0.0.1", "localhost");
    for runtime in
        runtimes()
            .into_iter()
            .chain([document_runtime(), toolbox_runtime(), electrodb_runtime()])
    {
        let before = common::served::play_count(&served).parse::<i64>().unwrap();
        let counter = printed(runtime.target, ("5", "1000000"), &url, true);
        let out = runtime.run_unread("unread-counter", &counter);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            runtime.target,
            text(&out.stderr)
        );
        let after = common::served::play_count(&served).parse::<i64>().unwrap();
        assert_eq!(after, before + 5, "{}: applied once", runtime.target);
        let likes = like_tally(&served);
        let user = format!("USER#unread-{}", runtime.target);
        let like = printed_like(runtime.target, &user, &url, None);
        let out = runtime.run_unread("unread-like", &like);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            runtime.target,
            text(&out.stderr)
        );
        assert_eq!(
            like_tally(&served),
            likes + 1,
            "{}: liked once",
            runtime.target
        );
    }
}
