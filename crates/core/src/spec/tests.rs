//! Each spec's checks at their boundaries, in the words every front end shows.

use aws_sdk_dynamodb::types::AttributeValue;

use super::*;
use crate::condition::{ScalarType, SortOp};
use crate::read::BrowseMode;
use crate::table::{IndexInfo, IndexKind, KeyAttr, TableInfo};
use crate::tally::{ChildSource, ReconcilePlan, Rule};

pub(super) fn social() -> TableInfo {
    let mut info = TableInfo::with_keys(
        "Social",
        KeyAttr::new("PK", ScalarType::S),
        Some(KeyAttr::new("SK", ScalarType::S)),
    );
    info.indexes.push(IndexInfo {
        name: "ByRank".into(),
        kind: IndexKind::Global,
        partition: KeyAttr::new("owner", ScalarType::S),
        sort: Some(KeyAttr::new("rank", ScalarType::N)),
        projection: "ALL".into(),
        status: None,
        item_count: None,
    });
    info
}

pub(super) fn numbers() -> TableInfo {
    TableInfo::with_keys("Numbers", KeyAttr::new("id", ScalarType::N), None)
}

fn query(pk: &str) -> ReadSpec {
    ReadSpec {
        table: "Social".into(),
        pk: Some(pk.into()),
        ..ReadSpec::default()
    }
}

fn refused(spec: &ReadSpec, info: &TableInfo) -> InputError {
    spec.plan(info).expect_err("refused")
}

#[test]
fn a_query_with_a_sort_condition_is_planned() {
    let mut spec = query("POST#a91f");
    spec.set_sort(SortOp::BeginsWith, "LIKE#".into(), String::new());
    spec.descending = true;
    spec.limit = Some(5);
    spec.page_size = Some(100);
    let plan = spec.plan(&social()).expect("planned");
    let BrowseMode::Query {
        partition,
        sort: Some(sort),
        forward,
    } = &plan.request.mode
    else {
        panic!("a query: {:?}", plan.request.mode);
    };
    assert_eq!(partition, &AttributeValue::S("POST#a91f".into()));
    assert_eq!(sort.op, SortOp::BeginsWith);
    assert!(!forward);
    assert_eq!(plan.request.page_size, Some(100));
    assert_eq!(plan.limit, Some(5));
    assert_eq!(plan.start, None);
}

#[test]
fn no_partition_key_is_a_scan_and_a_sort_condition_needs_one() {
    let plan = ReadSpec::scan("Social").plan(&social()).expect("planned");
    assert!(matches!(plan.request.mode, BrowseMode::Scan { .. }));
    let spec = ReadSpec {
        sk_eq: Some("META".into()),
        ..ReadSpec::scan("Social")
    };
    let error = refused(&spec, &social());
    assert_eq!(error.field, "pk");
    assert!(
        error.reason.contains("needs a partition key value"),
        "{error}"
    );
}

#[test]
fn the_values_are_parsed_as_the_keys_types() {
    let error = refused(
        &ReadSpec {
            table: "Numbers".into(),
            pk: Some("abc".into()),
            ..ReadSpec::default()
        },
        &numbers(),
    );
    assert_eq!(error.field, "pk");
    assert!(error.reason.starts_with("partition key `id`: "), "{error}");
    let mut spec = query("ann");
    spec.index = Some("ByRank".into());
    spec.sk_gt = Some("ten".into());
    let error = refused(&spec, &social());
    assert_eq!(error.field, "sk");
    assert!(error.reason.starts_with("sort key: "), "{error}");
    spec.sk_gt = Some("10".into());
    assert!(spec.plan(&social()).is_ok());
}

#[test]
fn an_empty_partition_key_a_missing_index_and_two_conditions_are_refused() {
    assert_eq!(
        refused(&query(""), &social()).reason,
        "give a value for the partition key `PK`"
    );
    let mut spec = query("P");
    spec.index = Some("Nope".into());
    assert_eq!(
        refused(&spec, &social()).reason,
        "Social has no index `Nope`"
    );
    let mut spec = query("P");
    spec.sk_eq = Some("A".into());
    spec.sk_lt = Some("B".into());
    assert_eq!(refused(&spec, &social()).field, "sk");
    let mut spec = query("P");
    spec.sk_between = Some(vec!["A".into()]);
    assert!(refused(&spec, &social()).reason.contains("two values"));
    let numbers_spec = ReadSpec {
        table: "Numbers".into(),
        pk: Some("1".into()),
        sk_eq: Some("1".into()),
        ..ReadSpec::default()
    };
    assert!(
        refused(&numbers_spec, &numbers())
            .reason
            .contains("has no sort key")
    );
}

