use super::*;
use crate::condition::ScalarType;

fn posts() -> TableSpec {
    let mut spec = TableSpec::new(
        "Posts",
        parse_key("PK:S").unwrap(),
        Some(parse_key("SK:S").unwrap()),
    );
    spec.global = vec![
        parse_index("GSI1=GSI1PK:S,GSI1SK:S:ALL").unwrap(),
        parse_index("ByUser=user:S:INCLUDE(likedAt,title)").unwrap(),
    ];
    spec.local = vec![parse_index("ByDate=PK:S,createdAt:N:KEYS_ONLY").unwrap()];
    spec
}

#[test]
fn the_command_line_forms_read_as_the_issue_writes_them() {
    let index = parse_index("ByUser=user:S:INCLUDE(likedAt,title)").unwrap();
    assert_eq!(index.name, "ByUser");
    assert_eq!(index.partition.name, "user");
    assert_eq!(index.sort, None);
    assert_eq!(
        index.projection,
        ProjectionSpec::Include(vec!["likedAt".into(), "title".into()])
    );
    let index = parse_index("GSI1=GSI1PK:S,GSI1SK:N").unwrap();
    assert_eq!(index.projection, ProjectionSpec::All);
    assert_eq!(index.sort.unwrap().kind, ScalarType::N);
    assert_eq!(
        parse_index("K=a:S:KEYS_ONLY").unwrap().projection,
        ProjectionSpec::KeysOnly
    );
    // A colon in an attribute's name is kept: the type is after the last one.
    assert_eq!(parse_key("a:b:N").unwrap().name, "a:b");
    for bad in ["PK", "PK:X", ":S"] {
        assert!(parse_key(bad).is_err(), "{bad}");
    }
    for bad in [
        "noequals",
        "I=a:S,b:S,c:S",
        "I=a:S:INCLUDE(x",
        "I=a:S:INCLUDE()",
    ] {
        assert!(parse_index(bad).is_err(), "{bad}");
    }
    assert_eq!(
        parse_tag("team=social").unwrap(),
        ("team".into(), "social".into())
    );
    assert_eq!(
        StreamView::parse("new-and-old-images"),
        Some(StreamView::NewAndOldImages)
    );
    assert_eq!(ClassSpec::parse("standard-ia"), Some(ClassSpec::StandardIa));
}

#[test]
fn a_good_table_has_no_problems_and_defines_each_key_once() {
    let spec = posts();
    assert_eq!(spec.problems(), Vec::<String>::new());
    let names: Vec<&str> = spec
        .attribute_definitions()
        .iter()
        .map(|k| k.name.as_str())
        .collect();
    assert_eq!(names, ["PK", "SK", "GSI1PK", "GSI1SK", "user", "createdAt"]);
    assert_eq!(
        spec.summary(),
        "Posts: PK (S) / SK (S), on demand, 2 global indexes, 1 local index"
    );
}

#[test]
fn what_dynamodb_refuses_is_refused_in_words() {
    let mut spec = posts();
    spec.name = "po sts".into();
    spec.global.push(parse_index("ByUser=other:N").unwrap());
    spec.global.push(parse_index("Clash=PK:N").unwrap());
    spec.local.push(parse_index("Bad=other:S,x:S").unwrap());
    spec.local.push(parse_index("Same=PK:S,SK:S").unwrap());
    spec.billing = BillingSpec::Provisioned { rcu: 0, wcu: 5 };
    spec.tags = vec![
        ("aws:x".into(), String::new()),
        ("t".into(), "1".into()),
        ("t".into(), "2".into()),
    ];
    let problems = spec.problems().join("\n");
    for expected in [
        "`po sts`: ` ` is not allowed",
        "two indexes are named `ByUser`",
        "`PK` is a key of type S and of type N",
        "local index `Bad`: its partition key is the table's, `PK`",
        "local index `Same`: its sort key must differ from the table's, `SK`",
        "provisioned capacity is at least 1 RCU and 1 WCU",
        "the prefix aws: is AWS's own",
        "tag key `t` is given twice",
    ] {
        assert!(problems.contains(expected), "{expected}\n{problems}");
    }
    assert!(spec.check().unwrap_err().to_string().contains("more"));

    let mut no_sort = TableSpec::new("Flat", parse_key("PK:S").unwrap(), None);
    no_sort.local.push(parse_index("Local1=PK:S,x:S").unwrap());
    assert!(no_sort.problems()[0].contains("only a table with a sort key"));

    let mut many = TableSpec::new("Many", parse_key("PK:S").unwrap(), None);
    many.global = (0..=MAX_GSIS)
        .map(|i| {
            parse_index(&format!(
                "G{i:02}=k{i}:S:INCLUDE({})",
                (0..5)
                    .map(|j| format!("a{j}"))
                    .collect::<Vec<_>>()
                    .join(",")
            ))
            .unwrap()
        })
        .collect();
    let problems = many.problems().join("\n");
    assert!(
        problems.contains("21 global indexes: a table has at most 20"),
        "{problems}"
    );
    assert!(problems.contains("105 attributes projected"), "{problems}");
}

#[test]
fn the_request_json_is_what_the_aws_cli_takes() {
    let mut spec = posts();
    spec.billing = BillingSpec::Provisioned { rcu: 5, wcu: 7 };
    spec.stream = Some(StreamView::NewAndOldImages);
    spec.tags = vec![("team".into(), "social".into())];
    let body = create_input_json(&spec);
    assert_eq!(body["TableName"], "Posts");
    assert_eq!(body["KeySchema"][1]["KeyType"], "RANGE");
    assert_eq!(body["BillingMode"], "PROVISIONED");
    assert_eq!(
        body["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]["WriteCapacityUnits"],
        7
    );
    assert_eq!(
        body["GlobalSecondaryIndexes"][1]["Projection"]["NonKeyAttributes"][1],
        "title"
    );
    assert!(
        body["LocalSecondaryIndexes"][0]
            .get("ProvisionedThroughput")
            .is_none()
    );
    assert_eq!(
        body["StreamSpecification"]["StreamViewType"],
        "NEW_AND_OLD_IMAGES"
    );
    assert_eq!(body["Tags"][0]["Key"], "team");
    assert_eq!(body["AttributeDefinitions"].as_array().unwrap().len(), 6);
}

#[test]
fn provisioned_capacity_typed_in_a_form_is_read_or_refused_in_words() {
    assert_eq!(
        BillingSpec::provisioned(" 5", "7 ").unwrap(),
        BillingSpec::Provisioned { rcu: 5, wcu: 7 }
    );
    let err = BillingSpec::provisioned("abc", "5")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("RCU: a whole number of units, not `abc`"),
        "{err}"
    );
    let err = BillingSpec::provisioned("5", "-1").unwrap_err().to_string();
    assert!(
        err.contains("WCU: a whole number of units, not `-1`"),
        "{err}"
    );
}
