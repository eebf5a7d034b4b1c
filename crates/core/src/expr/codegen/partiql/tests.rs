//! What PartiQL says of a request, and what it refuses.

use std::collections::HashMap;

use super::*;
use crate::expr::codegen::ReturnOptions;

fn request(operation: Operation) -> Request {
    Request {
        table: "My \"T\"".into(),
        operation,
        update: None,
        condition: None,
        key_condition: None,
        filter: None,
        projection: None,
        names: HashMap::new(),
        values: HashMap::new(),
        returns: ReturnOptions::default(),
    }
}

#[test]
fn an_update_is_written_with_quoted_names_and_its_values_as_parameters() {
    let key = Item::from([("PK".to_owned(), AttributeValue::S("k".into()))]);
    let mut r = request(Operation::Update(key));
    r.update = Some("SET #t = :t, #n = #n + :one REMOVE #o".into());
    r.condition = Some("attribute_exists(#t) AND #n < :max".into());
    r.names = HashMap::from([
        ("#t".into(), "ti\"tle".into()),
        ("#n".into(), "n".into()),
        ("#o".into(), "old".into()),
    ]);
    r.values = HashMap::from([
        (":t".into(), AttributeValue::S("it's".into())),
        (":one".into(), AttributeValue::N("1".into())),
        (":max".into(), AttributeValue::N("9".into())),
    ]);
    r.returns.values = Some(ReturnValues::UpdatedNew);
    let s = r.partiql().unwrap();
    assert_eq!(
        s.text,
        "UPDATE \"My \"\"T\"\"\" SET \"ti\"\"tle\" = ? SET n = n + ? REMOVE \"old\" \
         WHERE \"PK\" = ? AND ((\"ti\"\"tle\" IS NOT MISSING) AND (n < ?)) RETURNING MODIFIED NEW *"
    );
    let params: Vec<_> = s.params.iter().map(|v| format!("{v:?}")).collect();
    assert_eq!(params.len(), 4, "{params:?}");
    assert_eq!(s.params[0], AttributeValue::S("it's".into()));
    assert_eq!(s.params[2], AttributeValue::S("k".into()));
}

#[test]
fn what_partiql_cannot_say_is_refused_in_words() {
    let key = Item::from([("PK".to_owned(), AttributeValue::S("k".into()))]);
    let mut r = request(Operation::Update(key.clone()));
    r.update = Some("ADD #c :d".into());
    r.names = HashMap::from([("#c".into(), "c".into())]);
    r.values = HashMap::from([(":d".into(), AttributeValue::N("1".into()))]);
    let error = r.partiql().unwrap_err().to_string();
    assert!(error.contains("PartiQL has no ADD"), "{error}");
    r.update = Some("SET #c = if_not_exists(#c, :d)".into());
    assert!(
        r.partiql()
            .unwrap_err()
            .to_string()
            .contains("if_not_exists")
    );
    let put = request(Operation::Put(key.clone()));
    assert!(put.partiql().unwrap_err().to_string().contains("INSERT"));
    assert!(put.partiql_text().starts_with("-- PartiQL cannot say"));
    let mut create = request(Operation::Update(key.clone()));
    create.update = Some("SET #c = :d".into());
    create.condition = Some("attribute_not_exists(PK)".into());
    create.names = HashMap::from([("#c".into(), "c".into())]);
    create.values = HashMap::from([(":d".into(), AttributeValue::N("1".into()))]);
    assert!(
        create
            .partiql()
            .unwrap_err()
            .to_string()
            .contains("never creates")
    );
    create.condition = Some("NOT attribute_exists(PK)".into());
    assert!(
        create
            .partiql()
            .unwrap_err()
            .to_string()
            .contains("never creates")
    );
    create.condition = Some("NOT attribute_not_exists(PK)".into());
    assert!(create.partiql_text().starts_with("UPDATE"));
    create.condition = None;
    assert!(
        create
            .partiql_text()
            .starts_with("-- applies to an existing item only")
    );
    create.condition = Some("attribute_exists(PK)".into());
    assert!(create.partiql_text().starts_with("UPDATE"));
    create.names = HashMap::from([("#c".into(), "c\nDELETE FROM x".into())]);
    let text = create.partiql_text();
    assert!(text.lines().all(|l| l.starts_with("-- ")), "{text}");
}
