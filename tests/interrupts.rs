//! A signal can't change an outcome: every write interrupted by SIGINT or SIGTERM while it is
//! in flight stops what was not yet sent, waits for what was (within the timeout) and says it;
//! interrupted before a write leaves, nothing is sent; without an answer, the outcome is
//! unknown (3). Each test waits for the process to say it heard the signal: no sleeps.

use crate::common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};

use common::Fault;
use common::served::{Served, command, play_count};

/// A CLI process whose stderr is read as it comes (to know what it said, and when) and whose
/// stdout is read to its end.
pub(crate) struct Watched {
    child: Child,
    said: Arc<Mutex<String>>,
    stderr: std::thread::JoinHandle<()>,
    stdout: std::thread::JoinHandle<String>,
}

impl Watched {
    fn spawn(args: &[&str]) -> Self {
        Self::of(command(args))
    }

    /// `command`, started and watched.
    pub(crate) fn of(mut command: std::process::Command) -> Self {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts");
        let (out, err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
        let said = Arc::new(Mutex::new(String::new()));
        let heard = Arc::clone(&said);
        let stderr = std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                let mut all = heard.lock().unwrap();
                all.push_str(&line);
                all.push('\n');
            }
        });
        let stdout = std::thread::spawn(move || std::io::read_to_string(out).unwrap());
        Self {
            child,
            said,
            stderr,
            stdout,
        }
    }

    /// Wait until `ready` holds (a condition, never a time); a process that ended first is a
    /// failure with what it said.
    pub(crate) fn until(&mut self, what: &str, ready: impl Fn(&Self) -> bool) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_mins(2);
        while !ready(self) {
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                let said = self.said.lock().unwrap().clone();
                panic!("not {what} within two minutes: {said}");
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                let said = self.said.lock().unwrap().clone();
                panic!("ended with {status} before {what}: {said}");
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Send SIGINT, and wait until the process says it heard it.
    pub(crate) fn interrupt(&mut self) {
        let pid = i32::try_from(self.child.id()).unwrap();
        common::files::interrupt(pid);
        self.until("it heard the interrupt", |w| {
            w.said.lock().unwrap().contains("interrupted")
        });
    }

    /// Whether it ends within `deadline` (a bound, not a measure: it is killed if not).
    pub(crate) fn ends_within(&mut self, deadline: std::time::Duration) -> bool {
        let until = std::time::Instant::now() + deadline;
        while std::time::Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let _ = self.child.kill();
        false
    }

    /// Its status, stdout and stderr once it ended.
    pub(crate) fn finish(mut self) -> (Option<i32>, String, String) {
        let status = self.child.wait().unwrap();
        self.stderr.join().unwrap();
        let stdout = self.stdout.join().unwrap();
        let stderr = self.said.lock().unwrap().clone();
        (status.code(), stdout, stderr)
    }
}

/// A write of each kind, by the call it makes and its arguments.
const WRITES: [(&str, &[&str]); 5] = [
    (
        "UpdateItem",
        &[
            "add",
            "--table",
            "Videos",
            "--key",
            "PK=VID#9f3a",
            "--key",
            "SK=STATS#TOTAL",
            "--attr",
            "play_count",
            "--delta",
            "1",
        ],
    ),
    (
        "TransactWriteItems",
        &[
            "like",
            "--table",
            "Social",
            "--pk",
            "POST#a91f",
            "--user",
            "USER#sig",
        ],
    ),
    (
        "PutItem",
        &[
            "put",
            "--table",
            "Social",
            "--item",
            r#"{"PK":{"S":"SIG#1"},"SK":{"S":"A"}}"#,
        ],
    ),
    (
        "DeleteItem",
        &[
            "delete",
            "--table",
            "Social",
            "--key",
            "PK=POST#a91f",
            "--key",
            "SK=LIKE#USER#sig",
        ],
    ),
    (
        "ExecuteStatement",
        &[
            "partiql",
            r#"INSERT INTO "Social" VALUE {'PK': 'SIG#2', 'SK': 'A'}"#,
        ],
    ),
];

#[test]
fn an_interrupt_mid_write_waits_for_the_answer_and_says_it() {
    let served = Served::new();
    let before = play_count(&served);
    for (target, args) in WRITES {
        let targets: &'static [&'static str] = Box::leak(Box::new([target]));
        let proxy = served.fault(targets, Fault::Hold);
        let mut full = vec!["--endpoint-url", proxy.url.as_str()];
        full.extend(args);
        let mut child = Watched::spawn(&full);
        // The write is in flight, its answer held: now the signal.
        child.until("the writes in flight", |_| proxy.arrived() >= 1);
        child.interrupt();
        proxy.release();
        let (code, stdout, stderr) = child.finish();
        assert_eq!(code, Some(0), "{target}: {stdout}{stderr}");
        assert!(stderr.contains("interrupted"), "{target}: {stderr}");
        assert!(!stdout.is_empty(), "{target}: the outcome is said");
        assert_eq!(proxy.forwarded(), 1, "{target}: sent once");
    }
    let after: i64 = play_count(&served).parse().unwrap();
    assert_eq!(after, before.parse::<i64>().unwrap() + 1, "applied once");
    assert!(served.item("Social", "SIG#1", "A").contains("SIG#1"));
    assert!(served.item("Social", "SIG#2", "A").contains("SIG#2"));
    assert_eq!(
        served.item("Social", "POST#a91f", "LIKE#USER#sig"),
        "",
        "liked, then deleted"
    );
}

