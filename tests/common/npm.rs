//! npm packages a test runs generated code with, installed once into a folder of the target.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `packages` (npm specs such as `@aws-sdk/client-dynamodb@3`) installed into
/// `target/tmp/<folder>`, beside whatever an earlier call installed there; the folder, whose
/// `node_modules` a script written there imports from. Node.js and npm must be installed:
/// generated code that cannot be run fails the test.
pub(crate) fn installed(folder: &str, packages: &[&str]) -> PathBuf {
    for tool in ["node", "npm"] {
        let runs = Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success());
        assert!(
            runs,
            "`{tool}` is needed to run generated JavaScript (apt-get install nodejs npm)"
        );
    }
    // One install at a time: tests running side by side on a fresh machine ask for the same
    // folder, and two `npm install`s in one folder undo each other's work. A test that failed
    // while holding the lock leaves nothing half-done that matters here: the next call looks
    // at the folder again.
    let _one_at_a_time = super::one_at_a_time(&format!("npm-{folder}"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(folder);
    let name = |spec: &str| match spec.rfind('@') {
        Some(at) if at > 0 => spec[..at].to_owned(),
        _ => spec.to_owned(),
    };
    let present = packages.iter().all(|spec| {
        dir.join("node_modules")
            .join(name(spec))
            .join("package.json")
            .exists()
    });
    if !present {
        std::fs::create_dir_all(&dir).unwrap();
        // Kept when there: it lists what earlier calls installed, which `npm install` would
        // otherwise remove as extraneous.
        let manifest = dir.join("package.json");
        if !manifest.exists() {
            let text =
                format!("{{\"name\": \"{folder}\", \"private\": true, \"type\": \"module\"}}\n");
            std::fs::write(&manifest, text).unwrap();
        }
        eprintln!(
            "installing {} from npm into {}",
            packages.join(", "),
            dir.display()
        );
        let out = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
            .args(packages)
            .current_dir(&dir)
            .output()
            .expect("npm runs");
        assert!(
            out.status.success(),
            "npm install {} failed:\n{}",
            packages.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    dir
}
