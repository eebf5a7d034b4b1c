//! Every report is in the snapshot of report schemas (`crates/cli/src/schemas.rs`): a report
//! added without it would change what users read with no reviewed diff.

use std::path::Path;

#[test]
fn every_report_has_its_schema_in_the_snapshot() {
    let listed = std::fs::read_to_string(super::root().join("crates/cli/src/schemas.rs"))
        .expect("the schema snapshot's test");
    let mut reports = Vec::new();
    for krate in [
        "crates/core/src",
        "crates/cli/src",
        "crates/mcp/src",
        "crates/app/src",
    ] {
        for (_, text) in super::rust_files(&super::root().join(Path::new(krate))) {
            for line in text.lines() {
                let line = line.trim();
                let Some(at) = line.find(" Report for ") else {
                    continue;
                };
                if !line.starts_with("impl") {
                    continue;
                }
                let name: String = (line[at + " Report for ".len()..].chars())
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                reports.push(name);
            }
        }
    }
    assert!(reports.len() >= 40, "the reports were found: {reports:?}");
    let missing: Vec<&String> = (reports.iter())
        .filter(|name| !listed.contains(&format!("(\"{name}\")")))
        .collect();
    assert!(
        missing.is_empty(),
        "reports without their schema in the snapshot: {missing:?}"
    );
}
