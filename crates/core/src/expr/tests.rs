//! Parser and printer tests: every clause form round-trips, errors carry positions, and random
//! trees print and parse back to themselves.

use std::collections::HashMap;

use aws_sdk_dynamodb::types::AttributeValue;

use crate::condition::Expression;
use crate::expr::ast::{Comparator, Condition, Operand, Path, SetOperand, SetValue, Step, Update};
use crate::expr::parser::{Maps, parse_condition, parse_projection, parse_update};
use crate::expr::printer;

fn n(v: &str) -> AttributeValue {
    AttributeValue::N(v.into())
}

fn maps_of(e: &Expression) -> Maps<'_> {
    Maps::strict(&e.names, &e.values)
}

fn values() -> HashMap<String, AttributeValue> {
    HashMap::from([
        (":one".to_owned(), n("1")),
        (":zero".to_owned(), n("0")),
        (":s".to_owned(), AttributeValue::S("LIKE#".into())),
        (":tags".to_owned(), AttributeValue::Ss(vec!["a".into()])),
        (":list".to_owned(), AttributeValue::L(vec![n("1")])),
        (":t".to_owned(), AttributeValue::S("N".into())),
        (
            ":big".to_owned(),
            n("12345678901234567890123456789012345678"),
        ),
    ])
}

fn names() -> HashMap<String, String> {
    HashMap::from([
        ("#c".to_owned(), "count".to_owned()),
        ("#sk".to_owned(), "SK".to_owned()),
        ("#odd".to_owned(), "a.b-c".to_owned()),
    ])
}

fn round_trip_update(text: &str) {
    let (names, values) = (names(), values());
    let maps = Maps::strict(&names, &values);
    let tree = parse_update(text, maps, &[]).unwrap_or_else(|e| panic!("{text}: {e}"));
    let printed = printer::update(&tree);
    let again = parse_update(&printed.text, maps_of(&printed), &[])
        .unwrap_or_else(|e| panic!("{}: {e}", printed.text));
    assert_eq!(again, tree, "{text} -> {}", printed.text);
}

fn round_trip_condition(text: &str) {
    let (names, values) = (names(), values());
    let maps = Maps::strict(&names, &values);
    let tree = parse_condition(text, maps).unwrap_or_else(|e| panic!("{text}: {e}"));
    let printed = printer::condition(&tree);
    let again = parse_condition(&printed.text, maps_of(&printed))
        .unwrap_or_else(|e| panic!("{}: {e}", printed.text));
    assert_eq!(again, tree, "{text} -> {}", printed.text);
}

#[test]
fn every_update_form_round_trips() {
    for text in [
        "ADD likeTally :one",
        "ADD #c :one",
        "SET play_count = play_count + :one",
        "SET play_count = if_not_exists(play_count, :zero) + :one",
        "SET a = list_append(a, :list), b.c[2].d = :one, e = e - :one",
        "SET #odd = :s REMOVE stale, x[0] ADD tags :tags DELETE labels :tags",
        "remove gone set a = :one",
        "SET big = :big",
    ] {
        round_trip_update(text);
    }
}

#[test]
fn every_condition_form_round_trips() {
    for text in [
        "attribute_not_exists(#sk)",
        "attribute_exists(PK) AND #c >= :one",
        "a = :one OR b <> :one AND NOT c < :one",
        "(a = :one OR b = :one) AND c <= :one",
        "a = :one OR (b = :one OR c = :one)",
        "NOT (a > :one AND b BETWEEN :zero AND :one)",
        "size(tags) > :one AND contains(tags, :s)",
        "begins_with(#sk, :s) AND attribute_type(x.y[3], :t)",
        "a IN (:one, :zero, :big)",
    ] {
        round_trip_condition(text);
    }
    let (names, values) = (names(), values());
    let maps = Maps::strict(&names, &values);
    let paths = parse_projection("a, b.c[1], #c", maps).unwrap();
    let printed = printer::projection(&paths);
    assert_eq!(printed.text, "#n0, #n1.#n2[1], #n3");
    assert_eq!(
        parse_projection(&printed.text, maps_of(&printed)).unwrap(),
        paths
    );
}

