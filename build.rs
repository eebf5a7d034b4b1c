//! On Windows, `dynoscope.exe` carries its icon and its version information
//! (`packaging/windows/dynoscope.rc`), compiled by MinGW's `windres` and linked into the binary
//! alone. Other systems are untouched.

use std::path::PathBuf;
use std::process::Command;

const RC: &str = "packaging/windows/dynoscope.rc";

fn main() -> Result<(), String> {
    println!("cargo:rerun-if-changed={RC}");
    println!("cargo:rerun-if-changed=packaging/windows/dynoscope.ico");
    println!("cargo:rerun-if-env-changed=WINDRES");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_OS") != "windows" {
        return Ok(());
    }
    if var("CARGO_CFG_TARGET_ENV") != "gnu" {
        // MSVC's resource compiler is not wired here: the .exe still builds and runs, without
        // its icon (docs/install.md says the Windows build is made with MinGW).
        println!(
            "cargo:warning=the icon and version information are embedded only with MinGW (x86_64-pc-windows-gnu)"
        );
        return Ok(());
    }
    let arch = var("CARGO_CFG_TARGET_ARCH");
    let windres = std::env::var("WINDRES").unwrap_or_else(|_| {
        let prefixed = format!("{arch}-w64-mingw32-windres");
        let found = Command::new(&prefixed).arg("--version").output();
        if found.is_ok_and(|out| out.status.success()) {
            prefixed
        } else {
            "windres".to_owned()
        }
    });
    let out = PathBuf::from(var("OUT_DIR")).join("dynoscope-resources.o");
    let version = var("CARGO_PKG_VERSION");
    let status = Command::new(&windres)
        .arg(format!(
            "-DVERSION_MAJOR={}",
            var("CARGO_PKG_VERSION_MAJOR")
        ))
        .arg(format!(
            "-DVERSION_MINOR={}",
            var("CARGO_PKG_VERSION_MINOR")
        ))
        .arg(format!(
            "-DVERSION_PATCH={}",
            var("CARGO_PKG_VERSION_PATCH")
        ))
        .arg(format!("-DVERSION_TEXT=\\\"{version}\\\""))
        .args([RC, "-O", "coff", "-o"])
        .arg(&out)
        .status()
        .map_err(|e| {
            format!("{windres} (MinGW's resource compiler, binutils-mingw-w64) could not run: {e}")
        })?;
    if !status.success() {
        return Err(format!("{windres} could not compile {RC} ({status})"));
    }
    // Only the binary: the engine's library targets are no place for dynoscope's icon.
    println!("cargo:rustc-link-arg-bins={}", out.display());
    Ok(())
}
