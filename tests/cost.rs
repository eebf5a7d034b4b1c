//! What reads and writes cost, after real runs on the embedded engine: a like's units in
//! dollars, a storm's estimate and its partition load, a reconcile's plan estimate, an
//! import's estimate from its file, and a provisioned table said as a share of its capacity.

use crate::common;
use dynoscope_core::document::Document;

use std::str::FromStr;
use std::time::Duration;

use bigdecimal::BigDecimal;
use dynoscope_core::cancel::CancelToken;
use dynoscope_core::cost::{Class, Kind, Mode};
use dynoscope_core::likes::{self, LikeOp, LikeOutcome};
use dynoscope_core::read as ops;
use dynoscope_core::sandbox::Sandbox;
use dynoscope_core::spec::{LikeSpec, StormSpec};
use dynoscope_core::tally::{self, ParentSource};
use dynoscope_core::write::Destination;

fn d(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).unwrap()
}

fn like_spec(user: &str) -> LikeSpec {
    LikeSpec {
        table: "Social".into(),
        pk: "POST#a91f".into(),
        parent_sk: "META".into(),
        tally: "likeTally".into(),
        child_prefix: "LIKE#".into(),
        user: user.into(),
        token: None,
        create: false,
    }
}

/// A like on the sandbox: the units the server reported, priced on demand as us-east-1 (the
/// sandbox has no region of its own), in the line and in the JSON.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_like_says_what_it_cost() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let connection = common::connect_to(sandbox.endpoint(), Duration::from_secs(10)).await;
    let report = like_spec("USER#cost1")
        .run(&connection, LikeOp::Like, false, &CancelToken::default())
        .await
        .unwrap();
    let LikeOutcome::Committed { consumed_wcu } = report.sent.outcome else {
        panic!("{:?}", report.sent.outcome);
    };
    let units = dynoscope_core::cost::units_of(consumed_wcu);
    let usd = &units * d("0.625") / d("1000000");
    let line = &report.details()[0].text;
    assert_eq!(
        line,
        &format!(
            "Committed · {} WCU ≈ {} on demand",
            dynoscope_core::report::capacity_exact(&units),
            dynoscope_core::cost::money(&usd, "$")
        )
    );
    let json = report.to_json();
    assert_eq!(
        BigDecimal::from_str(&json["usd"].to_string()).unwrap(),
        usd,
        "{json}"
    );
    assert!(report.pricing.note().contains("no AWS region of its own"));
}

/// A storm's estimate before it runs, its cost after, and the parent partition's write rate
/// against one partition's 1,000 WCU/s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_storm_is_estimated_then_costed_and_its_load_said() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let connection = common::connect_to(sandbox.endpoint(), Duration::from_secs(10)).await;
    let info = ops::describe_table(&connection.reader(), "Social")
        .await
        .unwrap();
    let plan = StormSpec {
        target: like_spec(""),
        users: 10,
        concurrency: 4,
    }
    .plan(&info, &Destination::of(&connection), "cost")
    .unwrap();
    let pricing = connection.pricing(&info);
    let estimate = plan.estimate(&pricing);
    // 10 likes, users 0 and 5 send theirs twice, users 0 and 7 unlike: 14 transactions of
    // 4 WCU.
    assert_eq!(
        estimate[0].text,
        "Estimate: 14 transactions (10 likes, 2 sent twice, 2 unlikes) × 4 WCU ≈ $0.0000025 on \
         demand = 56 WCU ≈ $0.000035 on demand"
    );
    assert_eq!(
        estimate[1].text,
        "At 1,000,000 likes: 4,000,000 WCU ≈ $2.50 on demand"
    );
    let report = likes::run_storm(
        &connection,
        &info,
        &plan,
        false,
        &CancelToken::default(),
        |_| {},
    )
    .await
    .unwrap();
    let cost = report.cost();
    let spent = pricing.write(report.stats.consumed_wcu);
    assert_eq!(cost[0].text, format!("Cost: {spent}"));
    // Each rate said over its window: the whole storm's average, then its busiest second.
    assert!(
        cost[1]
            .text
            .starts_with("On average over the whole storm: POST#a91f: ")
            && cost[1].text.contains("of one partition's 1,000 WCU/s")
            || cost[1].text.starts_with(
                "On average over the whole storm: At this rate POST#a91f would be throttled"
            ),
        "{}",
        cost[1].text
    );
    assert!(
        cost[2].text.starts_with("In its busiest second (second "),
        "{}",
        cost[2].text
    );
    let seconds: f64 = report.stats.wcu_by_second.iter().sum();
    assert!(
        (seconds - report.stats.consumed_wcu).abs() < 1e-9,
        "every unit in some second: {seconds} of {}",
        report.stats.consumed_wcu
    );
}

/// A reconcile's plan estimate is in units and dollars.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconcile_estimate_is_in_dollars() {
    let sandbox = Sandbox::start(None, 0).await.unwrap();
    let connection = common::connect_to(sandbox.endpoint(), Duration::from_secs(10)).await;
    let info = ops::describe_table(&connection.reader(), "Social")
        .await
        .unwrap();
    let estimate = tally::estimate(&info, &ParentSource::Scan);
    let lines = estimate.lines(&info.name, &connection.pricing(&info));
    let one_pass = lines
        .iter()
        .find(|l| l.starts_with("One pass"))
        .expect("a one-pass line");
    assert!(one_pass.contains(" RCU ≈ $"), "{one_pass}");
    assert!(one_pass.ends_with("on demand."), "{one_pass}");
}

/// A provisioned table's units are a share of a second of its capacity, with the hourly cost;
/// the region picked on the connection prices every clone of it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provisioned_table_is_said_as_a_share_of_its_capacity() {
    let engine = common::empty_engine().await;
    let client = &engine.client;
    client
        .create_table()
        .table_name("Provisioned")
        .attribute_definitions(
            aws_sdk_dynamodb::types::AttributeDefinition::builder()
                .attribute_name("PK")
                .attribute_type(aws_sdk_dynamodb::types::ScalarAttributeType::S)
                .build()
                .unwrap(),
        )
        .key_schema(
            aws_sdk_dynamodb::types::KeySchemaElement::builder()
                .attribute_name("PK")
                .key_type(aws_sdk_dynamodb::types::KeyType::Hash)
                .build()
                .unwrap(),
        )
        .billing_mode(aws_sdk_dynamodb::types::BillingMode::Provisioned)
        .provisioned_throughput(
            aws_sdk_dynamodb::types::ProvisionedThroughput::builder()
                .read_capacity_units(20)
                .write_capacity_units(10)
                .build()
                .unwrap(),
        )
        .send()
        .await
        .unwrap();
    let info = ops::describe_table(&engine.reader(), "Provisioned")
        .await
        .unwrap();
    assert_eq!(
        info.charged.mode,
        Mode::Provisioned {
            read: 20,
            write: 10
        }
    );
    assert_eq!(info.charged.class, Class::Standard);
    let charge = engine
        .connection
        .pricing(&info)
        .charge(Kind::Write, &d("4"));
    assert_eq!(
        charge.text(),
        "4 WCU ≈ $0.000000722 provisioned: 0.4 s of the table's 10 WCU/s, $0.0065/h"
    );
    let clone = engine.connection.clone();
    clone.pick_price_region(Some("cn-north-1".into()));
    let yuan = engine
        .connection
        .pricing(&info)
        .charge(Kind::Write, &d("3600"));
    assert_eq!(yuan.currency, "CNY", "picked on a clone, seen by all");
    assert_eq!(yuan.amount, Some(d("0.0058")));
}
