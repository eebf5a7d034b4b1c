//! The builder's tests.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use super::*;
use crate::expr::parser::QueryKeys;
use crate::value::AttrType;

fn key() -> Item {
    Item::from([
        ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
        ("SK".to_owned(), AttributeValue::S("META".into())),
    ])
}

#[test]
fn builds_the_articles_like_update() {
    let mut input = Input::new("Social");
    input.item = Some(key());
    input
        .texts
        .insert(Field::Update, "ADD likeTally :one".into());
    input
        .texts
        .insert(Field::Condition, "attribute_not_exists(SK)".into());
    input.values.push(ValueRow {
        placeholder: ":one".into(),
        kind: AttrType::N,
        text: "1".into(),
    });
    let compiled = compile(&input, &["PK".into(), "SK".into()], None);
    let request = compiled.request.unwrap();
    assert_eq!(
        request.update.as_deref(),
        Some("ADD #n0 :one"),
        "`:one` kept"
    );
    assert_eq!(
        request.condition.as_deref(),
        Some("attribute_not_exists(#n1)")
    );
    assert_eq!(request.values[":one"], AttributeValue::N("1".into()));
    assert!(compiled.notes.is_empty(), "{:?}", compiled.notes);
}

fn compiled(kind: Kind, field: Field, text: &str) -> Compiled {
    let mut input = Input::new("Social");
    input.kind = kind;
    input.item = Some(key());
    input.texts.insert(field, text.into());
    compile(&input, &["PK".into(), "SK".into()], None)
}

#[test]
fn reserved_words_typed_bare_are_aliased_with_a_note() {
    let c = compiled(Kind::Update, Field::Update, "ADD count 1");
    let request = c.request.unwrap();
    assert_eq!(request.update.as_deref(), Some("ADD #n0 :v0"));
    assert_eq!(request.names["#n0"], "count");
    assert_eq!(
        c.notes,
        ["`count` is a DynamoDB reserved word: sent as #n0"]
    );
    // Each segment of a path is a name of its own; list indexes stay; functions are functions.
    let c = compiled(
        Kind::Scan,
        Field::Filter,
        "size(size) > 1 AND m.inner.deep[2] = status AND attribute_exists(likeTally)",
    );
    let request = c.request.unwrap();
    assert_eq!(
        request.filter.as_deref(),
        Some("size(#n0) > :v0 AND #n1.#n2.#n3[2] = #n4 AND attribute_exists(#n5)")
    );
    assert_eq!(
        [1, 2, 3].map(|k| request.names[&format!("#n{k}")].as_str()),
        ["m", "inner", "deep"]
    );
    assert_eq!(
        c.notes,
        [
            "`size` is a DynamoDB reserved word: sent as #n0",
            "`inner` is a DynamoDB reserved word: sent as #n2",
            "`status` is a DynamoDB reserved word: sent as #n4",
        ]
    );
    // One placeholder per distinct name, however often it is used.
    let c = compiled(
        Kind::Scan,
        Field::Filter,
        "year > 1 OR year < 0 OR NOT year = 5",
    );
    assert_eq!(
        c.request.unwrap().filter.as_deref(),
        Some("#n0 > :v0 OR #n0 < :v1 OR NOT #n0 = :v2")
    );
    assert_eq!(c.notes.len(), 1);
    // The words of the grammar are still the grammar.
    let c = compiled(Kind::Update, Field::Update, "ADD ADD 1");
    assert!(c.request.is_none());
    assert_eq!(c.errors[0].1.position, 4);
}

#[test]
fn a_persons_own_placeholders_are_kept_and_never_collided_with() {
    let mut input = Input::new("Social");
    input.kind = Kind::Scan;
    input.texts.insert(
        Field::Filter,
        "#t = :one AND name = 2 AND #n0 = :v0 AND data = :one AND year > 0".into(),
    );
    input.names = vec![
        ("#n0".into(), "status".into()),
        ("#t".into(), "year".into()),
    ];
    for (placeholder, kind, text) in [(":one", AttrType::N, "1"), (":v0", AttrType::S, "x")] {
        input.values.push(ValueRow {
            placeholder: placeholder.into(),
            kind,
            text: text.into(),
        });
    }
    let c = compile(&input, &[], None);
    let request = c.request.unwrap();
    assert_eq!(
        request.filter.as_deref(),
        Some("#t = :one AND #n1 = :v1 AND #n0 = :v0 AND #n2 = :one AND #t > :v2")
    );
    assert_eq!(
        request.names,
        HashMap::from([
            ("#t".to_owned(), "year".to_owned()),
            ("#n0".to_owned(), "status".to_owned()),
            ("#n1".to_owned(), "name".to_owned()),
            ("#n2".to_owned(), "data".to_owned()),
        ])
    );
    assert_eq!(
        request.values,
        HashMap::from([
            (":one".to_owned(), AttributeValue::N("1".into())),
            (":v0".to_owned(), AttributeValue::S("x".into())),
            (":v1".to_owned(), AttributeValue::N("2".into())),
            (":v2".to_owned(), AttributeValue::N("0".into())),
        ])
    );
    // `year` has the person's #t, `status` their #n0: no note for those.
    assert_eq!(
        c.notes,
        [
            "`name` is a DynamoDB reserved word: sent as #n1",
            "`data` is a DynamoDB reserved word: sent as #n2",
        ]
    );
}

