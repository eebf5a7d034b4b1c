//! Expressions against the embedded engine: the reserved words agree with the engine's, and
//! printed expressions run and do what the tree says.

use crate::common;

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;
use dynoscope_core::expr::parser::{Maps, parse_condition, parse_update};
use dynoscope_core::expr::{printer, reserved};
use dynoscope_core::value::Item;

use common::{create_table, empty_engine, n, put_all, s, table_name};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reserved_words_are_the_engines() {
    let engine = empty_engine().await;
    let table = table_name("reserved");
    create_table(&engine.client, &table).await;
    let key = |pk: &str| HashMap::from([("PK".to_owned(), s(pk)), ("SK".to_owned(), s("META"))]);
    let refused = |word: String| {
        let client = engine.client.clone();
        let table = table.clone();
        let key = key("P");
        async move {
            client
                .update_item()
                .table_name(table)
                .set_key(Some(key))
                .update_expression(format!("ADD {word} :one"))
                .expression_attribute_values(":one", n("1"))
                .send()
                .await
                .is_err()
        }
    };
    let words = reserved::all();
    assert_eq!(words.len(), 573);
    for word in words {
        assert!(
            refused(word.to_lowercase()).await,
            "the engine accepts `{word}` bare"
        );
    }
    for word in ["likeTally", "play_count", "memberCount", "replyCount"] {
        assert!(
            !refused(word.to_owned()).await,
            "the engine refuses `{word}`"
        );
        assert!(!reserved::is_reserved(word));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printed_expressions_do_what_the_tree_says() {
    let engine = empty_engine().await;
    let table = table_name("expr");
    create_table(&engine.client, &table).await;
    let mut item: Item = HashMap::from([
        ("PK".to_owned(), s("VID#9f3a")),
        ("SK".to_owned(), s("META")),
    ]);
    item.insert("count".into(), n("41"));
    item.insert(
        "doc".into(),
        AttributeValue::M(HashMap::from([(
            "list".to_owned(),
            AttributeValue::L(vec![n("1")]),
        )])),
    );
    put_all(&engine.client, &table, vec![item]).await;

    let names = HashMap::from([
        ("#c".to_owned(), "count".to_owned()),
        ("#l".to_owned(), "list".to_owned()),
    ]);
    let values = HashMap::from([
        (":one".to_owned(), n("1")),
        (":zero".to_owned(), n("0")),
        (":more".to_owned(), AttributeValue::L(vec![n("2")])),
        (":tags".to_owned(), AttributeValue::Ss(vec!["x".into()])),
    ]);
    let maps = Maps::strict(&names, &values);
    let keys = ["PK".to_owned(), "SK".to_owned()];
    let update = parse_update(
        "SET #c = #c + :one, plays = if_not_exists(plays, :zero) + :one, doc.#l = list_append(doc.#l, :more) ADD tags :tags",
        maps,
        &keys,
    )
    .unwrap();
    let condition = parse_condition(
        "attribute_exists(PK) AND #c = :c41",
        Maps::strict(&names, &HashMap::from([(":c41".to_owned(), n("41"))])),
    )
    .unwrap();
    // Both share one set of placeholders, as a request does.
    let mut p = dynoscope_core::condition::Placeholders::default();
    let update_text = printer::update_text(&mut p, &update);
    let condition_text = printer::condition_text(&mut p, &condition);
    let expr = p.finish(update_text);
    assert!(
        expr.names.values().any(|v| v == "count"),
        "the reserved word went through a placeholder"
    );
    let out = engine
        .client
        .update_item()
        .table_name(&table)
        .key("PK", s("VID#9f3a"))
        .key("SK", s("META"))
        .update_expression(&expr.text)
        .condition_expression(condition_text)
        .set_expression_attribute_names(Some(expr.names.clone()))
        .set_expression_attribute_values(Some(expr.values.clone()))
        .return_values(aws_sdk_dynamodb::types::ReturnValue::AllNew)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{}: {e:?}", expr.text));
    let after = out.attributes.unwrap();
    assert_eq!(after["count"], n("42"));
    assert_eq!(after["plays"], n("1"));
    assert_eq!(after["tags"], AttributeValue::Ss(vec!["x".into()]));
    let AttributeValue::M(doc) = &after["doc"] else {
        panic!()
    };
    assert_eq!(doc["list"], AttributeValue::L(vec![n("1"), n("2")]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_generated_json_runs_through_the_sdk_and_does_what_the_builder_says() {
    use dynoscope_core::condition::Placeholders;
    use dynoscope_core::expr::codegen::{Operation, Request, Target};
    let engine = empty_engine().await;
    let table = table_name("json");
    create_table(&engine.client, &table).await;
    let key: Item = HashMap::from([
        ("PK".to_owned(), s("POST#a91f")),
        ("SK".to_owned(), s("META")),
    ]);
    let mut item = key.clone();
    item.insert("likeTally".into(), n("3"));
    put_all(&engine.client, &table, vec![item]).await;

    let (names, values) = (HashMap::new(), HashMap::new());
    let builder = Maps {
        names: &names,
        values: &values,
        literals: true,
    };
    let update = parse_update("ADD likeTally 1", builder, &[]).unwrap();
    let condition = parse_condition("attribute_exists(SK) AND likeTally = 3", builder).unwrap();
    let mut p = Placeholders::default();
    let update_text = printer::update_text(&mut p, &update);
    let condition_text = printer::condition_text(&mut p, &condition);
    let expr = p.finish(update_text);
    let request = Request {
        table: table.clone(),
        operation: Operation::Update(key),
        update: Some(expr.text.clone()),
        condition: Some(condition_text),
        key_condition: None,
        filter: None,
        projection: None,
        names: expr.names,
        values: expr.values,
        returns: dynoscope_core::expr::codegen::ReturnOptions::default(),
    };
    // Read the JSON back as a request body and send exactly that.
    let json: serde_json::Value = serde_json::from_str(&request.render(
        Target::Json,
        &dynoscope_core::connection::ClientSetup::default(),
    ))
    .unwrap();
    let text = |field: &str| json[field].as_str().unwrap().to_owned();
    let names: HashMap<String, String> =
        serde_json::from_value(json["ExpressionAttributeNames"].clone()).unwrap();
    let send = || {
        engine
            .client
            .update_item()
            .table_name(text("TableName"))
            .set_key(Some(
                dynoscope_core::value::item_from_json_value(&json["Key"]).unwrap(),
            ))
            .update_expression(text("UpdateExpression"))
            .condition_expression(text("ConditionExpression"))
            .set_expression_attribute_names(Some(names.clone()))
            .set_expression_attribute_values(Some(
                dynoscope_core::value::item_from_json_value(&json["ExpressionAttributeValues"])
                    .unwrap(),
            ))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::UpdatedNew)
            .send()
    };
    let out = send().await.unwrap();
    assert_eq!(out.attributes.unwrap()["likeTally"], n("4"));
    // The condition said likeTally = 3: sent again, it refuses.
    let again = send().await.unwrap_err();
    assert_eq!(
        dynoscope_core::error::Error::from_sdk("UpdateItem", again).code(),
        Some("ConditionalCheckFailedException")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_built_add_is_not_re_sent_when_its_answer_is_lost() {
    let engine = empty_engine().await;
    let table = table_name("noresend");
    create_table(&engine.client, &table).await;
    let key: Item = HashMap::from([
        ("PK".to_owned(), s("VID#lost")),
        ("SK".to_owned(), s("META")),
    ]);
    let mut item = key.clone();
    item.insert("plays".into(), n("41"));
    put_all(&engine.client, &table, vec![item]).await;
    let proxy = common::response_dropping_proxy(engine.sandbox.addr(), "UpdateItem").await;
    let through = common::connect_to(
        &format!("http://{proxy}"),
        std::time::Duration::from_secs(10),
    )
    .await;
    let request = common::builder_add(&table, &key, "plays");
    let result = dynoscope_core::run::run(&through, &request, vec![], false)
        .await
        .unwrap();
    assert!(
        result.summary.starts_with("Outcome unknown"),
        "{}",
        result.summary
    );
    assert_eq!(
        result.items[0]["plays"],
        n("42"),
        "the item as stored now is shown"
    );
    let stored = dynoscope_core::read::read_number(&engine.reader(), &table, &key, "plays")
        .await
        .unwrap();
    assert_eq!(stored.as_deref(), Some("42"), "applied once, not re-sent");
}

/// A tiny LCG (Knuth's MMIX constants): the same expressions on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) as usize % n
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

/// Names people give attributes, most of them DynamoDB reserved words, a nested path and a
/// list element.
const EVERYDAY: [&str; 9] = [
    "count",
    "size",
    "status",
    "name",
    "data",
    "year",
    "m.inner.deep",
    "data[1]",
    "likeTally",
];

fn literal(r: &mut Lcg) -> String {
    match r.below(3) {
        0 => r.below(100).to_string(),
        1 => format!("-{}.5", r.below(10)),
        _ => format!("'{}'", r.pick(&["open", "POST#a91f", "x y", "é"])),
    }
}

fn term(r: &mut Lcg) -> String {
    const COMPARE: [&str; 6] = ["=", "<>", "<", "<=", ">", ">="];
    let path = r.pick(&EVERYDAY);
    match r.below(10) {
        0 => format!("{path} {} {}", r.pick(&COMPARE), literal(r)),
        1 => format!("{path} {} {}", r.pick(&COMPARE), r.pick(&EVERYDAY)),
        2 => {
            let low = r.below(50);
            format!("{path} BETWEEN {low} AND {}", low + r.below(50))
        }
        3 => {
            let list: Vec<String> = (0..=r.below(4)).map(|_| literal(r)).collect();
            format!("{path} IN ({})", list.join(", "))
        }
        4 => format!("attribute_exists({path})"),
        5 => format!("attribute_not_exists({path})"),
        6 => format!("begins_with({path}, '{}')", r.pick(&["a", "PO", "x y"])),
        7 => format!("contains({path}, {})", literal(r)),
        8 => format!("size({path}) {} {}", r.pick(&COMPARE), r.below(10)),
        _ => format!(
            "attribute_type({path}, '{}')",
            r.pick(&["S", "N", "M", "L", "SS", "BOOL", "NULL"])
        ),
    }
}

fn filter(r: &mut Lcg, depth: usize) -> String {
    if depth == 0 || r.below(3) == 0 {
        return term(r);
    }
    match r.below(4) {
        0 => format!("{} AND {}", filter(r, depth - 1), filter(r, depth - 1)),
        1 => format!("{} OR {}", filter(r, depth - 1), filter(r, depth - 1)),
        2 => format!("NOT {}", filter(r, depth - 1)),
        _ => format!("({})", filter(r, depth - 1)),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_builder_takes_everyday_names_and_the_engine_takes_what_it_builds() {
    use dynoscope_core::expr::builder::{Field, Input, Kind, compile};
    let engine = empty_engine().await;
    let table = table_name("everyday");
    create_table(&engine.client, &table).await;
    let mut item: Item = HashMap::from([("PK".to_owned(), s("P")), ("SK".to_owned(), s("1"))]);
    for (name, value) in [
        ("count", n("3")),
        ("status", s("open")),
        ("year", n("2024")),
    ] {
        item.insert(name.to_owned(), value);
    }
    item.insert(
        "data".into(),
        AttributeValue::L(vec![s("a"), s("POST#a91f")]),
    );
    put_all(&engine.client, &table, vec![item]).await;

    let mut r = Lcg(0x00d1_5c0e);
    let mut refused = Vec::new();
    let mut built = Vec::new();
    for _ in 0..150 {
        let text = filter(&mut r, 3);
        let mut input = Input::new(&table);
        input.kind = Kind::Scan;
        input.texts.insert(Field::Filter, text.clone());
        let compiled = compile(&input, &[], None);
        match compiled.request {
            Some(request) => built.push((text, request)),
            None => refused.push(format!("{text}: {:?}", compiled.errors)),
        }
    }
    assert!(
        refused.is_empty(),
        "the builder refused {} of 150, first: {}\n{}",
        refused.len(),
        refused[0],
        refused.join("\n")
    );
    for (text, request) in built {
        let out = engine
            .client
            .scan()
            .table_name(&table)
            .set_filter_expression(request.filter.clone())
            .set_expression_attribute_names(Some(request.names.clone()))
            .set_expression_attribute_values(
                (!request.values.is_empty()).then(|| request.values.clone()),
            )
            .send()
            .await;
        if let Err(e) = out {
            panic!(
                "the engine refused {text}\n  sent {:?} {:?} {:?}: {:?}",
                request.filter,
                request.names,
                request.values,
                dynoscope_core::error::Error::from_sdk("Scan", e)
            );
        }
    }
}
