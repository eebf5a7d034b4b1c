//! The commit the binary is built from, for `dynoscope --version`: `git rev-parse --short=12
//! HEAD` (with `-dirty` when the tree has changes), or `DYNOSCOPE_COMMIT` when a package build
//! sets it; "unknown commit" from a source tree without git.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

fn main() {
    println!("cargo:rerun-if-env-changed=DYNOSCOPE_COMMIT");
    // A new commit or a checkout moves HEAD or the ref it names (a loose ref in the common
    // folder of a worktree, or packed-refs); a change staged moves the index.
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        println!("cargo:rerun-if-changed={dir}/index");
        let common = git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]);
        let common = common.unwrap_or(dir);
        println!("cargo:rerun-if-changed={common}/packed-refs");
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            let loose = format!("{common}/{head}");
            if std::path::Path::new(&loose).exists() {
                println!("cargo:rerun-if-changed={loose}");
            }
        }
    }
    let commit = std::env::var("DYNOSCOPE_COMMIT")
        .ok()
        .filter(|c| !c.is_empty())
        .or_else(|| {
            let hash = git(&["rev-parse", "--short=12", "HEAD"])?;
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            Some(if dirty { format!("{hash}-dirty") } else { hash })
        })
        .unwrap_or_else(|| "unknown commit".to_owned());
    println!("cargo:rustc-env=DYNOSCOPE_COMMIT={commit}");
}
