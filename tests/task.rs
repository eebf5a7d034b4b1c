//! Work started from the UI: a load-all job pages through the one reader, Cancel keeps what
//! loaded, and profiles are read off the UI thread — on a runtime the test owns.

use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::connection::{self, Connection, ConnectionSpec};
use dynoscope_core::read::{self, BrowseRequest, Page, Stopped, Until};
use dynoscope_core::seed;
use dynoscope_core::table::TableInfo;
use dynoscope_core::task::{Job, Pending, Spawner};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// Poll until `poll` returns something, for at most 60 s.
fn wait_for<T>(what: &str, mut poll: impl FnMut() -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_mins(1);
    loop {
        if let Some(found) = poll() {
            return found;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn connected(spawner: &Spawner) -> (Connection, TableInfo) {
    let mut connecting = Some(spawner.spawn(
        "Connect",
        connection::connect(ConnectionSpec::Sandbox { db_path: None }),
    ));
    let connection = wait_for("the connection", || Pending::take_ready(&mut connecting)).unwrap();
    let client = connection.reader();
    let mut listing = Some(spawner.spawn(
        "ListTables",
        async move { read::list_tables(&client).await },
    ));
    let tables = wait_for("the tables", || Pending::take_ready(&mut listing)).unwrap();
    assert_eq!(tables, [seed::SOCIAL, seed::VIDEOS]);
    let client = connection.reader();
    let mut describing = Some(spawner.spawn("DescribeTable", async move {
        read::describe_table(&client, seed::SOCIAL).await
    }));
    let info = wait_for("the description", || Pending::take_ready(&mut describing)).unwrap();
    (connection, info)
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

/// Load every page of `request` as the browse view does: a job reporting pages.
fn load_all(
    spawner: &Spawner,
    connection: &Connection,
    request: BrowseRequest,
) -> Job<Page, Stopped> {
    let client = connection.reader();
    spawner.spawn_job("Query", move |pages, cancel| async move {
        read::read_pages(&client, &request, None, Until::LastPage, &cancel, |page| {
            pages.send(page);
        })
        .await
    })
}

#[test]
fn cancelling_load_all_keeps_what_loaded() {
    let rt = runtime();
    let spawner = Spawner::new(rt.handle().clone(), || {});
    let (connection, info) = connected(&spawner);
    let mut request = viral_post(&info);
    request.page_size = Some(50);
    let mut job = Some(load_all(&spawner, &connection, request));
    let (mut pages, mut items) = (0, 0);
    let stopped = wait_for("the end of the run", || {
        let polled = Job::poll_slot(&mut job);
        for page in polled.progress {
            pages += 1;
            items += page.items.len();
        }
        if pages >= 3
            && let Some(job) = &job
        {
            job.cancel();
        }
        polled.done
    });
    assert_eq!(
        stopped.unwrap(),
        Stopped::Cancelled,
        "the run says it was cancelled"
    );
    assert!(
        pages >= 3 && items >= 150,
        "what loaded before the cancel arrived: {pages} pages"
    );
    assert!(items < seed::VIRAL_LIKES, "it stopped early: {items} items");
}

#[test]
fn load_all_reaches_the_last_page_and_counts_capacity() {
    let rt = runtime();
    let spawner = Spawner::new(rt.handle().clone(), || {});
    let (connection, info) = connected(&spawner);
    let mut job = Some(load_all(&spawner, &connection, viral_post(&info)));
    let (mut items, mut pages, mut rcu) = (0, 0, 0.0);
    let stopped = wait_for("the end of the run", || {
        let polled = Job::poll_slot(&mut job);
        for page in polled.progress {
            items += page.items.len();
            pages += 1;
            rcu += page.consumed_rcu;
        }
        polled.done
    });
    assert_eq!(stopped.unwrap(), Stopped::LastPage);
    assert_eq!(items, seed::VIRAL_LIKES + 1, "META and every like");
    assert!(pages >= 2, "more than 1 MB takes several pages: {pages}");
    assert!(
        rcu > 100.0,
        "1.7 MB of eventually consistent reads: {rcu} RCU"
    );
}

#[test]
fn profiles_are_read_off_the_ui_thread_and_unreadable_files_are_reported() {
    let dir = std::env::temp_dir().join(format!("dynoscope-profiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("config");
    std::fs::write(
        &config,
        "[default]\nregion = eu-west-1\n[profile dev]\nsso_session = x\n[sso-session x]\n",
    )
    .unwrap();
    // A directory where the credentials file should be: it exists and cannot be read.
    let credentials = dir.join("credentials");
    std::fs::create_dir_all(&credentials).unwrap();
    let rt = runtime();
    let spawner = Spawner::new(rt.handle().clone(), || {});
    let mut reading = Some(spawner.spawn_blocking("ListProfiles", move || {
        Ok(connection::read_profiles_from(
            Some(config),
            Some(credentials),
        ))
    }));
    let profiles = wait_for("the profiles", || Pending::take_ready(&mut reading)).unwrap();
    assert_eq!(profiles.names, ["default", "dev"]);
    assert_eq!(profiles.problems.len(), 1, "{:?}", profiles.problems);
    assert!(
        profiles.problems[0].to_string().starts_with("reading "),
        "{}",
        profiles.problems[0]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
