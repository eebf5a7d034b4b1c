//! [`parse`] on fixtures of the shape `GetProducts` answers with. The shape (a product's
//! `productFamily` and `attributes` with `usagetype`, `group` and `regionCode`; its `terms`,
//! `OnDemand` keyed `<sku>.<offer term code>`, each with `priceDimensions` keyed
//! `<sku>.<offer term code>.<rate code>` holding `unit`, `beginRange`, `endRange`,
//! `description` and `pricePerUnit.USD` as decimal text) is the Price List API's documented
//! one (AWS Billing User Guide, "Using the AWS Price List Query API", and the `PriceList` of
//! the `GetProducts` reference). The usage types and tiers follow what public tools record of
//! the live DynamoDB products: in us-east-1 most usage types carry no region prefix
//! (`WriteRequestUnits`, `IA-TimedStorage-ByteHrs`) and storage is listed again as
//! `USE1-TimedStorage-ByteHrs`; elsewhere they do (`EU-`, `APN1-`); standard storage and
//! provisioned capacity begin with a free tier at 0 (25 GB-Mo, 18,600 unit-hours). The
//! figures are illustrative, not a claim about today's prices. Never checked against AWS here.

use std::str::FromStr;

use bigdecimal::BigDecimal;
use serde_json::json;

use super::*;

fn d(text: &str) -> BigDecimal {
    BigDecimal::from_str(text).unwrap().normalized()
}

/// One product as `GetProducts` lists it: `tiers` are (USD per unit, beginRange, endRange).
fn product(
    region: &str,
    usage: &str,
    family: &str,
    unit: &str,
    tiers: &[(&str, &str, &str)],
) -> String {
    let sku = format!("SKU{}", usage.len() * 7 + region.len());
    let dimensions: serde_json::Map<String, Value> = tiers
        .iter()
        .enumerate()
        .map(|(i, (usd, begin, end))| {
            let code = format!("{sku}.JRTCKXETXF.RATE{i}");
            let dimension = json!({
                "unit": unit,
                "endRange": end,
                "description": format!("${usd} per {unit} ({begin} to {end})"),
                "appliesTo": [],
                "rateCode": code,
                "beginRange": begin,
                "pricePerUnit": {"USD": usd}
            });
            (code, dimension)
        })
        .collect();
    json!({
        "product": {
            "productFamily": family,
            "attributes": {
                "regionCode": region,
                "servicecode": "AmazonDynamoDB",
                "usagetype": usage,
                "locationType": "AWS Region",
                "servicename": "Amazon DynamoDB"
            },
            "sku": sku
        },
        "serviceCode": "AmazonDynamoDB",
        "terms": {"OnDemand": {format!("{sku}.JRTCKXETXF"): {
            "priceDimensions": dimensions,
            "sku": sku,
            "effectiveDate": "2026-11-01T00:00:00Z",
            "offerTermCode": "JRTCKXETXF",
            "termAttributes": {}
        }}},
        "version": "20261101000000",
        "publicationDate": "2026-11-01T00:00:00Z"
    })
    .to_string()
}

const ON_DEMAND: &str = "Amazon DynamoDB PayPerRequest Throughput";
const PROVISIONED: &str = "Provisioned IOPS";
const STORAGE: &str = "Database Storage";
const INF: &str = "Inf";

/// us-east-1: every figure of both classes, a free tier beside a paid one, storage listed
/// twice, and entries to pass over.
fn us_east_1() -> Vec<String> {
    let r = "us-east-1";
    let mut products = us_east_1_on_demand(r);
    products.extend(us_east_1_provisioned(r));
    products.extend([
        product(
            r,
            "TimedStorage-ByteHrs",
            STORAGE,
            "GB-Mo",
            &[("0.0000000000", "0", "25"), ("0.2500000000", "25", INF)],
        ),
        product(
            r,
            "USE1-TimedStorage-ByteHrs",
            STORAGE,
            "GB-Mo",
            &[("0.2500000000", "0", INF)],
        ),
        product(
            r,
            "IA-TimedStorage-ByteHrs",
            STORAGE,
            "GB-Mo",
            &[("0.1000000000", "0", INF)],
        ),
        product(
            r,
            "USE1-TimedPITRStorage-ByteHrs",
            STORAGE,
            "GB-Mo",
            &[("0.2000000000", "0", INF)],
        ),
        // Not JSON, and JSON of another shape: passed over.
        "<html>Service Unavailable</html>".to_owned(),
        r#"{"product": 7, "terms": []}"#.to_owned(),
        // Another region's product, should a filter let it through.
        product(
            "eu-west-1",
            "EU-WriteRequestUnits",
            ON_DEMAND,
            "WriteRequestUnits",
            &[("0.0000099", "0", INF)],
        ),
    ]);
    products
}

