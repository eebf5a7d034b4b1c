//! Unit tests of the whole programs' shared pieces.

use super::*;

#[test]
fn typescript_annotations_are_kept_or_dropped() {
    let template = "const f = (x«: string») => x;«\nimport type { T } from \"m\";»";
    assert_eq!(marked(template, false), "const f = (x) => x;");
    assert_eq!(
        marked(template, true),
        "const f = (x: string) => x;\nimport type { T } from \"m\";"
    );
}

#[test]
fn what_adds_or_appends_is_not_repeatable() {
    assert!(not_repeatable("ADD #c :d"));
    assert!(not_repeatable("SET #c = if_not_exists(#c, :z) + :d"));
    assert!(not_repeatable("SET #l = list_append(#l, :x)"));
    assert!(!not_repeatable("SET #s = :v REMOVE #t"));
    assert!(
        !not_repeatable("SET #address = :v"),
        "a word holding `add` is not ADD"
    );
}
