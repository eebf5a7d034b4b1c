//! A clone's pure parts: the schema adjusted for a destination, values compared, how it ends.

use aws_sdk_dynamodb::types::AttributeValue;

use super::schema::adjusted;
use super::verify::same;
use super::*;
use crate::schema::{BillingSpec, Described, StreamView, TableSpec, parse_key};

fn described(spec: TableSpec, unread: Vec<String>) -> Described {
    Described {
        spec,
        status: "ACTIVE".into(),
        indexes: Vec::new(),
        arn: None,
        created: None,
        item_count: None,
        size_bytes: None,
        unread,
    }
}

#[test]
fn what_the_destination_cannot_take_is_adjusted_and_said() {
    let mut spec = TableSpec::new("Social", parse_key("PK:S").unwrap(), None);
    spec.pitr = true;
    spec.stream = Some(StreamView::NewAndOldImages);
    spec.billing = BillingSpec::Provisioned { rcu: 5, wcu: 7 };
    spec.tags = vec![
        ("aws:cloudformation:stack-name".into(), "x".into()),
        ("team".into(), "social".into()),
    ];
    let source = described(spec.clone(), vec!["TTL: DescribeTimeToLive failed".into()]);

    let (local, said) = adjusted(&source, "Copy", false, "http://127.0.0.1:8000");
    assert_eq!(local.name, "Copy");
    assert!(!local.pitr, "no continuous backups off AWS");
    assert_eq!(local.tags, vec![("team".to_owned(), "social".to_owned())]);
    assert_eq!(local.billing, spec.billing, "kept as it was");
    assert_eq!(local.stream, None, "turned on after the copy");
    let text = said.join("\n");
    for words in [
        "not read from the source, so not set on the copy: TTL",
        "point-in-time recovery is on at the source but left off on the copy: http://127.0.0.1:8000 is not AWS",
        "aws:cloudformation:stack-name",
        "provisioned 5 RCU / 7 WCU",
        "the stream (NEW_AND_OLD_IMAGES) is turned on once every item is copied",
    ] {
        assert!(text.contains(words), "{words}: {text}");
    }

    let (aws, said) = adjusted(&source, "Copy", true, "dynamodb.eu-west-1");
    assert!(aws.pitr, "AWS keeps it");
    assert!(!said.join("\n").contains("point-in-time"));
}

#[test]
fn values_are_compared_as_dynamodb_holds_them() {
    let n = |t: &str| AttributeValue::N(t.into());
    assert!(same(&n("1.50"), &n("1.5")));
    assert!(same(
        &n("98765432109876543210987654321098765432"),
        &n("98765432109876543210987654321098765432")
    ));
    assert!(!same(
        &n("98765432109876543210987654321098765432"),
        &n("98765432109876543210987654321098765433")
    ));
    let ns = |v: &[&str]| AttributeValue::Ns(v.iter().map(|s| (*s).to_owned()).collect());
    assert!(same(&ns(&["1", "2.0"]), &ns(&["2", "1"])));
    let m = |v| AttributeValue::M([("a".to_owned(), v)].into());
    assert!(same(&m(n("3.0")), &m(n("3"))));
    assert!(!same(&m(n("3")), &m(AttributeValue::S("3".into()))));
}

#[test]
fn a_check_agrees_only_when_counts_and_sample_do() {
    let mut verified = Verified {
        items: (10, 10),
        partitions: 2,
        bucketed: false,
        differing: (Vec::new(), 0),
        sampled: 10,
        sample_differences: (Vec::new(), 0),
        rcu: 1.0,
    };
    assert!(verified.agrees());
    assert!(verified.lines().join("\n").contains("all equal"));
    verified.sample_differences = (vec!["PK = a: missing at the destination".into()], 1);
    assert!(!verified.agrees());
    let lines = verified.lines().join("\n");
    assert!(lines.contains("1 of 10 sampled items differ"), "{lines}");
    assert!(
        lines.contains("PK = a: missing at the destination"),
        "{lines}"
    );
}

#[test]
fn what_was_not_read_is_said_once_in_a_clone_report() {
    let pitr = "point-in-time recovery: this engine has no backups";
    let lines = super::schema::said_once(vec![
        "clone of Social into Copy at http://127.0.0.1:8000".to_owned(),
        format!("schema: not read: {pitr}"),
        format!("schema: adjusted: not read from the source, so not set on the copy: {pitr}"),
        "schema: not read: TTL: refused".to_owned(),
        format!("stream: not read: {pitr}"),
        "stream: not read: TTL: refused".to_owned(),
        "stream: now: Copy (ACTIVE)".to_owned(),
    ]);
    assert_eq!(
        lines,
        [
            "clone of Social into Copy at http://127.0.0.1:8000".to_owned(),
            format!("schema: adjusted: not read from the source, so not set on the copy: {pitr}"),
            "schema: not read: TTL: refused".to_owned(),
            "stream: now: Copy (ACTIVE)".to_owned(),
        ]
    );
}
