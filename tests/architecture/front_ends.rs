//! The front ends write no JSON key: the CLI and the MCP server say core's typed reports (and
//! their own typed lines), so no `json!` is written outside their tests.

#[test]
fn no_front_end_writes_a_json_key() {
    let mut found = Vec::new();
    let mut read = 0;
    for krate in ["crates/cli/src", "crates/mcp/src", "crates/app/src"] {
        for (file, text) in super::rust_files(&super::root().join(krate)) {
            read += 1;
            // A file's tests come last, in `#[cfg(test)]` modules: they may write JSON inputs.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (at, line) in code.lines().enumerate() {
                if line.contains("json!(") && !line.trim_start().starts_with("//") {
                    found.push(format!(
                        "{krate}/{}:{}: {}",
                        file.display(),
                        at + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(read > 100, "the front ends' files were read: {read}");
    assert!(
        found.is_empty(),
        "JSON written by hand:\n{}",
        found.join("\n")
    );
}
