//! Unit tests of dynamodb-toolbox's words: numbers, kinds, paths.

use super::*;

#[test]
fn numbers_are_exact_or_refused() {
    assert_eq!(number("5").unwrap(), "5");
    assert_eq!(number("-0.25").unwrap(), "-0.25");
    assert_eq!(number("1E+2").unwrap(), "100");
    assert_eq!(number("007").unwrap(), "7", "never a legacy octal literal");
    assert_eq!(number("9007199254740991").unwrap(), "9007199254740991");
    assert_eq!(number("9007199254740992").unwrap(), "9007199254740992n");
    assert_eq!(number("-1E+30").unwrap(), format!("-1{}n", "0".repeat(30)));
    assert_eq!(
        number("0.000123456789012345").unwrap(),
        "0.000123456789012345"
    );
    let rounded = number("0.1234567890123456789").unwrap_err().to_string();
    assert!(rounded.contains("would be rounded"), "{rounded}");
}

#[test]
fn one_attribute_has_one_kind() {
    let mut schema = Schema::default();
    schema.note("n", Kind::Any).unwrap();
    schema.note("n", Kind::Number).unwrap();
    schema.note("n", Kind::Any).unwrap();
    assert_eq!(schema.attributes["n"], Kind::Number);
    let twice = schema.note("n", Kind::String).unwrap_err().to_string();
    assert!(twice.contains("one type"), "{twice}");
}

#[test]
fn paths_are_plain_top_level_names() {
    assert_eq!(path_text(&Path::attr("GSI1PK")).unwrap(), "\"GSI1PK\"");
    assert_eq!(
        path_text(&Path::attr("a#b@c-d_e")).unwrap(),
        "\"a#b@c-d_e\""
    );
    for name in ["a b", "a.b", "x']", "é", ""] {
        assert!(path_text(&Path::attr(name)).is_err(), "{name:?}");
    }
    let nested = Path(vec![Step::Name("a".into()), Step::Index(0)]);
    assert!(
        root(&nested)
            .unwrap_err()
            .to_string()
            .contains("nested path")
    );
    assert!(key("__proto__").is_err());
    assert_eq!(key("we\"ird\n").unwrap(), "\"we\\\"ird\\n\"");
}