#[test]
fn every_name_and_value_is_aliased() {
    let (names, values) = (names(), values());
    let maps = Maps::strict(&names, &values);
    let tree = parse_update("ADD #c :one", maps, &[]).unwrap();
    let printed = printer::update(&tree);
    assert_eq!(printed.text, "ADD #n0 :v0");
    assert_eq!(printed.names["#n0"], "count");
    assert_eq!(printed.values[":v0"], n("1"));
    // A bare reserved word is refused where it stands.
    let e = parse_update("ADD count :one", maps, &[]).unwrap_err();
    assert_eq!(e.position, 4);
    assert!(e.message.contains("reserved"), "{e}");
}

#[test]
fn every_validation_error_names_its_place() {
    let (names, values) = (names(), values());
    let maps = Maps::strict(&names, &values);
    let keys = ["PK".to_owned(), "SK".to_owned()];
    let cases: [(&str, bool, usize, &str); 14] = [
        ("SET a = :one ADD a :one", true, 17, "overlaps"),
        ("SET a.b = :one REMOVE a", true, 22, "overlaps"),
        ("SET PK = :one", true, 4, "key attribute"),
        ("ADD #sk :one", true, 4, "key attribute"),
        ("ADD a :s", true, 6, "number or a set"),
        ("DELETE a :one", true, 9, "takes a set"),
        ("SET a = :one SET b = :one", true, 13, "appears twice"),
        (
            "SET a = :missing",
            true,
            8,
            "not in the expression attribute values",
        ),
        ("SET a = nope(b)", true, 8, "unknown function"),
        ("UPSERT a :one", true, 0, "expected SET"),
        ("attribute_exists(a, b)", false, 18, "takes 1 argument"),
        ("begins_with(a)", false, 13, "takes 2 arguments"),
        ("frobnicate(a)", false, 0, "unknown function"),
        ("a BETWEEN :one :zero", false, 15, "needs `AND`"),
    ];
    for (text, is_update, position, reason) in cases {
        let e = if is_update {
            parse_update(text, maps, &keys).unwrap_err()
        } else {
            parse_condition(text, maps).unwrap_err()
        };
        assert_eq!(e.position, position, "{text}: {e}");
        assert!(e.message.contains(reason), "{text}: {e}");
    }
    let e = parse_condition("a = :one b", maps).unwrap_err();
    assert_eq!((e.position, e.message.as_str()), (9, "unexpected `b`"));
    assert!(
        parse_condition("#nope = :one", maps)
            .unwrap_err()
            .message
            .contains("names")
    );
}

/// A small deterministic generator for the property test.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const NAMES: [&str; 6] = ["a", "count", "likeTally", "b c", "x.y", "SK"];

fn gen_path(r: &mut Rng) -> Path {
    let mut steps = vec![Step::Name(NAMES[r.below(6) as usize].to_owned())];
    for _ in 0..r.below(3) {
        if r.below(2) == 0 {
            steps.push(Step::Name(NAMES[r.below(6) as usize].to_owned()));
        } else {
            steps.push(Step::Index(r.below(5) as u32));
        }
    }
    Path(steps)
}

fn gen_value(r: &mut Rng) -> AttributeValue {
    match r.below(4) {
        0 => n(&r.below(1000).to_string()),
        1 => AttributeValue::S(format!("s{}", r.below(9))),
        2 => n("-0.000000000000000000000000000000000001"),
        _ => AttributeValue::Bool(true),
    }
}

fn gen_operand(r: &mut Rng) -> Operand {
    match r.below(3) {
        0 => Operand::Path(gen_path(r)),
        1 => Operand::Value(gen_value(r).into()),
        _ => Operand::Size(gen_path(r)),
    }
}

fn gen_condition(r: &mut Rng, depth: u32) -> Condition {
    let leaf = depth == 0 || r.below(3) == 0;
    if leaf {
        return match r.below(8) {
            0 => Condition::Compare(gen_operand(r), Comparator::Ge, gen_operand(r)),
            1 => Condition::Compare(gen_operand(r), Comparator::Ne, gen_operand(r)),
            2 => Condition::Between(gen_operand(r), gen_operand(r), gen_operand(r)),
            3 => Condition::In(
                gen_operand(r),
                (0..=r.below(3)).map(|_| gen_operand(r)).collect(),
            ),
            4 => Condition::Exists(gen_path(r)),
            5 => Condition::NotExists(gen_path(r)),
            6 => Condition::BeginsWith(gen_path(r), gen_operand(r)),
            _ => Condition::Contains(gen_path(r), gen_operand(r)),
        };
    }
    match r.below(3) {
        0 => Condition::And(
            Box::new(gen_condition(r, depth - 1)),
            Box::new(gen_condition(r, depth - 1)),
        ),
        1 => Condition::Or(
            Box::new(gen_condition(r, depth - 1)),
            Box::new(gen_condition(r, depth - 1)),
        ),
        _ => Condition::Not(Box::new(gen_condition(r, depth - 1))),
    }
}

