//! Find as you type and the selection's row set, without a window.

use aws_sdk_dynamodb::types::AttributeValue;

use crate::rows::{Finder, Rows, find_rows};
use crate::value::Item;

#[test]
fn find_as_you_type_goes_a_slice_at_a_time_and_narrows_the_earlier_matches() {
    use crate::rows::{FindScan, RowSet};
    let items: Vec<Item> = (0..10)
        .map(|i| Item::from([("PK".to_owned(), AttributeValue::S(format!("user{}", i % 4)))]))
        .collect();
    let rows = Rows::from_items(&items);
    let order: Vec<u32> = (0..10).rev().collect();
    let mut scan = FindScan::new(Finder::new("USER").unwrap(), None);
    assert!(!scan.step(&rows, &order, 4), "4 of 10 looked at");
    assert_eq!(scan.matches(), [9, 8, 7, 6], "in the order's order");
    assert!(scan.step(&rows, &order, 100));
    assert_eq!(scan.matches().len(), 10);
    // One more letter: only the 10 earlier matches are looked at, in their order.
    let mut narrower = FindScan::new(Finder::new("user1").unwrap(), Some((scan, &order)));
    assert!(narrower.step(&rows, &order, 100));
    assert_eq!(narrower.matches(), [9, 5, 1]);
    // A narrowed find narrows again (here by the same text: only its 3 matches looked at).
    let mut again = FindScan::new(
        Finder::new("user1").unwrap(),
        Some((narrower.clone(), &order)),
    );
    assert!(
        !again.step(&rows, &order, 2),
        "3 earlier matches to look at, not 10 rows"
    );
    assert!(again.step(&rows, &order, 1));
    assert_eq!(again.matches(), [9, 5, 1]);
    // A text that does not contain the earlier one starts over.
    let mut other = FindScan::new(Finder::new("ser2").unwrap(), Some((narrower, &order)));
    assert!(other.step(&rows, &order, 100));
    assert_eq!(other.matches(), [6, 2]);
    // An unfinished earlier find: its matches, then the rows it had not looked at.
    let mut part = FindScan::new(Finder::new("user").unwrap(), None);
    part.step(&rows, &order, 2);
    let mut fresh = FindScan::new(Finder::new("user3").unwrap(), Some((part, &order)));
    assert!(fresh.step(&rows, &order, 100));
    assert_eq!(fresh.matches(), [7, 3]);

    let mut set = RowSet::default();
    for row in [3, 70, 3, 129] {
        set.insert(row);
    }
    assert_eq!(set.len(), 3);
    assert!(set.contains(70) && set.contains(129) && !set.contains(4) && !set.contains(9999));
    set.clear();
    assert!(set.is_empty() && !set.contains(3));
}

#[test]
fn find_matches_either_case_of_the_first_letter_and_digits() {
    let items: Vec<Item> = ["xxUser42", "USER4", "a#4242", "us"]
        .iter()
        .map(|s| Item::from([("PK".to_owned(), AttributeValue::S((*s).to_owned()))]))
        .collect();
    let rows = Rows::from_items(&items);
    let view: Vec<u32> = (0..4).collect();
    let find = |t: &str| find_rows(&rows, &view, &Finder::new(t).expect("text"));
    assert_eq!(find("user4"), [0, 1]);
    assert_eq!(find("42"), [0, 2]);
    assert_eq!(find("#4242"), [2]);
    assert_eq!(find("user42x"), Vec::<u32>::new());
    assert_eq!(find("s"), [0, 1, 3]);
}
