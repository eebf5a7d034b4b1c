//! The packages `scripts/package.sh` builds, from this test build's binary (gzip at level 1: the
//! release packages are built and installed by `.ci/run`): the .deb's control file names its
//! run-time libraries, its files are where the issue says, its desktop entry passes
//! `desktop-file-validate` and its metainfo `appstreamcli validate`, its man page renders; the
//! tarball's install.sh puts the same files under a prefix, and the binary installed runs.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::run_ok as run;

/// The packages of this build, made once into a folder of this test's.
fn packages() -> (PathBuf, PathBuf, PathBuf) {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("package-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    run(Command::new("scripts/package.sh")
        .args([
            "--fast",
            "--binary",
            env!("CARGO_BIN_EXE_dynoscope"),
            "--out",
        ])
        .arg(&dir));
    let version = env!("CARGO_PKG_VERSION");
    let arch = run(Command::new("dpkg").arg("--print-architecture"));
    let deb = dir.join(format!("dynoscope_{version}_{}.deb", arch.trim()));
    let machine = run(Command::new("uname").arg("-m"));
    let tarball = dir.join(format!(
        "dynoscope-{version}-{}-linux.tar.gz",
        machine.trim()
    ));
    (dir, deb, tarball)
}

#[test]
fn the_deb_and_the_tarball_hold_what_a_user_installs() {
    let (dir, deb, tarball) = packages();
    let field = |name: &str| run(Command::new("dpkg-deb").arg("-f").arg(&deb).arg(name));
    assert_eq!(field("Package").trim(), "dynoscope");
    assert_eq!(field("Version").trim(), env!("CARGO_PKG_VERSION"));
    let depends = field("Depends");
    // What eframe and winit load with dlopen, and the TLS stack's certificates.
    for library in [
        "libc6 (>= 2.",
        "libgl1",
        "libegl1",
        "libx11-6",
        "libxkbcommon-x11-0",
        "libxcursor1",
        "libxi6",
        "libwayland-client0",
        "ca-certificates",
    ] {
        assert!(depends.contains(library), "{library}: {depends}");
    }
    let listed = run(Command::new("dpkg-deb").arg("-c").arg(&deb));
    for path in [
        "./usr/bin/dynoscope",
        "./usr/share/applications/dynoscope.desktop",
        "./usr/share/icons/hicolor/48x48/apps/dynoscope.png",
        "./usr/share/icons/hicolor/128x128/apps/dynoscope.png",
        "./usr/share/metainfo/io.github.dynoscope.dynoscope.metainfo.xml",
        "./usr/share/man/man1/dynoscope.1.gz",
        "./usr/share/man/man1/dynoscope-check.1.gz",
        "./usr/share/bash-completion/completions/dynoscope",
        "./usr/share/zsh/vendor-completions/_dynoscope",
        "./usr/share/fish/vendor_completions.d/dynoscope.fish",
        "./usr/share/doc/dynoscope/copyright",
        "./usr/share/doc/dynoscope/changelog.gz",
        "./usr/share/doc/dynoscope/LICENSE-MIT",
        "./usr/share/doc/dynoscope/LICENSE-APACHE",
    ] {
        assert!(listed.contains(path), "{path} in {listed}");
    }
    let root = dir.join("deb");
    run(Command::new("dpkg-deb").arg("-x").arg(&deb).arg(&root));
    let desktop = root.join("usr/share/applications/dynoscope.desktop");
    run(Command::new("desktop-file-validate").arg(&desktop));
    let entry = std::fs::read_to_string(&desktop).unwrap();
    assert!(entry.contains("Exec=dynoscope\n") && entry.contains("Icon=dynoscope\n"));
    run(Command::new("appstreamcli")
        .args(["validate", "--no-net"])
        .arg(root.join("usr/share/metainfo/io.github.dynoscope.dynoscope.metainfo.xml")));
    let page = run(Command::new("man")
        .arg("-l")
        .arg(root.join("usr/share/man/man1/dynoscope-check.1.gz"))
        .env("MANPAGER", "cat")
        .env("MANWIDTH", "100"));
    assert!(page.contains("--tally"), "{page}");
    // Every page's footer names dynoscope and its version, a subcommand's too.
    let roff = run(Command::new("zcat").arg(root.join("usr/share/man/man1/dynoscope-export.1.gz")));
    let th = format!(
        ".TH dynoscope-export 1  \"dynoscope {}\" \"dynoscope manual\"",
        env!("CARGO_PKG_VERSION")
    );
    assert!(roff.contains(&th), "{th} in {roff}");
    // Debian's own checker: no error, no warning (a maintainer with an address, a changelog,
    // a copyright notice).
    run(Command::new("lintian")
        .args(["--fail-on", "error,warning"])
        .arg(&deb));
    let version = run(Command::new(root.join("usr/bin/dynoscope")).arg("--version"));
    assert!(version.starts_with("dynoscope "), "{version}");

    the_tarball_installs_under_a_prefix(&dir, &tarball, &version);
}

/// The tarball, installed under a prefix of its own: its binary says `version`, its launcher
/// names the binary in full, and `--uninstall` takes it away.
fn the_tarball_installs_under_a_prefix(dir: &Path, tarball: &Path, version: &str) {
    run(Command::new("tar")
        .arg("-xzf")
        .arg(tarball)
        .arg("-C")
        .arg(dir));
    let folder = dir.join(
        tarball
            .file_name()
            .unwrap()
            .to_string_lossy()
            .trim_end_matches(".tar.gz"),
    );
    // A prefix with a space: the launcher quotes it.
    let prefix = dir.join("a prefix");
    let said = run(Command::new(folder.join("install.sh")).env("PREFIX", &prefix));
    assert!(said.contains("installed into"), "{said}");
    let installed = run(Command::new(prefix.join("bin/dynoscope")).arg("--version"));
    assert_eq!(installed, version);
    let entry =
        std::fs::read_to_string(prefix.join("share/applications/dynoscope.desktop")).unwrap();
    let exec = format!("Exec=\"{}\"\n", prefix.join("bin/dynoscope").display());
    assert!(
        entry.contains(&exec),
        "the launcher names the binary in full: {entry}"
    );
    assert!(
        prefix
            .join("share/man/man1/dynoscope-table-export.1.gz")
            .exists()
    );
    run(Command::new(folder.join("install.sh"))
        .arg("--uninstall")
        .env("PREFIX", &prefix));
    assert!(!prefix.join("bin/dynoscope").exists());
}
