//! The parser's bounds: DynamoDB's 4 KB, and at most `MAX_DEPTH` levels of nesting, each refused
//! with the position of the token that goes past it, never with a crash.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::expr::error::ExprError;
use crate::expr::parser::{
    MAX_DEPTH, MAX_EXPRESSION_BYTES, Maps, parse_condition, parse_key_condition, parse_projection,
    parse_update,
};
use crate::expr::printer;

fn values() -> HashMap<String, AttributeValue> {
    HashMap::from([
        (":one".to_owned(), AttributeValue::N("1".into())),
        (":l".to_owned(), AttributeValue::L(vec![])),
    ])
}

fn condition(text: &str) -> Result<String, ExprError> {
    let (names, values) = (HashMap::new(), values());
    parse_condition(text, Maps::strict(&names, &values)).map(|c| printer::condition(&c).text)
}

fn update(text: &str) -> Result<String, ExprError> {
    let (names, values) = (HashMap::new(), values());
    parse_update(text, Maps::strict(&names, &values), &[]).map(|u| printer::update(&u).text)
}

/// `depth` parentheses around `a = :one`.
fn parenthesised(depth: usize) -> String {
    format!("{}a = :one{}", "(".repeat(depth), ")".repeat(depth))
}

#[test]
fn a_5000_deep_expression_is_refused_where_it_passes_a_limit() {
    // 10,005 bytes: the token that ends past byte 4096 is where it is refused.
    let e = condition(&parenthesised(5000)).unwrap_err();
    assert_eq!(e.position, MAX_EXPRESSION_BYTES, "{e}");
    assert!(e.message.contains("4 KB"), "{e}");
    // 2,000 deep fits in 4 KB (and overflowed the stack before the bound): refused at the
    // parenthesis one level too deep.
    let text = parenthesised(2000);
    assert!(text.len() <= MAX_EXPRESSION_BYTES);
    let e = condition(&text).unwrap_err();
    assert_eq!(e.position, MAX_DEPTH, "{e}");
    assert!(e.message.contains("nested more than 32 levels"), "{e}");
    let e = condition(&format!("{}a = :one", "NOT ".repeat(1000))).unwrap_err();
    assert_eq!(e.position, 4 * MAX_DEPTH, "{e}");
    // Key conditions share the parser.
    let (names, values) = (HashMap::new(), values());
    let e = parse_key_condition(&text, Maps::strict(&names, &values), None).unwrap_err();
    assert_eq!(e.position, MAX_DEPTH, "{e}");
}

#[test]
fn nesting_at_the_limit_is_accepted_one_more_is_not() {
    assert_eq!(
        condition(&parenthesised(MAX_DEPTH)).unwrap(),
        "#n0 = :v0",
        "parentheses that change nothing are not printed"
    );
    let nots = |n: usize| format!("{}a = :one", "NOT ".repeat(n));
    assert!(condition(&nots(MAX_DEPTH)).is_ok());
    assert_eq!(
        condition(&nots(MAX_DEPTH + 1)).unwrap_err().position,
        4 * MAX_DEPTH
    );
    // Parentheses, NOT and functions add up: 31 levels around size() is 32.
    let around_size = |n: usize| format!("{}size(a) > :one{}", "(".repeat(n), ")".repeat(n));
    assert!(condition(&around_size(MAX_DEPTH - 1)).is_ok());
    let e = condition(&around_size(MAX_DEPTH)).unwrap_err();
    assert_eq!(e.position, MAX_DEPTH, "at `size`: {e}");
    let mixed = |n: usize| format!("{}attribute_exists(a){}", "NOT (".repeat(n), ")".repeat(n));
    assert!(condition(&mixed(MAX_DEPTH / 2 - 1)).is_ok());
    let e = condition(&mixed(MAX_DEPTH / 2)).unwrap_err();
    assert_eq!(e.position, 5 * (MAX_DEPTH / 2), "at attribute_exists: {e}");
    // Functions in SET nest too.
    let appends = |n: usize| {
        format!(
            "SET a = {}:l{}",
            "list_append(:l, ".repeat(n),
            ")".repeat(n)
        )
    };
    assert!(update(&appends(MAX_DEPTH)).is_ok());
    let e = update(&appends(MAX_DEPTH + 1)).unwrap_err();
    assert_eq!(
        e.position,
        8 + 16 * MAX_DEPTH,
        "at the 33rd list_append: {e}"
    );
}