fn gen_set_operand(r: &mut Rng, depth: u32) -> SetOperand {
    match if depth == 0 { r.below(2) } else { r.below(4) } {
        0 => SetOperand::Path(gen_path(r)),
        1 => SetOperand::Value(gen_value(r).into()),
        2 => SetOperand::IfNotExists(gen_path(r), Box::new(gen_set_operand(r, depth - 1))),
        _ => SetOperand::ListAppend(
            Box::new(gen_set_operand(r, depth - 1)),
            Box::new(gen_set_operand(r, depth - 1)),
        ),
    }
}

fn gen_update(r: &mut Rng) -> Update {
    // Distinct top-level attributes, so that no two paths overlap.
    let mut u = Update::default();
    for (i, root) in ["u0", "u1", "u2", "u3", "u4", "u5"].iter().enumerate() {
        let mut target = gen_path(r);
        target.0[0] = Step::Name((*root).to_owned());
        match (i, r.below(4)) {
            (_, 0) => u.remove.push(target),
            (_, 1) => u.add.push((target, n(&r.below(50).to_string()).into())),
            (_, 2) => u
                .delete
                .push((target, AttributeValue::Ss(vec!["t".into()]).into())),
            _ => {
                let value = match r.below(3) {
                    0 => SetValue::Operand(gen_set_operand(r, 2)),
                    1 => SetValue::Plus(gen_set_operand(r, 1), gen_set_operand(r, 1)),
                    _ => SetValue::Minus(gen_set_operand(r, 1), gen_set_operand(r, 1)),
                };
                u.set.push((target, value));
            }
        }
    }
    u
}

#[test]
fn printing_then_parsing_gives_the_same_expression() {
    let mut r = Rng(0x5eed_1234_abcd_0001);
    for case in 0..500 {
        let c = gen_condition(&mut r, 4);
        let printed = printer::condition(&c);
        let back = parse_condition(&printed.text, maps_of(&printed))
            .unwrap_or_else(|e| panic!("case {case}: {}: {e}", printed.text));
        assert_eq!(back, c, "case {case}: {}", printed.text);

        let u = gen_update(&mut r);
        let printed = printer::update(&u);
        let back = parse_update(&printed.text, maps_of(&printed), &[])
            .unwrap_or_else(|e| panic!("case {case}: {}: {e}", printed.text));
        assert_eq!(back, u, "case {case}: {}", printed.text);
    }
}

#[test]
fn the_builder_accepts_literals_that_become_placeholders() {
    let (names, values) = (HashMap::new(), HashMap::new());
    let builder = Maps {
        names: &names,
        values: &values,
        literals: true,
    };
    let tree = parse_update("ADD likeTally 1 SET a = a - 2.5, t = 'it''s'", builder, &[]);
    // A quote ends the text: `'it'` then `'s'` is an error at the second text.
    assert!(tree.is_err());
    let tree = parse_update(
        "ADD likeTally 1 SET a = a - 2.5, b = -3, t = 'POST#a91f'",
        builder,
        &[],
    )
    .unwrap();
    let printed = printer::update(&tree);
    assert_eq!(
        printed.text,
        "SET #n0 = #n0 - :v0, #n1 = :v1, #n2 = :v2 ADD #n3 :v3"
    );
    assert_eq!(printed.values[":v0"], n("2.5"));
    assert_eq!(printed.values[":v1"], n("-3"));
    assert_eq!(printed.values[":v2"], AttributeValue::S("POST#a91f".into()));
    assert_eq!(printed.values[":v3"], n("1"));
    let e = parse_update("ADD x 1e999", builder, &[]).unwrap_err();
    assert_eq!(e.position, 6);
    // DynamoDB itself takes placeholders only.
    let strict = Maps::strict(&names, &values);
    assert!(parse_update("ADD likeTally 1", strict, &[]).is_err());
    // Indexes are still indexes.
    let c = parse_condition("a[1].b = 12345678901234567890123456789012345678", builder).unwrap();
    let printed = printer::condition(&c);
    assert_eq!(printed.text, "#n0[1].#n1 = :v0");
    assert_eq!(
        printed.values[":v0"],
        n("12345678901234567890123456789012345678")
    );
}
