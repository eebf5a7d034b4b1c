use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue as V;

use super::*;
use crate::condition::ScalarType;
use crate::table::{KeyAttr, TableInfo};
use crate::value::{AttrType, Item};

fn info() -> TableInfo {
    let key = |name: &str| KeyAttr::new(name, ScalarType::S);
    TableInfo::with_keys("Social", key("PK"), Some(key("SK")))
}

fn every_type() -> Item {
    let s = |t: &str| V::S(t.into());
    HashMap::from([
        ("PK".to_owned(), s("POST#a91f")),
        ("SK".to_owned(), s("META")),
        (
            "likeTally".to_owned(),
            V::N("98765432109876543210987654321098765432".into()),
        ),
        ("title".to_owned(), s("")),
        ("bin".to_owned(), V::B(Blob::new(vec![0, 1, 254]))),
        ("flag".to_owned(), V::Bool(false)),
        ("nothing".to_owned(), V::Null(true)),
        (
            "meta".to_owned(),
            V::M(HashMap::from([(
                "inner".to_owned(),
                V::L(vec![
                    V::N("1.50".into()),
                    V::M(HashMap::from([("x".to_owned(), s("y"))])),
                ]),
            )])),
        ),
        ("list".to_owned(), V::L(vec![s("a"), V::Bool(true)])),
        ("tags".to_owned(), V::Ss(vec!["a".into(), "b,c".into()])),
        ("scores".to_owned(), V::Ns(vec!["1.50".into(), "-2".into()])),
        ("blobs".to_owned(), V::Bs(vec![Blob::new(vec![9])])),
    ])
}

