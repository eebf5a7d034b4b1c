//! The code generator's tests.

use super::*;
use aws_sdk_dynamodb::types::AttributeValue;

fn like_tally() -> Request {
    Request {
        table: "Social".into(),
        operation: Operation::Update(Item::from([
            ("PK".to_owned(), AttributeValue::S("POST#a91f".into())),
            ("SK".to_owned(), AttributeValue::S("META".into())),
        ])),
        update: Some("ADD #n0 :v0".into()),
        condition: Some("attribute_not_exists(#n1)".into()),
        key_condition: None,
        filter: None,
        projection: None,
        names: HashMap::from([
            ("#n0".into(), "likeTally".into()),
            ("#n1".into(), "SK".into()),
        ]),
        values: HashMap::from([(
            ":v0".into(),
            AttributeValue::N("12345678901234567890123456789012345678".into()),
        )]),
        returns: ReturnOptions {
            values: Some(ReturnValues::UpdatedNew),
            ..ReturnOptions::default()
        },
    }
}

#[test]
fn every_target_names_the_expression_and_keeps_numbers_exact() {
    let r = like_tally();
    let big = "12345678901234567890123456789012345678";
    for target in Target::ALL {
        let code = r.render(target);
        assert!(code.contains("ADD #n0 :v0"), "{target:?}: {code}");
        assert!(code.contains(big), "{target:?} keeps the 38 digits: {code}");
        assert!(code.contains("likeTally"), "{target:?}");
    }
    let json: serde_json::Value = serde_json::from_str(&r.render(Target::Json)).unwrap();
    assert_eq!(json["ReturnValues"], "UPDATED_NEW");
    assert!(
        r.render(Target::Cli)
            .contains("--return-values UPDATED_NEW")
    );
    assert!(
        r.render(Target::Boto3)
            .contains("ReturnValues=\"UPDATED_NEW\",")
    );
    assert!(
        r.render(Target::Rust)
            .contains(".return_values(\"UPDATED_NEW\".into())")
    );
    assert_eq!(json["ExpressionAttributeValues"][":v0"]["N"], big);
    assert!(
        r.render(Target::Cli)
            .contains("--condition-expression 'attribute_not_exists(#n1)'")
    );
    assert!(r.render(Target::Boto3).contains("client.update_item("));
    assert!(
        r.render(Target::JsClient)
            .contains("new UpdateItemCommand({")
    );
    let doc = r.render(Target::JsDocument);
    assert!(doc.contains("new UpdateCommand({"), "{doc}");
    assert!(
        doc.contains(&format!("NumberValue.from(\"{big}\")")),
        "{doc}"
    );
    assert!(doc.contains("\"PK\": \"POST#a91f\""), "{doc}");
    let rust = r.render(Target::Rust);
    assert!(
        rust.contains(".expression_attribute_names(\"#n0\", \"likeTally\")"),
        "{rust}"
    );
    assert!(rust.contains(&format!(
        ".expression_attribute_values(\":v0\", AttributeValue::N(\"{big}\".into()))"
    )));
}
