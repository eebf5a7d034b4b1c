//! One key casing for every document dynoscope writes: `snake_case` (the specs' field names,
//! which serde derives, are snake_case already; the reports follow them). Checked in the source:
//! every key written into a JSON object by `json!`, by `doc["key"] = …` or by `.insert("key", …)`
//! in core, the CLI and the MCP server is snake_case, but an item's attribute names (the sample
//! data's, as a table holds them) and the code and documents written for other tools (the code
//! generator's targets, infrastructure as code, the AWS Price List API's answers).

use std::path::Path;

/// Where a key is not dynoscope's own: the code generator's 15 targets, infrastructure as code,
/// the Price List API's documents, and the sample data (attribute names as a table holds them).
const NOT_OURS: [&str; 5] = ["/codegen/", "/iac/", "/cost/live", "/seed/", "/samples"];

/// Attribute names of the sample items (and the articles'), which items carry as written.
const ATTRIBUTES: [&str; 12] = [
    "likeTally",
    "likedAt",
    "createdAt",
    "expiresAt",
    "updatedAt",
    "archivedAt",
    "postCount",
    "memberCount",
    "replyCount",
    "postId",
    "tallyUpdatedAt",
    "lastModified",
];

/// Whether `key` is snake_case: lower-case letters, digits and `_`.
fn snake(key: &str) -> bool {
    key.chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Whether `key` could be a key at all: letters, digits, `_`, `-` and spaces (a key with the
/// last two is caught, never let through as not a key).
fn key_like(key: &str) -> bool {
    !key.is_empty()
        && (key.chars()).all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ' '))
}

/// The keys `line` writes: `"key":` inside `json!`, `["key"] =`, and `.insert("key"…` (as
/// `serde_json::Map` takes it, `"key".into()` or `.to_owned()`).
fn keys(line: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for (open, close) in [("\"", "\":"), ("[\"", "\"] =")] {
        let mut rest = line;
        while let Some(at) = rest.find(close) {
            let before = &rest[..at];
            if let Some(start) = before.rfind(open) {
                let key = &before[start + open.len()..];
                if key_like(key) {
                    found.push(key);
                }
            }
            rest = &rest[at + close.len()..];
        }
    }
    let mut rest = line;
    while let Some(at) = rest.find("insert(\"") {
        let after = &rest[at + "insert(\"".len()..];
        let Some(end) = after.find('"') else { break };
        if key_like(&after[..end]) {
            found.push(&after[..end]);
        }
        rest = &after[end..];
    }
    found
}

/// A key that is DynamoDB's own, as its API and its JSON name them: PascalCase with nothing
/// but letters and digits (`"S"`, `"N"`, `"Item"`, `"KeySchema"`, an item's `"PK"`).
fn dynamodbs(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_uppercase())
        && key.chars().all(|c| c.is_ascii_alphanumeric())
}

#[test]
fn every_key_dynoscope_writes_is_snake_case() {
    let mut files = Vec::new();
    for krate in ["core", "cli", "mcp"] {
        let src = super::root().join("crates").join(krate).join("src");
        let read = super::rust_files(&src).into_iter();
        files.extend(read.map(|(file, text)| (Path::new(krate).join(file), text)));
    }
    let mut wrong = Vec::new();
    for (file, text) in &files {
        let name = file.to_string_lossy().replace('\\', "/");
        if NOT_OURS.iter().any(|n| name.contains(n)) || name.ends_with("tests.rs") {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for key in keys(line) {
                if !snake(key) && !dynamodbs(key) && !ATTRIBUTES.contains(&key) {
                    wrong.push(format!("{name}:{}: \"{key}\"", n + 1));
                }
            }
        }
    }
    assert!(files.len() > 100, "the sources were read: {}", files.len());
    assert!(
        wrong.is_empty(),
        "keys not in snake_case:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn keys_are_found_as_written() {
    assert_eq!(
        keys(r#"json!({"consumed_rcu": 1, "usd": u})"#),
        ["consumed_rcu", "usd"]
    );
    assert_eq!(keys(r#"out["storedNow"] = json!(v);"#), ["storedNow"]);
    assert_eq!(keys(r#"map.insert("asOf".into(), v);"#), ["asOf"]);
    assert_eq!(keys(r#"json!({"Partition key": k})"#), ["Partition key"]);
    assert!(!snake("consumedRCU") && snake("only_in_a"));
    assert!(dynamodbs("KeySchema") && !dynamodbs("Partition key") && !dynamodbs("Status-2"));
}
