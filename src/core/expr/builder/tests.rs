//! The builder's tests.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use super::*;
use crate::core::expr::parser::QueryKeys;

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
        kind: ValueType::N,
        text: "1".into(),
    });
    let compiled = compile(&input, &["PK".into(), "SK".into()], None);
    let request = compiled.request.unwrap();
    assert_eq!(request.update.as_deref(), Some("ADD #n0 :v0"));
    assert_eq!(
        request.condition.as_deref(),
        Some("attribute_not_exists(#n1)")
    );
    assert_eq!(request.values[":v0"], AttributeValue::N("1".into()));
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
        kind: ValueType::N,
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
fn every_value_type() {
    assert_eq!(
        ValueType::Ss.parse(r#"["a","b"]"#).unwrap(),
        AttributeValue::Ss(vec!["a".into(), "b".into()])
    );
    assert_eq!(
        ValueType::Ns.parse(r#"["1","2.5"]"#).unwrap(),
        AttributeValue::Ns(vec!["1".into(), "2.5".into()])
    );
    assert!(matches!(
        ValueType::L.parse(r#"[{"N":"1"}]"#).unwrap(),
        AttributeValue::L(_)
    ));
    assert!(matches!(
        ValueType::M.parse(r#"{"k":{"S":"v"}}"#).unwrap(),
        AttributeValue::M(_)
    ));
    assert!(matches!(
        ValueType::Bs.parse(r#"["AQI="]"#).unwrap(),
        AttributeValue::Bs(_)
    ));
    assert_eq!(
        ValueType::Bool.parse("true").unwrap(),
        AttributeValue::Bool(true)
    );
    assert!(ValueType::N.parse("1e999").is_err());
    for kind in ValueType::ALL {
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
    assert_eq!(request.update.as_deref(), Some("SET #n0 = :v0"));
    assert_eq!(request.condition.as_deref(), Some("#n0 = :v1"));
    assert_eq!(request.values[":v1"], AttributeValue::N("41".into()));
}
