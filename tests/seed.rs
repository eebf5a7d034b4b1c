//! The sandbox's sample data holds what the articles describe, including the traps.

use crate::common::Sdk as _;
use dynoscope_core::condition::{SortCondition, SortOp};
use dynoscope_core::connection::{self, ConnectionSpec};
use dynoscope_core::read::{self as ops, BrowseRequest};
use dynoscope_core::seed;
use dynoscope_core::value::{self, Item};

async fn collection(
    client: &dynoscope_core::connection::Reader,
    table: &str,
    pk: &str,
    prefix: Option<&str>,
) -> (Vec<Item>, usize) {
    let info = ops::describe_table(client, table).await.unwrap();
    let sort = prefix.map(|p| SortCondition {
        op: SortOp::BeginsWith,
        value: aws_sdk_dynamodb::types::AttributeValue::S(p.to_owned()),
        upper: None,
    });
    let request = BrowseRequest::query(
        &info,
        None,
        aws_sdk_dynamodb::types::AttributeValue::S(pk.to_owned()),
        sort,
        true,
    )
    .unwrap();
    let (mut items, mut pages, mut start) = (Vec::new(), 0, None);
    loop {
        let page = ops::fetch_page(client, &request, start.take())
            .await
            .unwrap();
        pages += 1;
        items.extend(page.items);
        match page.last_key {
            Some(k) => start = Some(k),
            None => return (items, pages),
        }
    }
}

fn attr(item: &Item, name: &str) -> Option<String> {
    item.get(name).map(value::cell_text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seeded_sandbox_holds_the_articles_examples() {
    let conn = connection::connect(ConnectionSpec::Sandbox { db_path: None })
        .await
        .unwrap();
    let report = conn
        .sandbox
        .as_ref()
        .and_then(|s| s.seeded().cloned())
        .unwrap();
    println!("seeded {} items in {} ms", report.items, report.elapsed_ms);
    let client = &conn.reader();

    let (likes, _) = collection(client, seed::SOCIAL, seed::SAMPLE_POST, Some("LIKE#")).await;
    assert_eq!(likes.len(), 3);
    let (meta, _) = collection(client, seed::SOCIAL, seed::SAMPLE_POST, Some("META")).await;
    assert_eq!(attr(&meta[0], "likeTally").as_deref(), Some("3"));

    // The viral post needs several 1 MB pages to count.
    let (viral, pages) = collection(client, seed::SOCIAL, seed::VIRAL_POST, Some("LIKE#")).await;
    assert_eq!(viral.len(), seed::VIRAL_LIKES);
    assert!(pages >= 2, "took {pages} pages");

    // Drifted tallies: +1, -2 and missing.
    for (post, drift) in seed::DRIFTED {
        let (children, _) = collection(client, seed::SOCIAL, post, Some("LIKE#")).await;
        let (meta, _) = collection(client, seed::SOCIAL, post, Some("META")).await;
        let stored = attr(&meta[0], "likeTally").map(|t| t.parse::<i64>().unwrap());
        assert_eq!(
            stored,
            drift.map(|d| (children.len() as i64 + d).max(0)),
            "{post}"
        );
    }

    // Sharded counter with one hot shard; the 38-digit number.
    let (shards, _) = collection(client, seed::VIDEOS, "VID#c0de", Some("STATS#TOTAL#")).await;
    assert_eq!(shards.len(), 8);
    let hot = shards
        .iter()
        .max_by_key(|s| attr(s, "play_count").unwrap().parse::<u64>().unwrap())
        .unwrap();
    assert_eq!(attr(hot, "SK").as_deref(), Some("STATS#TOTAL#3"));
    let (video, _) = collection(client, seed::VIDEOS, "VID#9f3a", None).await;
    assert!(
        video
            .iter()
            .any(|i| attr(i, "bytes_served").as_deref() == Some(seed::BIG_NUMBER))
    );
    assert!(video.iter().any(|i| attr(i, "play_count").is_some()));

    // The workspace and the comment keep consistent counters.
    let (members, _) = collection(client, seed::SOCIAL, "WORKSPACE#acme", Some("MEMBER#")).await;
    assert_eq!(members.len(), 4);
    let (replies, _) = collection(client, seed::SOCIAL, "COMMENT#c3d4", Some("REPLY#")).await;
    assert_eq!(replies.len(), 2);
    let posts = ops::fetch_page(
        client,
        &BrowseRequest::scan(
            &ops::describe_table(client, seed::SOCIAL).await.unwrap(),
            None,
        )
        .unwrap(),
        None,
    )
    .await
    .unwrap();
    assert!(!posts.items.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sandbox_file_is_seeded_once_and_survives_restarts() {
    let dir = std::env::temp_dir().join(format!("dynoscope-seed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sandbox.db");
    let _ = std::fs::remove_file(&path);
    let spec = ConnectionSpec::Sandbox {
        db_path: Some(path.clone()),
    };
    {
        let first = connection::connect(spec.clone()).await.unwrap();
        assert!(first.sandbox.as_ref().unwrap().seeded().is_some());
        first
            .sdk()
            .delete_item()
            .table_name(seed::SOCIAL)
            .key(
                "PK",
                aws_sdk_dynamodb::types::AttributeValue::S(seed::SAMPLE_POST.into()),
            )
            .key(
                "SK",
                aws_sdk_dynamodb::types::AttributeValue::S("LIKE#USER#7c20".into()),
            )
            .send()
            .await
            .unwrap();
    }
    // Dropped: its server has let go of the file (the drop waits for it).
    let second = connection::connect(spec).await.unwrap();
    assert!(
        second.sandbox.as_ref().unwrap().seeded().is_none(),
        "not seeded again"
    );
    let (likes, _) = collection(
        &second.reader(),
        seed::SOCIAL,
        seed::SAMPLE_POST,
        Some("LIKE#"),
    )
    .await;
    assert_eq!(likes.len(), 2, "the deleted like stayed deleted");
    drop(second);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `dynoscope sandbox --port P` as a script meets it: the first request sent the moment the port
/// accepts a connection already sees the whole seed, its history's writes included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_request_on_a_fresh_port_sees_the_whole_seed() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dynoscope"))
        .args(["sandbox", "--port", &port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_mins(1);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "the port never opened"
        );
        assert!(child.try_wait().unwrap().is_none(), "the sandbox ended");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let url = format!("http://127.0.0.1:{port}");
    let client = crate::common::sdk_client(&url);
    let got = client
        .get_item()
        .table_name(seed::VIDEOS)
        .key(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S("VID#9f3a".into()),
        )
        .key(
            "SK",
            aws_sdk_dynamodb::types::AttributeValue::S("STATS#TOTAL".into()),
        )
        .send()
        .await;
    let _ = child.kill();
    let _ = child.wait();
    let item = got.unwrap().item.expect("the seeded counter is there");
    assert_eq!(
        attr(&item, "play_count").as_deref(),
        Some("41"),
        "the seed's history (a play) applied before the first answer"
    );
}