#[test]
fn the_form_and_both_texts_round_trip_every_type() {
    let item = every_type();
    let keys = info().key_names();
    let fields = fields_of(&item, &keys);
    assert_eq!(fields[0].name, "PK", "keys first");
    let meta = fields.iter().find(|f| f.name == "meta").unwrap();
    assert_eq!(meta.kind, AttrType::M);
    assert_eq!(
        meta.text,
        r#"{"inner":{"L":[{"N":"1.50"},{"M":{"x":{"S":"y"}}}]}}"#
    );
    let tags = fields.iter().find(|f| f.name == "tags").unwrap();
    assert_eq!(tags.text, r#"["a","b,c"]"#);
    assert_eq!(item_of(&fields).unwrap(), item);
    for format in [TextFormat::DynamoDb, TextFormat::Plain] {
        let text = item_text(&item, &keys, format);
        assert_eq!(
            item_from_text(&text, format, Some(&item)).unwrap(),
            item,
            "{format:?}"
        );
    }
    // Plain JSON without the item as read: sets become lists, as plain JSON says.
    let plain = item_text(&item, &keys, TextFormat::Plain);
    let guessed = item_from_text(&plain, TextFormat::Plain, None).unwrap();
    assert!(matches!(guessed["tags"], V::L(_)));
    assert_eq!(guessed["likeTally"], item["likeTally"], "38 digits exact");
}

#[test]
fn mistakes_are_named_by_field_or_by_line_and_column() {
    let mut fields = fields_of(&every_type(), &info().key_names());
    let at = |fields: &[Field], name: &str| fields.iter().position(|f| f.name == name).unwrap();
    let n = at(&fields, "likeTally");
    fields[n].text = "12x".into();
    let m = at(&fields, "meta");
    fields[m].text = "{\"a\": {\"S\": 1}}".into();
    fields.push(Field {
        name: "title".into(),
        kind: AttrType::S,
        text: "again".into(),
    });
    let errors = item_of(&fields).unwrap_err();
    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(errors.len(), 3, "{shown:?}");
    assert!(shown[0].starts_with("`likeTally`: "), "{shown:?}");
    assert!(
        shown[1].starts_with("`meta`: a: S needs a string"),
        "{shown:?}"
    );
    assert_eq!(shown[2], "`title`: this name is used twice");

    let text = "{\n  \"PK\": {\"S\": \"POST#1\"},\n  \"n\": {\"N\": \"1e500\"}\n}";
    let error = item_from_text(text, TextFormat::DynamoDb, None).unwrap_err();
    assert_eq!((error.at.line, error.at.column), (3, 3), "{error}");
    assert!(error.message.starts_with("`n`: "), "{error}");
    let error = item_from_text(
        "{\n  \"PK\": {\"S\": \"x\"},\n  oops\n}",
        TextFormat::DynamoDb,
        None,
    )
    .unwrap_err();
    assert_eq!(error.at.line, 3, "{error}");
    assert!(item_from_text("[1]", TextFormat::Plain, None).is_err());
    // A name given twice would keep only the last: an error at the second, in both formats.
    for (text, format) in [
        (
            "{\n  \"n\": {\"N\": \"1\"},\n  \"n\": {\"N\": \"2\"}\n}",
            TextFormat::DynamoDb,
        ),
        ("{\n  \"n\": 1,\n  \"n\": 2\n}", TextFormat::Plain),
    ] {
        let error = item_from_text(text, format, None).unwrap_err();
        assert_eq!(error.at.line, 3, "{error}");
        assert!(error.message.contains("`n` is given twice"), "{error}");
    }
}

#[test]
fn a_change_is_diffed_and_written_only_if_still_as_read() {
    let info = info();
    let before = every_type();
    let mut after = before.clone();
    after.insert("likeTally".into(), V::N("4".into()));
    after.insert("note".into(), V::S("hi".into()));
    after.remove("nothing");
    let change = Change::edit(&info, before.clone(), after.clone()).unwrap();
    assert_eq!(change.kind(), ChangeKind::Update);
    let lines: Vec<String> = change.diff().iter().map(Diff::line).collect();
    assert_eq!(
        lines,
        [
            "~ likeTally: N 98765432109876543210987654321098765432 → N 4",
            "+ note: S hi",
            "- nothing: NULL null",
        ]
    );
    let request = change.request(&info).unwrap();
    let update = request.update.as_deref().unwrap();
    let condition = request.condition.as_deref().unwrap();
    assert_eq!(update, "SET #a0 = :n0, #a1 = :n1 REMOVE #a2");
    assert_eq!(
        condition,
        "attribute_exists(#k) AND #a0 = :o0 AND attribute_not_exists(#a1) AND #a2 = :o2"
    );
    assert_eq!(request.values[":o0"], before["likeTally"]);

    // A key cannot change in place.
    let mut moved = after.clone();
    moved.insert("SK".into(), V::S("META2".into()));
    assert!(Change::edit(&info, before.clone(), moved).is_err());

    let create = Change::create(&info, after.clone())
        .unwrap()
        .request(&info)
        .unwrap();
    assert_eq!(
        create.condition.as_deref(),
        Some("attribute_not_exists(#k)")
    );
    assert_eq!(create.names.len(), 1);
    let delete = Change::delete(&info, before)
        .unwrap()
        .request(&info)
        .unwrap();
    assert!(
        delete
            .condition
            .unwrap()
            .starts_with("attribute_exists(#k) AND #a")
    );
}

#[test]
fn staging_keeps_the_first_read_and_drops_what_cancels_out() {
    let info = info();
    let read = every_type();
    let mut staging = Staging::default();
    let mut one = read.clone();
    one.insert("likeTally".into(), V::N("1".into()));
    staging.stage(Change::edit(&info, read.clone(), one.clone()).unwrap());
    let mut two = one.clone();
    two.insert("likeTally".into(), V::N("2".into()));
    // The second edit starts from the first edit's item; what was read stays the base.
    staging.stage(Change::edit(&info, one, two).unwrap());
    assert_eq!(staging.changes().len(), 1);
    assert_eq!(staging.changes()[0].before.as_ref(), Some(&read));
    // Back to what was read: nothing staged.
    staging.stage(Change::edit(&info, read.clone(), read.clone()).unwrap());
    assert!(staging.changes().is_empty());
    // A new item deleted before it was committed: nothing staged.
    let mut new = read.clone();
    new.insert("SK".into(), V::S("COPY".into()));
    staging.stage(Change::create(&info, new.clone()).unwrap());
    assert_eq!(staging.changes()[0].kind(), ChangeKind::Create);
    staging.stage(Change {
        key: info.key_of(&new).unwrap(),
        before: None,
        after: None,
    });
    assert!(staging.changes().is_empty());
}

#[test]
fn sets_in_another_order_are_no_change() {
    let info = info();
    let before = every_type();
    let mut after = before.clone();
    after.insert("tags".into(), V::Ss(vec!["b,c".into(), "a".into()]));
    let change = Change::edit(&info, before, after).unwrap();
    assert!(change.diff().is_empty());
    assert!(change.is_empty());
}

#[test]
fn keeping_mine_over_the_servers_item_keeps_what_others_changed() {
    let info = info();
    let read = every_type();
    let mut mine = read.clone();
    mine.insert("likeTally".into(), V::N("4".into()));
    mine.remove("nothing");
    let mut staging = Staging::default();
    staging.stage(Change::edit(&info, read.clone(), mine).unwrap());
    // Meanwhile someone set `flag` and the tally.
    let mut server = read.clone();
    server.insert("flag".into(), V::Bool(true));
    server.insert("likeTally".into(), V::N("5".into()));
    let key = info.key_of(&read).unwrap();
    staging.rebase(&key, Some(server.clone()));
    let change = &staging.changes()[0];
    let lines: Vec<String> = change.diff().iter().map(Diff::line).collect();
    assert_eq!(
        lines,
        ["~ likeTally: N 5 → N 4", "- nothing: NULL null"],
        "only my differences, on the server's item"
    );
    assert_eq!(change.after.as_ref().unwrap()["flag"], V::Bool(true));
}

#[test]
fn an_item_staged_again_while_its_commit_ran_stays_staged() {
    let info = info();
    let read = every_type();
    let mut first = read.clone();
    first.insert("likeTally".into(), V::N("4".into()));
    let mut staging = Staging::default();
    staging.stage(Change::edit(&info, read.clone(), first.clone()).unwrap());
    let sent = staging.changes().to_vec();
    // While the commit runs, the user edits the item again.
    let mut second = first.clone();
    second.insert("note".into(), V::S("later".into()));
    staging.stage(Change::edit(&info, first.clone(), second).unwrap());
    let report = CommitReport {
        mode: CommitMode::Transaction,
        items: vec![ItemResult {
            key: info.key_of(&read).unwrap(),
            kind: ChangeKind::Update,
            outcome: ItemOutcome::Written { item: None },
        }],
        wcu: 1.0,
    };
    staging.apply(&report, &sent);
    assert_eq!(staging.changes().len(), 1, "the newer edit is kept");
    let lines: Vec<String> = staging.changes()[0].diff().iter().map(Diff::line).collect();
    assert_eq!(lines, ["+ note: S later"], "based on what was written");
}

#[test]
fn sets_must_be_whole_and_keys_filled_before_anything_is_staged() {
    let info = info();
    let read = every_type();
    let mut twice = read.clone();
    twice.insert("tags".into(), V::Ss(vec!["a".into(), "a".into()]));
    let error = Change::edit(&info, read.clone(), twice)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("`tags`: a string set holds each element once"),
        "{error}"
    );
    let mut empty = read.clone();
    empty.insert(
        "meta".into(),
        V::M(HashMap::from([("inner".to_owned(), V::Ns(Vec::new()))])),
    );
    let error = Change::edit(&info, read.clone(), empty)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("`meta.inner`: a number set cannot be empty"),
        "{error}"
    );
    let mut blank = read;
    blank.insert("SK".into(), V::S(String::new()));
    let error = Change::create(&info, blank).unwrap_err().to_string();
    assert!(error.contains("`SK` is empty"), "{error}");
}