/// us-east-1's on-demand figures of both classes, and a replicated write to pass over.
fn us_east_1_on_demand(r: &str) -> Vec<String> {
    vec![
        product(
            r,
            "WriteRequestUnits",
            ON_DEMAND,
            "WriteRequestUnits",
            &[("0.0000006250", "0", INF)],
        ),
        product(
            r,
            "ReadRequestUnits",
            ON_DEMAND,
            "ReadRequestUnits",
            &[("0.0000001250", "0", INF)],
        ),
        product(
            r,
            "IA-WriteRequestUnits",
            ON_DEMAND,
            "WriteRequestUnits",
            &[("0.0000007800", "0", INF)],
        ),
        product(
            r,
            "IA-ReadRequestUnits",
            ON_DEMAND,
            "ReadRequestUnits",
            &[("0.0000001550", "0", INF)],
        ),
        // Replicated writes are priced by another usage type: not a write of this table.
        product(
            r,
            "ReplWriteRequestUnits",
            ON_DEMAND,
            "WriteRequestUnits",
            &[("0.0000009999", "0", INF)],
        ),
    ]
}

/// us-east-1's provisioned figures of both classes, a free tier beside a paid one.
fn us_east_1_provisioned(r: &str) -> Vec<String> {
    vec![
        // The paid tier listed before the free one: order does not matter.
        product(
            r,
            "WriteCapacityUnit-Hrs",
            PROVISIONED,
            "WriteCapacityUnit-Hrs",
            &[
                ("0.0006500000", "18600", INF),
                ("0.0000000000", "0", "18600"),
            ],
        ),
        product(
            r,
            "ReadCapacityUnit-Hrs",
            PROVISIONED,
            "ReadCapacityUnit-Hrs",
            &[
                ("0.0000000000", "0", "18600"),
                ("0.0001300000", "18600", INF),
            ],
        ),
        product(
            r,
            "IA-WriteCapacityUnit-Hrs",
            PROVISIONED,
            "WriteCapacityUnit-Hrs",
            &[("0.0008100000", "0", INF)],
        ),
        product(
            r,
            "IA-ReadCapacityUnit-Hrs",
            PROVISIONED,
            "ReadCapacityUnit-Hrs",
            &[("0.0001600000", "0", INF)],
        ),
    ]
}

#[test]
fn standard_and_ia_on_demand_and_provisioned_are_read() {
    let prices = parse("us-east-1", &us_east_1(), "2026-12-02").expect("prices");
    assert_eq!(prices.region, "us-east-1");
    assert_eq!(prices.currency, "USD");
    assert_eq!(prices.as_of, "2026-12-02");
    assert_eq!(
        prices.source,
        "AWS Price List API (GetProducts), read 2026-12-02"
    );
    let standard = &prices.standard;
    assert_eq!(standard.write_request_per_million, Some(d("0.625")));
    assert_eq!(standard.read_request_per_million, Some(d("0.125")));
    assert_eq!(
        standard.wcu_hour,
        Some(d("0.00065")),
        "the paid tier, not the free one"
    );
    assert_eq!(standard.rcu_hour, Some(d("0.00013")));
    assert_eq!(standard.storage_gb_month, Some(d("0.25")));
    let ia = &prices.standard_ia;
    assert_eq!(ia.write_request_per_million, Some(d("0.78")));
    assert_eq!(ia.read_request_per_million, Some(d("0.155")));
    assert_eq!(ia.wcu_hour, Some(d("0.00081")));
    assert_eq!(ia.rcu_hour, Some(d("0.00016")));
    assert_eq!(ia.storage_gb_month, Some(d("0.1")));
}

