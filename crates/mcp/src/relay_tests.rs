//! The relay's strict check of a line, without a process.

use super::*;

#[test]
fn a_line_is_checked_strictly_and_its_depth_bounded() {
    assert!(check(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).is_ok());
    let twice = check(br#"{"id":1,"params":{"arguments":{"delta":"1","delta":"1000"}}}"#);
    let twice = twice.err().unwrap();
    assert_eq!(twice.code, INVALID_REQUEST);
    assert!(
        twice.why.contains("`delta` is given twice"),
        "{}",
        twice.why
    );
    assert_eq!(check(b"{\"id\":").err().unwrap().code, PARSE_ERROR);
    let deep = "[".repeat(200_000);
    let deep = check(deep.as_bytes()).err().unwrap();
    assert_eq!(deep.code, PARSE_ERROR);
    assert!(deep.why.contains("deeper than 64"), "{}", deep.why);
    // Brackets inside strings are text.
    let quoted = format!("{{\"a\":\"{}\"}}", "[\\\"".repeat(100));
    assert!(check(quoted.as_bytes()).is_ok());
}
