//! Identifiers made of the longest table names, and settings not read left out.

use super::cdk::stack_class;
use super::cloudformation::logical_id;
use super::*;
use crate::schema::parse_key;

#[test]
fn a_logical_id_and_a_stack_name_stay_within_cloudformations_bounds() {
    let long = "a".repeat(255);
    let other = format!("{}b", "a".repeat(254));
    for (id, max) in [
        (logical_id(&long), 255),
        (logical_id(&other), 255),
        (stack_class(&long), 128),
    ] {
        assert!(id.len() <= max, "{} > {max}: {id}", id.len());
        assert!(id.chars().all(|c| c.is_ascii_alphanumeric()), "{id}");
    }
    assert_ne!(logical_id(&long), logical_id(&other), "two names, two IDs");
    assert_eq!(logical_id(&long), logical_id(&long), "the same every time");
    assert!(logical_id(&long).ends_with("Table"));
    assert_eq!(
        logical_id("Posts"),
        "PostsTable",
        "a short name is as it was"
    );
    // A name of 251 letters fits with its suffix exactly: kept whole.
    assert_eq!(
        logical_id(&"b".repeat(250)),
        format!("B{}Table", "b".repeat(249))
    );
}

#[test]
fn point_in_time_recovery_off_or_not_read_is_written_in_no_format() {
    let spec = TableSpec::new("Posts", parse_key("PK:S").unwrap(), None);
    for format in IacFormat::ALL {
        let text = render(&spec, format).to_lowercase();
        assert!(
            !text.contains("pointintimerecovery") && !text.contains("point_in_time"),
            "{}: {text}",
            format.name()
        );
    }
}
