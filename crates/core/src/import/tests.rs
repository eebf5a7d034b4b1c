//! The import report: places run together, and how it ends.

use super::*;

#[test]
fn places_run_together_into_ranges_and_the_end_follows_the_table() {
    let (a, b): (Arc<Path>, Arc<Path>) = (Path::new("a.jsonl").into(), Path::new("b.jsonl").into());
    let places = [
        (a.clone(), 26),
        (a.clone(), 27),
        (a.clone(), 28),
        (a.clone(), 30),
        (b.clone(), 31),
        (b, 32),
    ];
    let mut report = ImportReport {
        read: 10,
        ..ImportReport::default()
    };
    report.not_written(false, &places[..3], "throttled".into(), false);
    report.not_written(false, &places[3..], "throttled".into(), false);
    assert_eq!(report.refused.len(), 1);
    assert_eq!(
        places_text(&report.refused[0].places),
        "a.jsonl: lines 26–28, a.jsonl: line 30, b.jsonl: lines 31–32"
    );
    assert_eq!(report.refused_count(), 6);
    assert_eq!(report.ending(), Ending::Refused);
    let bad = |written| ImportReport {
        read: 10,
        written,
        refused: vec![NotWritten {
            items: 10 - written,
            places: Vec::new(),
            places_left_out: false,
            reason: "ValidationException".into(),
            bad_input: true,
        }],
        ..ImportReport::default()
    };
    assert_eq!(bad(0).ending(), Ending::BadInput);
    assert_eq!(bad(4).ending(), Ending::Refused, "some were written");
    let dry = ImportReport {
        dry_run: true,
        ..bad(0)
    };
    assert_eq!(dry.ending(), Ending::Done);
    let skipped = ImportReport {
        read: 8,
        written: 8,
        skipped: 2,
        ..ImportReport::default()
    };
    assert_eq!(
        skipped.ending(),
        Ending::Refused,
        "lines skipped are lines refused"
    );
    let mut unknown = bad(4);
    unknown.unknown = unknown.refused.clone();
    assert_eq!(unknown.ending(), Ending::Unknown);
}
