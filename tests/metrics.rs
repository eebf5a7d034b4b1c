//! A table's CloudWatch metrics read from a CloudWatch that is not ours: moto's server (PyPI
//! `moto[server]`, which the README's test command, `scripts/test.sh`, installs), started by the test, fed with `PutMetricData`
//! through the real `aws-sdk-cloudwatch` client, then read back by the core and by `dynoscope
//! metrics`. Contributor Insights switched through the gateway is refused on a read-only
//! connection and asked about off this machine, before anything is sent.

use crate::common;
use crate::common::Sdk as _;

use std::str::FromStr;
use std::time::Duration;

use crate::common::Said;
use aws_sdk_cloudwatch::primitives::DateTime;
use aws_sdk_cloudwatch::types::{Dimension, MetricDatum};
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection,
    ProjectionType, ScalarAttributeType,
};
use bigdecimal::BigDecimal;
use common::moto::moto;
use common::served::{Served, command, text};
use dynoscope_core::connection::Connection;
use dynoscope_core::metrics;
use dynoscope_core::read as ops;

fn d(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).unwrap()
}

fn dimension(name: &str, value: &str) -> Dimension {
    Dimension::builder().name(name).value(value).build()
}

fn datum(metric: &str, dimensions: Vec<Dimension>, at_ms: i64, value: f64) -> MetricDatum {
    MetricDatum::builder()
        .metric_name(metric)
        .set_dimensions(Some(dimensions))
        .timestamp(DateTime::from_millis(at_ms))
        .value(value)
        .build()
}

/// The table `Metered`, on demand, with the index `GSI1`.
async fn create_metered(connection: &Connection) {
    let key = |name: &str, kind| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kind)
            .build()
            .unwrap()
    };
    let attribute = |name: &str| {
        AttributeDefinition::builder()
            .attribute_name(name)
            .attribute_type(ScalarAttributeType::S)
            .build()
            .unwrap()
    };
    connection
        .sdk()
        .create_table()
        .table_name("Metered")
        .attribute_definitions(attribute("PK"))
        .attribute_definitions(attribute("GSI1PK"))
        .key_schema(key("PK", KeyType::Hash))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("GSI1")
                .key_schema(key("GSI1PK", KeyType::Hash))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::All)
                        .build(),
                )
                .build()
                .unwrap(),
        )
        .billing_mode(BillingMode::PayPerRequest)
        .send()
        .await
        .unwrap();
}

/// Write units of `Metered` in the two periods before `base`, its index's, its reads, and its
/// throttles by operation, put into CloudWatch.
async fn put_metered_data(connection: &Connection, base: i64, period: i64) {
    let cloudwatch = connection.cloudwatch();
    let table = || vec![dimension("TableName", "Metered")];
    let index = || {
        vec![
            dimension("TableName", "Metered"),
            dimension("GlobalSecondaryIndexName", "GSI1"),
        ]
    };
    let op = |o: &str| vec![dimension("TableName", "Metered"), dimension("Operation", o)];
    cloudwatch
        .put_metric_data()
        .namespace(metrics::NAMESPACE)
        .metric_data(datum(
            "ConsumedWriteCapacityUnits",
            table(),
            base - 2 * period,
            1200.0,
        ))
        .metric_data(datum(
            "ConsumedWriteCapacityUnits",
            table(),
            base - period,
            60.5,
        ))
        .metric_data(datum(
            "ConsumedReadCapacityUnits",
            table(),
            base - period,
            0.5,
        ))
        .metric_data(datum(
            "ConsumedWriteCapacityUnits",
            index(),
            base - period,
            30.0,
        ))
        .metric_data(datum("WriteThrottleEvents", table(), base - period, 7.0))
        .metric_data(datum(
            "ThrottledRequests",
            op("PutItem"),
            base - period,
            2.0,
        ))
        .metric_data(datum(
            "ThrottledRequests",
            op("UpdateItem"),
            base - period,
            3.0,
        ))
        .send()
        .await
        .unwrap();
}

#[test]
fn metrics_put_into_cloudwatch_are_read_back_exactly() {
    let moto = moto();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // Whole five-minute periods before now, so each datum falls in a period of its own.
    let now = dynoscope_core::stream::now_ms();
    let period = 300_000;
    let base = (now / period) * period;
    runtime.block_on(async {
        let connection = common::connect_to(&moto.url, Duration::from_secs(10)).await;
        create_metered(&connection).await;
        put_metered_data(&connection, base, period).await;

        let info = ops::describe_table(&connection.reader(), "Metered")
            .await
            .unwrap();
        let got = metrics::read_metrics(&connection, &info, 3, now)
            .await
            .unwrap();
        let total = |metric: &str, index: Option<&str>| got.get(metric, index).unwrap().total();
        assert_eq!(total("ConsumedWriteCapacityUnits", None), d("1260.5"));
        assert_eq!(total("ConsumedReadCapacityUnits", None), d("0.5"));
        assert_eq!(total("ConsumedWriteCapacityUnits", Some("GSI1")), d("30"));
        assert_eq!(total("WriteThrottleEvents", None), d("7"));
        assert_eq!(
            total("ThrottledRequests", None),
            d("5"),
            "the operations' throttled requests added"
        );
        assert_eq!(total("ReadThrottleEvents", Some("GSI1")), d("0"));
        let writes = got.get("ConsumedWriteCapacityUnits", None).unwrap();
        assert_eq!(writes.points.len(), 2, "{writes:?}");
        assert_eq!(writes.peak_per_second(), Some(d("4")), "1,200 over 300 s");
        assert!(
            got.texts()
                .contains(&"Metered: ConsumedWriteCapacityUnits: 1,260.5 in all, busiest 5 minutes 4/s, 2 points".to_owned()),
            "{:?}",
            got.texts()
        );
        assert!(
            metrics::read_metrics(&connection, &info, 0, now)
                .await
                .is_err(),
            "hours from 1"
        );
    });

    // The CLI reads the same.
    let out = command(&[
        "--endpoint-url",
        &moto.url,
        "metrics",
        "--table",
        "Metered",
        "--json",
    ])
    .env("AWS_ACCESS_KEY_ID", "test")
    .env("AWS_SECRET_ACCESS_KEY", "test")
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let writes = json["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["metric"] == "ConsumedWriteCapacityUnits" && s["index"].is_null())
        .unwrap()
        .clone();
    assert_eq!(writes["total"].to_string(), "1260.5");
}

#[test]
fn switching_contributor_insights_goes_through_the_gateway() {
    let served = Served::new();
    // Read-only: refused before anything is sent (exit 2, as every write refused so).
    let out = command(&[
        "--endpoint-url",
        served.url(),
        "--read-only",
        "insights",
        "--table",
        "Social",
        "--enable",
    ])
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("read-only"),
        "{}",
        text(&out.stderr)
    );
    // Off this machine without --yes: asked, not sent (exit 2).
    let out = command(&[
        "--endpoint-url",
        &served.remote_url(),
        "insights",
        "--table",
        "Social",
        "--enable",
    ])
    .env("AWS_ACCESS_KEY_ID", "test")
    .env("AWS_SECRET_ACCESS_KEY", "test")
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("Contributor Insights turned on"),
        "the question names the change: {}",
        text(&out.stderr)
    );
}