#[test]
fn a_document_path_has_at_most_32_levels() {
    let path = |steps: usize| {
        let mut text = "a".to_owned();
        for i in 1..steps {
            text.push_str(if i % 2 == 0 { ".b" } else { "[0]" });
        }
        text
    };
    let (names, values) = (HashMap::new(), values());
    let maps = Maps::strict(&names, &values);
    assert!(parse_projection(&path(MAX_DEPTH), maps).is_ok());
    let long = path(MAX_DEPTH + 1);
    let e = parse_projection(&long, maps).unwrap_err();
    assert_eq!(e.position, path(MAX_DEPTH).len(), "{long}: {e}");
    assert!(e.message.contains("32 levels"), "{e}");
}

#[test]
fn an_expression_over_4_kb_is_refused() {
    let term = " OR a = :one";
    let mut text = "a = :one".to_owned();
    while text.len() + term.len() <= MAX_EXPRESSION_BYTES {
        text.push_str(term);
    }
    text.push_str(&" ".repeat(MAX_EXPRESSION_BYTES - text.len()));
    assert_eq!(text.len(), MAX_EXPRESSION_BYTES);
    assert!(condition(&text).is_ok(), "exactly 4096 bytes is allowed");
    // One byte more, even of white space, is not.
    let e = condition(&format!("{text} ")).unwrap_err();
    assert_eq!(e.position, MAX_EXPRESSION_BYTES, "{e}");
    assert!(e.message.contains("4097 bytes"), "{e}");
    // The term that crosses the limit is the one pointed at.
    let over = format!("{}{term}", text.trim_end());
    let e = condition(&over).unwrap_err();
    let crossing = over.rfind(":one").unwrap();
    assert_eq!(e.position, crossing, "{e}");
    // Bytes, not characters: 'é' is two.
    let (names, values) = (HashMap::new(), HashMap::new());
    let builder = Maps {
        names: &names,
        values: &values,
        literals: true,
    };
    let accents = format!("a = '{}'", "é".repeat(2045));
    assert_eq!(accents.len(), 4096);
    assert!(parse_condition(&accents, builder).is_ok());
    let e = parse_condition(&format!("a = '{}'", "é".repeat(2046)), builder).unwrap_err();
    assert_eq!(e.position, 4, "at the text literal: {e}");
    // A huge paste is refused too, at the same place.
    let huge = "a = :one AND ".repeat(100_000);
    assert_eq!(condition(&huge).unwrap_err().position, 4097);
}

#[test]
fn the_largest_accepted_expressions_parse_and_print_on_a_small_stack() {
    // The longest chain 4 KB holds, inside the deepest parentheses allowed, in an update and a
    // condition: parsed, printed and dropped on a thread with half the stack of the tokio
    // workers that run the app's work (2 MB). A debug build needs about 10 KB a level.
    let mut chain = parenthesised(MAX_DEPTH - 1);
    while chain.len() + " AND a = :one".len() + 2 <= MAX_EXPRESSION_BYTES {
        chain.push_str(" AND a = :one");
    }
    let chain = format!("({chain})");
    let appends = format!(
        "SET a = {}:l{}",
        "list_append(:l, ".repeat(MAX_DEPTH),
        ")".repeat(MAX_DEPTH)
    );
    let worker = std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(move || {
            let printed = condition(&chain).unwrap();
            assert!(printed.matches(" AND ").count() > 250, "{printed}");
            assert!(update(&appends).is_ok());
            assert!(condition(&parenthesised(2000)).is_err());
        })
        .unwrap();
    worker.join().unwrap();
}

#[test]
fn the_builder_refuses_what_placeholders_grow_past_4_kb() {
    use crate::expr::builder::{Field, Input, Kind, compile};
    let mut input = Input::new("Social");
    input.kind = Kind::Scan;
    let typed = vec!["a = 1"; 400].join(" OR ");
    assert!(typed.len() < MAX_EXPRESSION_BYTES);
    input.texts.insert(Field::Filter, typed);
    let compiled = compile(&input, &[], None);
    assert!(compiled.request.is_none());
    let [(field, e)] = compiled.errors.as_slice() else {
        panic!("{:?}", compiled.errors)
    };
    assert_eq!(*field, Field::Filter);
    assert_eq!(e.position, 0);
    assert!(e.message.contains("written with placeholders"), "{e}");
    input
        .texts
        .insert(Field::Filter, vec!["a = 1"; 200].join(" OR "));
    assert!(compile(&input, &[], None).request.is_some());
}