#[test]
fn a_copy_needs_a_new_key_and_only_an_edit_or_a_delete_is_kept_over_a_conflict() {
    let info = info();
    let item = |pairs: &[(&str, &str)]| -> Item {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), V::S((*v).into())))
            .collect()
    };
    let original = item(&[("PK", "P#1"), ("SK", "A")]);
    let same_key = item(&[("PK", "P#1"), ("SK", "A"), ("x", "1")]);
    let error = Change::copy(&info, &original, same_key).expect_err("same key");
    assert!(error.to_string().contains("give it a new key"), "{error}");
    let copy =
        Change::copy(&info, &original, item(&[("PK", "P#1"), ("SK", "B")])).expect("a new key");
    assert_eq!(copy.kind(), ChangeKind::Create);
    assert!(!ChangeKind::Create.may_keep_over());
    assert!(ChangeKind::Update.may_keep_over());
    assert!(ChangeKind::Delete.may_keep_over());
}

#[test]
fn a_1_kb_binary_and_a_4000_character_string_round_trip_through_the_editor_and_the_builder() {
    use crate::expr::builder::ValueRow;
    let bytes: Vec<u8> = (0..1024u32).map(|i| (i % 251) as u8).collect();
    let values = [
        V::B(aws_sdk_dynamodb::primitives::Blob::new(bytes)),
        V::S("x".repeat(3999) + "y"),
    ];
    for value in values {
        let row = ValueRow::new(":v", &value);
        assert_eq!(row.value().unwrap(), value, "the builder's value row");
        let field = Field::of("attr", &value);
        assert_eq!(field.value().unwrap(), value, "the editor's field");
        assert_eq!(
            (row.kind, &row.text),
            (field.kind, &field.text),
            "one text for both"
        );
    }
}
