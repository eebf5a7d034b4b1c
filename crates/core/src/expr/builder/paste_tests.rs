//! Pasting back: every request the builder builds, copied as an AWS CLI command (or as JSON) and
//! pasted, compiles to the same request.

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;

use super::*;
use crate::expr::codegen::{ClientSetup, Target};

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

fn key() -> Item {
    Item::from([
        ("PK".to_owned(), s("POST#a91f")),
        ("SK".to_owned(), s("it's")),
    ])
}

/// The key, and a value of every type with quotes, backslashes and new lines in them.
fn put_item() -> Item {
    let mut item = key();
    for (name, value) in [
        (
            "big",
            AttributeValue::N("-1.2345678901234567890123456789012345E+99".into()),
        ),
        ("blob", AttributeValue::B(Blob::new(vec![0, 255, 39]))),
        (
            "list",
            AttributeValue::L(vec![s("a'b"), AttributeValue::Null(true)]),
        ),
        (
            "map",
            AttributeValue::M(HashMap::from([(
                "k\"ey".to_owned(),
                AttributeValue::Bool(false),
            )])),
        ),
        ("ns", AttributeValue::Ns(vec!["1".into(), "2.5".into()])),
        ("text", s("line one\nline 'two' \\ $HOME `x`")),
    ] {
        item.insert(name.to_owned(), value);
    }
    item
}

/// A request of `kind` with every field it has, quotes, backslashes and new lines in names and
/// values, and values of every type.
fn input(kind: Kind) -> Input {
    let mut input = Input::new("Social");
    input.kind = kind;
    let (item, texts): (Option<Item>, &[(Field, &str)]) = match kind {
        Kind::Update => (
            Some(key()),
            &[
                (
                    Field::Update,
                    "SET #q = :s, n = n + 1 REMOVE stale ADD tags :tags",
                ),
                (Field::Condition, "attribute_exists(PK) AND count < 100"),
            ],
        ),
        Kind::Delete => (
            Some(key()),
            &[(Field::Condition, "#q = :s OR NOT attribute_exists(data)")],
        ),
        Kind::Put => (
            Some(put_item()),
            &[(Field::Condition, "attribute_not_exists(PK)")],
        ),
        Kind::Query => {
            input.index = Some("GSI1".into());
            (
                None,
                &[
                    (
                        Field::KeyCondition,
                        "GSI1PK = 'USER#7c20' AND begins_with(GSI1SK, :s)",
                    ),
                    (Field::Filter, "size(data) > 2"),
                    (Field::Projection, "PK, SK, #q, m.inner[0]"),
                ],
            )
        }
        Kind::Scan => (
            None,
            &[
                (
                    Field::Filter,
                    "contains(name, :s) AND year BETWEEN 1990 AND 2024",
                ),
                (Field::Projection, "PK"),
            ],
        ),
    };
    input.item = item;
    for (field, text) in texts {
        input.texts.insert(*field, (*text).to_owned());
    }
    input.names = vec![("#q".into(), "it's \"odd\"".into())];
    input.values = vec![
        ValueRow::new(":s", &s("it's \\ \"quoted\"\nnext line")),
        ValueRow::new(":tags", &AttributeValue::Ss(vec!["a".into(), "b c".into()])),
    ];
    input
}

#[test]
fn every_kind_copied_as_aws_cli_pastes_back_as_the_same_request() {
    let keys = ["PK".to_owned(), "SK".to_owned()];
    let setup = ClientSetup {
        endpoint_url: Some("http://127.0.0.1:8000".into()),
        region: Some("eu-west-2".into()),
        profile: Some("local dev".into()),
    };
    for kind in Kind::ALL {
        let compiled = compile(&input(kind), &keys, None);
        let request = compiled
            .request
            .unwrap_or_else(|| panic!("{kind:?}: {:?} {:?}", compiled.errors, compiled.problems));
        for (target, setup) in [
            (Target::Cli, &setup),
            (Target::Cli, &ClientSetup::default()),
            (Target::Json, &setup),
        ] {
            let copied = request.render(target, setup);
            let pasted = Input::from_paste(&copied)
                .unwrap_or_else(|e| panic!("{kind:?} as {target:?}: {e}\n{copied}"));
            assert_eq!(pasted.kind, kind, "{copied}");
            let again = compile(&pasted, &keys, None).request;
            assert_eq!(
                again.as_ref(),
                Some(&request),
                "{kind:?} as {target:?}:\n{copied}"
            );
        }
    }
}

#[test]
fn a_hand_written_command_pastes_too() {
    let typed = "aws --region us-east-1 dynamodb update-item --table-name=Videos \\\n\
        --key \"{\\\"PK\\\": {\\\"S\\\": \\\"VID#9f3a\\\"}}\" \\\n\
        --update-expression 'ADD #pc :one' # the count\n\
        --expression-attribute-names '{\"#pc\": \"play_count\"}' \\\n\
        --expression-attribute-values '{\":one\": {\"N\": \"1\"}}' --no-cli-pager";
    // A comment ends the line, so the next line is a command of its own: refused, as bash would
    // run the first without its names and values.
    let e = Input::from_paste(typed).unwrap_err();
    assert!(e.to_string().contains("one command only"), "{e}");
    let typed = typed.replace(" # the count\n", " \\\n");
    let input = Input::from_paste(&typed).unwrap();
    assert_eq!((input.kind, input.table.as_str()), (Kind::Update, "Videos"));
    assert_eq!(input.text(Field::Update), "ADD #pc :one");
    assert_eq!(
        input.item,
        Some(Item::from([("PK".to_owned(), s("VID#9f3a"))]))
    );
    let request = compile(&input, &["PK".into()], None).request.unwrap();
    assert_eq!(request.update.as_deref(), Some("ADD #pc :one"));
}

#[test]
fn what_cannot_be_pasted_is_named() {
    for (typed, named) in [
        (
            "aws dynamodb transact-write-items --transact-items '[]'",
            "transact-write-items",
        ),
        ("aws dynamodb scan --table-name T --limit 5", "--limit"),
        (
            "aws dynamodb delete-item --table-name T --key PK={S=x}",
            "--key is not JSON",
        ),
        ("aws dynamodb scan --table-name $TABLE", "expand"),
        (
            "aws dynamodb scan --table-name",
            "--table-name needs a value",
        ),
        ("aws s3 ls", "aws s3 ls"),
        ("{\"TableName\": ", "not a JSON request"),
    ] {
        let e = Input::from_paste(typed).unwrap_err().to_string();
        assert!(e.contains(named), "{typed}: {e}");
    }
}