#[test]
fn limits_and_page_sizes_start_at_one_and_fit_dynamodb() {
    let mut spec = query("P");
    spec.limit = Some(0);
    assert_eq!(refused(&spec, &social()).field, "limit");
    let mut spec = query("P");
    spec.page_size = Some(0);
    assert_eq!(refused(&spec, &social()).field, "page_size");
    spec.page_size = Some(usize::try_from(i32::MAX).expect("fits") + 1);
    assert!(
        refused(&spec, &social())
            .reason
            .contains("more than DynamoDB takes")
    );
    assert_eq!(count_from_one("7"), Ok(7));
    assert_eq!(
        count_from_one("0"),
        Err("0: give a whole number from 1".into())
    );
    assert!(
        count_from_one("-1")
            .expect_err("negative")
            .contains("negative")
    );
    assert!(
        count_from_one("ten")
            .expect_err("text")
            .contains("not a whole number")
    );
    assert_eq!(page_size("25"), Ok(25));
}

#[test]
fn a_start_key_is_a_key_of_the_table() {
    let mut spec = query("P");
    spec.start_key = Some(r#"{"PK":{"S":"P"},"SK":{"S":"A"}}"#.into());
    let plan = spec.plan(&social()).expect("planned");
    assert_eq!(plan.start.map(|k| k.len()), Some(2));
    spec.start_key = Some(r#"{"PK":{"S":"P"}}"#.into());
    let error = refused(&spec, &social());
    assert_eq!(error.field, "start_key");
    assert!(error.reason.starts_with("start key: "), "{error}");
    spec.start_key = Some("{}".into());
    assert_eq!(spec.plan(&social()).expect("from the start").start, None);
    spec.start_key = Some("not json".into());
    assert_eq!(refused(&spec, &social()).field, "start_key");
}

#[test]
fn a_key_names_each_key_attribute_once() {
    let key = KeySpec::new([("PK", "POST#a91f"), ("SK", "META")])
        .plan(&social())
        .expect("a key");
    assert_eq!(key.len(), 2);
    let plan = |pairs: &[(&str, &str)]| {
        KeySpec::new(pairs.iter().copied())
            .plan(&social())
            .expect_err("refused")
            .reason
    };
    assert_eq!(plan(&[("PK", "A")]), "the key of Social needs `SK` too");
    assert_eq!(
        plan(&[("PK", "A"), ("SK", "B"), ("x", "1")]),
        "`x` is not a key attribute of Social"
    );
    assert!(plan(&[("PK", "A"), ("PK", "B"), ("SK", "C")]).contains("given twice"));
    let error = KeySpec::new([("id", "x")])
        .plan(&numbers())
        .expect_err("not a number");
    assert!(error.reason.starts_with("key `id`: "), "{error}");
}

#[test]
fn a_key_object_keeps_its_order_and_takes_numbers_as_text() {
    let key: KeySpec = serde_json::from_str(r#"{"SK": "META", "PK": "POST#a91f"}"#).expect("json");
    assert_eq!(key.pairs[0], ("SK".to_owned(), "META".to_owned()));
    let key: KeySpec = serde_json::from_str(r#"{"id": 12.50}"#).expect("json");
    assert_eq!(key.pairs[0].1, "12.50");
    assert_eq!(key.plan(&numbers()).expect("a number key")["id"], {
        aws_sdk_dynamodb::types::AttributeValue::N("12.50".into())
    });
    assert!(serde_json::from_str::<KeySpec>(r#"{"id": [1]}"#).is_err());
    // A number for a string key is refused, as DynamoDB refuses it: never read as "5".
    let key: KeySpec = serde_json::from_str(r#"{"PK": 5, "SK": "META"}"#).expect("json");
    let error = key.plan(&social()).expect_err("a number for PK (S)");
    assert_eq!(
        error.reason,
        "key `PK` of Social is a string (S) attribute: give its value as text (\"5\"), not the number 5"
    );
}

#[test]
fn a_rule_says_what_it_lacks() {
    let spec = RuleSpec {
        tally: "likeTally".into(),
        child_prefix: "LIKE#".into(),
        ..RuleSpec::default()
    };
    let Ok(Rule::Tally(rule)) = spec.plan() else {
        panic!("a tally rule");
    };
    assert_eq!(rule.parents.sort_key, "META");
    assert_eq!(rule.children, ChildSource::SortKeyPrefix("LIKE#".into()));
    let lacking = RuleSpec {
        tally: "likeTally".into(),
        ..RuleSpec::default()
    };
    let error = lacking.plan().expect_err("no children");
    assert_eq!(error.field, "child_prefix");
    assert!(error.reason.starts_with("a rule needs"), "{error}");
    let no_tally = RuleSpec {
        child_prefix: "LIKE#".into(),
        ..RuleSpec::default()
    };
    assert_eq!(no_tally.plan().expect_err("no tally").field, "tally");
    let stray_key = RuleSpec {
        child_key: Some("postId".into()),
        ..spec.clone()
    };
    assert_eq!(stray_key.plan().expect_err("no index").field, "child_key");
    let shards = RuleSpec {
        tally: "play_count".into(),
        shards: Some("STATS#TOTAL#".into()),
        ..RuleSpec::default()
    };
    assert!(matches!(shards.plan(), Ok(Rule::Shards(_))));
    assert!(shards.tally_rule().is_err());
    assert!(spec.shard_rule().is_err());
}

#[test]
fn a_plan_choice_is_one_of_three() {
    assert_eq!(PlanChoice::parse("one-pass"), Ok(PlanChoice::OnePass));
    let estimated = ReconcilePlan::PerParent { concurrency: 3 };
    assert_eq!(PlanChoice::Auto.plan(8, estimated), estimated);
    assert_eq!(
        PlanChoice::OnePass.plan(8, estimated),
        ReconcilePlan::OnePass { segments: 8 }
    );
    assert_eq!(
        PlanChoice::parse("fast").expect_err("no such plan").reason,
        "`fast` is not a plan: use auto, one-pass or per-parent"
    );
}

#[test]
fn a_filter_is_one_known_comparison_with_its_values_of_one_type() {
    let filter = |op: &str, kind: ScalarType, values: &[&str]| FilterSpec {
        attribute: "n".into(),
        op: op.into(),
        kind,
        values: values.iter().map(|v| (*v).to_owned()).collect(),
    };
    let mut spec = ReadSpec::scan("Social");
    spec.filters = vec![
        filter("between", ScalarType::N, &["1", "10"]),
        filter("exists", ScalarType::S, &[]),
    ];
    let plan = spec.plan(&social()).expect("planned");
    assert_eq!(plan.request.filter.len(), 2);
    assert_eq!(
        plan.request.filter[0].values[1],
        AttributeValue::N("10".into())
    );
    for (bad, words) in [
        (filter("~", ScalarType::S, &["a"]), "is not a comparison"),
        (
            filter("between", ScalarType::N, &["1"]),
            "takes 2 value(s), 1 given",
        ),
        (filter(">", ScalarType::N, &["ten"]), "filter: "),
    ] {
        spec.filters = vec![bad];
        let error = spec.plan(&social()).expect_err("refused");
        assert_eq!(error.field, "filters");
        assert!(error.reason.contains(words), "{error}");
    }
}

#[test]
fn a_filters_type_is_read_as_dynamodb_tags_it() {
    let filter: FilterSpec = serde_json::from_str(
        r#"{"attribute": "pinned", "op": "=", "type": "BOOL", "values": ["true"]}"#,
    )
    .expect("BOOL is a type");
    assert_eq!(filter.kind, ScalarType::Bool);
    let plain: FilterSpec =
        serde_json::from_str(r#"{"attribute": "a", "op": "exists"}"#).expect("S by default");
    assert_eq!(plain.kind, ScalarType::S);
    let unknown = r#"{"attribute": "a", "op": "=", "type": "X"}"#;
    assert!(serde_json::from_str::<FilterSpec>(unknown).is_err());
}
