//! The worker bridge: commands in, events out, on a runtime the test owns.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope::core::connection::ConnectionSpec;
use dynoscope::core::ops::BrowseRequest;
use dynoscope::core::seed;
use dynoscope::core::table::TableInfo;
use dynoscope::worker::{CancelToken, Command, Event, Worker};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Poll until `pick` returns something, for at most 60 s.
fn wait_for<T>(worker: &Worker, what: &str, mut pick: impl FnMut(Event) -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        for event in worker.poll() {
            if let Some(found) = pick(event) {
                return found;
            }
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn connected_worker(rt: &tokio::runtime::Runtime) -> (Worker, TableInfo) {
    let mut worker = Worker::new(rt.handle().clone(), || {});
    worker.send(Command::Connect(ConnectionSpec::Sandbox { db_path: None }));
    let tables = wait_for(&worker, "tables", |e| match e {
        Event::Tables { result, .. } => Some(result.unwrap()),
        Event::Connected { result: Err(e), .. } => panic!("{e}"),
        _ => None,
    });
    assert_eq!(tables, [seed::SOCIAL, seed::VIDEOS]);
    worker.send(Command::Describe(seed::SOCIAL.into()));
    let info = wait_for(&worker, "describe", |e| match e {
        Event::Described { result, .. } => Some(result.unwrap()),
        _ => None,
    });
    (worker, info)
}

/// Every item of the viral post (its META and 20,000 likes, about 1.7 MB).
fn viral_post(info: &TableInfo) -> BrowseRequest {
    BrowseRequest::query(
        info,
        None,
        AttributeValue::S(seed::VIRAL_POST.into()),
        None,
        true,
    )
    .unwrap()
}

#[test]
fn cancelling_load_all_keeps_what_loaded() {
    let rt = runtime();
    let (mut worker, info) = connected_worker(&rt);
    let mut request = viral_post(&info);
    request.page_size = Some(50);
    let cancel = CancelToken::default();
    worker.send(Command::Browse {
        job: 7,
        request: Box::new(request),
        start_key: None,
        all: Some(cancel.clone()),
    });
    let mut pages = 0;
    let mut items = 0;
    let cancelled = wait_for(&worker, "the end of the run", |e| match e {
        Event::Page { job: 7, page } => {
            pages += 1;
            items += page.items.len();
            if pages == 3 {
                cancel.cancel();
            }
            None
        }
        Event::BrowseDone {
            job: 7,
            cancelled,
            error,
        } => {
            assert!(error.is_none(), "{error:?}");
            Some(cancelled)
        }
        _ => None,
    });
    assert!(cancelled, "the run reports it was cancelled");
    assert!(
        pages >= 3 && items >= 150,
        "what loaded before the cancel arrived: {pages} pages"
    );
    assert!(items < seed::VIRAL_LIKES, "it stopped early: {items} items");
}

#[test]
fn load_all_reaches_the_last_page_and_counts_capacity() {
    let rt = runtime();
    let (mut worker, info) = connected_worker(&rt);
    let request = viral_post(&info);
    worker.send(Command::Browse {
        job: 1,
        request: Box::new(request),
        start_key: None,
        all: Some(CancelToken::default()),
    });
    let (mut items, mut pages, mut rcu) = (0, 0, 0.0);
    let done = wait_for(&worker, "the end of the run", |e| match e {
        Event::Page { page, .. } => {
            items += page.items.len();
            pages += 1;
            rcu += page.consumed_rcu;
            None
        }
        Event::BrowseDone {
            cancelled, error, ..
        } => Some((cancelled, error)),
        _ => None,
    });
    assert!(!done.0, "not cancelled");
    assert!(done.1.is_none());
    assert_eq!(items, seed::VIRAL_LIKES + 1, "META and every like");
    assert!(pages >= 2, "more than 1 MB takes several pages: {pages}");
    assert!(
        rcu > 100.0,
        "1.7 MB of eventually consistent reads: {rcu} RCU"
    );
}

#[test]
fn profiles_are_read_by_the_worker_not_the_ui() {
    let dir = std::env::temp_dir().join(format!("dynoscope-profiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("config");
    std::fs::write(
        &config,
        "[default]\nregion = eu-west-1\n[profile dev]\nsso_session = x\n[sso-session x]\n",
    )
    .unwrap();
    // SAFETY: no other test in this binary reads these variables.
    unsafe {
        std::env::set_var("AWS_CONFIG_FILE", &config);
        std::env::set_var("AWS_SHARED_CREDENTIALS_FILE", dir.join("absent"));
    }
    let rt = runtime();
    let mut worker = Worker::new(rt.handle().clone(), || {});
    worker.send(Command::ListProfiles);
    let profiles = wait_for(&worker, "the profiles", |e| match e {
        Event::Profiles(p) => Some(p),
        _ => None,
    });
    assert_eq!(profiles, ["default", "dev"]);
    let _ = std::fs::remove_dir_all(&dir);
}