#[test]
fn errors_by_field_and_value() {
    let mut input = Input::new("Social");
    input.item = Some(key());
    input.texts.insert(Field::Update, "SET SK = :x".into());
    input
        .texts
        .insert(Field::Condition, "begins_with(a)".into());
    input.values.push(ValueRow {
        placeholder: ":x".into(),
        kind: AttrType::N,
        text: "abc".into(),
    });
    let compiled = compile(&input, &["PK".into(), "SK".into()], None);
    assert!(compiled.request.is_none());
    assert!(
        compiled.problems.iter().any(|p| p.starts_with(":x:")),
        "{:?}",
        compiled.problems
    );
    let fields: Vec<Field> = compiled.errors.iter().map(|(f, _)| *f).collect();
    assert!(fields.contains(&Field::Condition));
}

#[test]
fn a_value_dynamodb_would_refuse_is_a_problem_of_the_value_alone() {
    let mut input = Input::new("Social");
    input.item = Some(key());
    input.texts.insert(Field::Update, "SET tags = :t".into());
    input.values.push(ValueRow {
        placeholder: ":t".into(),
        kind: AttrType::Ss,
        text: "[]".into(),
    });
    let compiled = compile(&input, &["PK".into(), "SK".into()], None);
    assert!(compiled.request.is_none(), "nothing to send");
    assert!(
        compiled
            .problems
            .iter()
            .any(|p| p.contains("cannot be empty")),
        "{:?}",
        compiled.problems
    );
    // The update that uses it parsed: it is not blamed for a missing value.
    assert!(compiled.errors.is_empty(), "{:?}", compiled.errors);
}

#[test]
fn every_value_type() {
    assert_eq!(
        AttrType::Ss.parse(r#"["a","b"]"#).unwrap(),
        AttributeValue::Ss(vec!["a".into(), "b".into()])
    );
    assert_eq!(
        AttrType::Ns.parse(r#"["1","2.5"]"#).unwrap(),
        AttributeValue::Ns(vec!["1".into(), "2.5".into()])
    );
    assert!(matches!(
        AttrType::L.parse(r#"[{"N":"1"}]"#).unwrap(),
        AttributeValue::L(_)
    ));
    assert!(matches!(
        AttrType::M.parse(r#"{"k":{"S":"v"}}"#).unwrap(),
        AttributeValue::M(_)
    ));
    assert!(matches!(
        AttrType::Bs.parse(r#"["AQI="]"#).unwrap(),
        AttributeValue::Bs(_)
    ));
    assert_eq!(
        AttrType::Bool.parse("true").unwrap(),
        AttributeValue::Bool(true)
    );
    assert!(AttrType::N.parse("1e999").is_err());
    for kind in AttrType::ALL {
        let sample = match kind.tag() {
            "S" => AttributeValue::S("x".into()),
            "N" => AttributeValue::N("12345678901234567890123456789012345678".into()),
            "B" => AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(vec![1, 2])),
            "BOOL" => AttributeValue::Bool(false),
            "NULL" => AttributeValue::Null(true),
            "L" => AttributeValue::L(vec![AttributeValue::N("1".into())]),
            "M" => AttributeValue::M(HashMap::from([(
                "a".to_owned(),
                AttributeValue::S("b".into()),
            )])),
            "SS" => AttributeValue::Ss(vec!["a".into()]),
            "NS" => AttributeValue::Ns(vec!["7".into()]),
            _ => AttributeValue::Bs(vec![aws_sdk_dynamodb::primitives::Blob::new(vec![3])]),
        };
        let row = ValueRow::new(":v", &sample);
        assert_eq!(row.kind, kind);
        assert_eq!(row.value().unwrap(), sample, "{kind:?}");
    }
}

#[test]
fn key_conditions_use_the_keys_and_nothing_else() {
    let mut input = Input::new("Social");
    input.kind = Kind::Query;
    let keys = QueryKeys {
        partition: "PK".into(),
        sort: Some("SK".into()),
    };
    for (text, ok) in [
        ("PK = 'POST#a91f'", true),
        ("PK = 'POST#a91f' AND begins_with(SK, 'LIKE#')", true),
        ("PK = 'POST#a91f' AND SK BETWEEN 'A' AND 'Z'", true),
        ("PK = 'POST#a91f' AND SK >= 'LIKE#'", true),
        ("PK = 'POST#a91f' AND SK <> 'META'", false),
        ("PK = 'POST#a91f' AND likeTally > 1", false),
        ("SK = 'META'", false),
        ("PK = 'x' OR PK = 'y'", false),
    ] {
        input.texts.insert(Field::KeyCondition, text.into());
        let compiled = compile(&input, &[], Some(&keys));
        assert_eq!(
            compiled.request.is_some(),
            ok,
            "{text}: {:?}",
            compiled.errors
        );
    }
}

#[test]
fn a_pasted_request_comes_back_into_the_builder() {
    let pasted = r##"{"TableName": "Videos", "Key": {"PK": {"S": "VID#9f3a"}, "SK": {"S": "STATS#TOTAL"}},
            "UpdateExpression": "SET #pc = :next", "ConditionExpression": "#pc = :current",
            "ExpressionAttributeNames": {"#pc": "play_count"},
            "ExpressionAttributeValues": {":next": {"N": "42"}, ":current": {"N": "41"}}}"##;
    let input = Input::from_request_json(pasted).unwrap();
    assert_eq!(input.kind, Kind::Update);
    assert_eq!(input.text(Field::Condition), "#pc = :current");
    assert_eq!(input.names, [("#pc".to_owned(), "play_count".to_owned())]);
    let compiled = compile(&input, &[], None);
    let request = compiled.request.unwrap();
    assert_eq!(request.update.as_deref(), Some("SET #pc = :next"));
    assert_eq!(request.condition.as_deref(), Some("#pc = :current"));
    assert_eq!(request.values[":current"], AttributeValue::N("41".into()));
}