#[test]
fn region_prefixed_usage_types_keep_their_class() {
    let r = "eu-west-1";
    let list = [
        product(
            r,
            "EU-WriteRequestUnits",
            ON_DEMAND,
            "WriteRequestUnits",
            &[("0.000000707", "0", INF)],
        ),
        product(
            r,
            "EU-IA-WriteRequestUnits",
            ON_DEMAND,
            "WriteRequestUnits",
            &[("0.000000884", "0", INF)],
        ),
        product(
            r,
            "EU-IA-TimedStorage-ByteHrs",
            STORAGE,
            "GB-Mo",
            &[("0.113", "0", INF)],
        ),
        // Not a region prefix: passed over.
        product(
            r,
            "eu-ReadRequestUnits",
            ON_DEMAND,
            "ReadRequestUnits",
            &[("0.5", "0", INF)],
        ),
    ];
    let prices = parse(r, &list, "2026-12-02").expect("prices");
    assert_eq!(prices.standard.write_request_per_million, Some(d("0.707")));
    assert_eq!(
        prices.standard_ia.write_request_per_million,
        Some(d("0.884"))
    );
    assert_eq!(prices.standard_ia.storage_gb_month, Some(d("0.113")));
    assert_eq!(prices.standard.read_request_per_million, None);
    assert_eq!(prices.standard.storage_gb_month, None);
}

#[test]
fn a_free_tier_alone_is_no_price() {
    let r = "us-west-2";
    let list = [
        product(
            r,
            "USW2-ReadCapacityUnit-Hrs",
            PROVISIONED,
            "ReadCapacityUnit-Hrs",
            &[("0", "0", "18600")],
        ),
        product(
            r,
            "USW2-WriteCapacityUnit-Hrs",
            PROVISIONED,
            "WriteCapacityUnit-Hrs",
            &[
                ("0", "0", "18600"),
                ("0.00065", "18600", "100000"),
                ("0.0005", "100000", INF),
            ],
        ),
    ];
    let prices = parse(r, &list, "2026-12-02").expect("prices");
    assert_eq!(prices.standard.rcu_hour, None);
    assert_eq!(
        prices.standard.wcu_hour,
        Some(d("0.00065")),
        "the lowest paid tier"
    );
}

#[test]
fn a_region_with_nothing_of_use_is_none() {
    assert_eq!(parse("us-east-1", &[], "2026-12-02"), None);
    let list = [
        "not json".to_owned(),
        product(
            "ap-south-2",
            "APS5-TimedPITRStorage-ByteHrs",
            STORAGE,
            "GB-Mo",
            &[("0.2", "0", INF)],
        ),
    ];
    assert_eq!(parse("ap-south-2", &list, "2026-12-02"), None);
    assert_eq!(parse("mars-north-1", &us_east_1(), "2026-12-02"), None);
}

#[test]
fn a_product_in_full_as_documented_is_read() {
    // One entry written out whole, as the documented `PriceList` entry reads.
    let entry = r#"{"product":{"productFamily":"Amazon DynamoDB PayPerRequest Throughput",
        "attributes":{"regionCode":"us-east-1","servicecode":"AmazonDynamoDB",
        "usagetype":"USE1-WriteRequestUnits","locationType":"AWS Region",
        "location":"US East (N. Virginia)","servicename":"Amazon DynamoDB",
        "operation":"PayPerRequestThroughput","group":"DDB-WriteUnits",
        "groupDescription":"DynamoDB PayPerRequest Write Request Units"},"sku":"ABCD1234"},
        "serviceCode":"AmazonDynamoDB","terms":{"OnDemand":{"ABCD1234.JRTCKXETXF":{
        "priceDimensions":{"ABCD1234.JRTCKXETXF.6YS6EN2CT7":{"unit":"WriteRequestUnits",
        "endRange":"Inf","description":"$0.625 per million write request units (N. Virginia)",
        "appliesTo":[],"rateCode":"ABCD1234.JRTCKXETXF.6YS6EN2CT7","beginRange":"0",
        "pricePerUnit":{"USD":"0.0000006250"}}},"sku":"ABCD1234",
        "effectiveDate":"2026-11-01T00:00:00Z","offerTermCode":"JRTCKXETXF",
        "termAttributes":{}}}},"version":"20261101000000","publicationDate":"2026-11-01T00:00:00Z"}"#;
    let prices = parse("us-east-1", &[entry.to_owned()], "2026-12-02").expect("prices");
    assert_eq!(prices.standard.write_request_per_million, Some(d("0.625")));
    assert_eq!(prices.standard_ia, ClassPrices::default());
}