#[test]
fn an_interrupt_before_a_write_leaves_sends_nothing() {
    let served = Served::new();
    let before = play_count(&served);
    // The table's description is held: the signal comes before anything is written.
    let proxy = served.fault(&["DescribeTable"], Fault::Hold);
    let mut child = Watched::spawn(&[
        "--endpoint-url",
        &proxy.url,
        "add",
        "--table",
        "Videos",
        "--key",
        "PK=VID#9f3a",
        "--key",
        "SK=STATS#TOTAL",
        "--attr",
        "play_count",
        "--delta",
        "1",
    ]);
    child.until("the writes in flight", |_| proxy.arrived() >= 1);
    child.interrupt();
    proxy.release();
    let (code, stdout, stderr) = child.finish();
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("cancelled"), "{stderr}{stdout}");
    assert_eq!(play_count(&served), before, "nothing was sent");
}

#[test]
fn an_interrupt_without_an_answer_is_an_unknown_outcome() {
    let served = Served::new();
    let proxy = served.fault(&["UpdateItem"], Fault::SilentAfterApply);
    let mut child = Watched::spawn(&[
        "--endpoint-url",
        &proxy.url,
        "--timeout",
        "2",
        "add",
        "--table",
        "Videos",
        "--key",
        "PK=VID#9f3a",
        "--key",
        "SK=STATS#TOTAL",
        "--attr",
        "play_count",
        "--delta",
        "1",
    ]);
    child.until("the writes in flight", |_| proxy.arrived() >= 1);
    child.interrupt();
    let (code, stdout, stderr) = child.finish();
    assert_eq!(code, Some(3), "{stdout}{stderr}");
    assert!(stdout.contains("Outcome unknown"), "{stdout}");
    assert_eq!(proxy.arrived(), 1, "not sent again");
}

#[test]
fn an_interrupted_storm_starts_no_one_more_and_counts_what_it_sent() {
    let served = Served::new();
    let proxy = served.fault(&["TransactWriteItems"], Fault::Hold);
    let mut child = Watched::spawn(&[
        "--endpoint-url",
        &proxy.url,
        "storm",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--users",
        "40",
        "--concurrency",
        "4",
        "--json",
    ]);
    // Four users in flight, each with its first like held.
    child.until("the writes in flight", |_| proxy.arrived() >= 4);
    child.interrupt();
    proxy.release();
    let (code, stdout, stderr) = child.finish();
    assert_eq!(code, Some(1), "not every like was sent: {stderr}");
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).expect("the report");
    // Users 0–3 each finish the like in flight; nothing is sent after the signal, so user 0
    // neither likes again nor unlikes.
    assert_eq!(report["operations"], 4, "{report}");
    assert_eq!(proxy.forwarded(), 4);
    assert_eq!(report["storm_consistent"], true, "{report}");
    assert!(stderr.contains("operations were not sent"), "{stderr}");
}

#[test]
fn an_interrupted_storm_sends_nothing_after_the_signal() {
    let served = Served::new();
    // The first like's answer never comes: its outcome is unknown after the timeout, and user 0
    // has a second like and an unlike still to send.
    let proxy = served.fault(&["TransactWriteItems"], Fault::SilentAfterApply);
    let mut child = Watched::spawn(&[
        "--endpoint-url",
        &proxy.url,
        "--timeout",
        "2",
        "storm",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--users",
        "1",
        "--concurrency",
        "1",
        "--json",
    ]);
    child.until("the first like in flight", |_| proxy.arrived() >= 1);
    child.interrupt();
    let heard = proxy.arrived();
    let (code, stdout, stderr) = child.finish();
    assert_eq!(proxy.arrived(), heard, "sent after the signal: {stderr}");
    assert_eq!(
        code,
        Some(3),
        "the first like's outcome is unknown: {stderr}"
    );
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).expect("the report");
    assert_eq!(report["unknown"], 1, "{report}");
    assert!(
        stderr.contains("2 of 3 operations were not sent"),
        "{stderr}"
    );
}

/// The gateway's own re-sends stop at the signal too: a like throttled again and again is
/// waited on and sent again, until Ctrl-C; from then nothing more leaves (at most the attempt
/// that was already on its way), and the like ends refused, as its last answer says.
#[test]
fn a_throttled_like_is_not_sent_again_after_the_signal() {
    let served = Served::new();
    let proxy = served.fault(&["TransactWriteItems"], Fault::Throttle(1_000));
    let mut child = Watched::spawn(&[
        "--endpoint-url",
        &proxy.url,
        "--timeout",
        "30",
        "storm",
        "--table",
        "Social",
        "--pk",
        "POST#a91f",
        "--users",
        "1",
        "--concurrency",
        "1",
        "--json",
    ]);
    child.until("the first like throttled", |_| proxy.arrived() >= 1);
    // Once it says it heard the signal, counted: however long the signal took to be heard
    // (the re-sends before it are not the question), at most the attempt already on its way
    // arrives after. Without the stop the gateway waits 50 ms, doubling, and sends for 30 s.
    child.interrupt();
    let heard = proxy.arrived();
    let (code, _, stderr) = child.finish();
    assert!(
        proxy.arrived() <= heard + 1,
        "{} sent, {heard} when the signal was heard: re-sent after it: {stderr}",
        proxy.arrived()
    );
    assert_eq!(proxy.forwarded(), 0, "throttled, never applied");
    assert_eq!(code, Some(1), "refused, nothing applied: {stderr}");
}
