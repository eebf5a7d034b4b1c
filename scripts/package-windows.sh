#!/usr/bin/env bash
# dynoscope for Windows, built on this Debian machine: the release dynoscope.exe for
# x86_64-pc-windows-gnu (its icon and version information embedded by build.rs), then
#   target/package/dynoscope-VERSION-x86_64-windows.zip   portable: the .exe, README.txt, licences
#   target/package/dynoscope-VERSION-x86_64.msi           installed for the user alone, no
#                                                           administrator rights (see
#                                                           packaging/windows/dynoscope.wxs)
#
#   scripts/package-windows.sh                  # build, then both packages
#   scripts/package-windows.sh --binary PATH    # package that dynoscope.exe instead
#   scripts/package-windows.sh --out DIR        # write the packages there
#
# rustup cannot add the Windows target here (its servers are not reachable), so the standard
# library is built from source: Debian's rustc-web and cargo-web (/usr/bin/cargo, put first on
# the PATH here only), rust-web-src (the library's source), RUSTC_BOOTSTRAP=1 for -Zbuild-std,
# and MinGW-w64 as the linker. The build has its own target folder (target/windows): the two
# compilers share nothing.
set -euo pipefail
umask 022
say() { printf 'scripts/package-windows.sh: %s\n' "$*" >&2; }

binary=""
out=target/package
while [ $# -gt 0 ]; do
  case "$1" in
    --binary | --out)
      [ $# -ge 2 ] || { say "$1 needs a value"; exit 2; }
      value="$(realpath -m -- "$2")"
      if [ "$1" = --binary ]; then binary="$value"; else out="$value"; fi
      shift 2 ;;
    *) say "unknown argument $1"; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."

target=x86_64-pc-windows-gnu
missing=()
for tool in x86_64-w64-mingw32-gcc:gcc-mingw-w64-x86-64 x86_64-w64-mingw32-windres:binutils-mingw-w64-x86-64 \
            wixl:wixl msiinfo:msitools zip:zip; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || missing+=("${tool#*:}")
done
if [ -z "$binary" ]; then
  [ -x /usr/bin/cargo ] && /usr/bin/cargo --version 2>/dev/null | grep -q . || missing+=(cargo-web rustc-web)
  [ -d /usr/lib/rustlib/src/rust/library/std ] || missing+=(rust-web-src)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  say "missing Debian packages: ${missing[*]}"
  say "install them with:  sudo apt-get install --no-install-recommends ${missing[*]}"
  exit 2
fi

if [ -z "$binary" ]; then
  say "building with $(/usr/bin/cargo --version) for $target (the standard library from source)"
  # dynoxide-rs also builds a cdylib, whose every symbol MinGW's linker would export (over the
  # 65,535 a DLL can hold: "export ordinal too large"); nothing is loaded from dynoscope.exe
  # by name, so no symbol is exported.
  PATH="/usr/bin:$PATH" RUSTC_BOOTSTRAP=1 \
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc \
    CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUSTFLAGS="-C link-arg=-Wl,--exclude-all-symbols" \
    cargo build --release --locked -p dynoscope --target "$target" --target-dir target/windows \
      -Zbuild-std=std,panic_abort
  binary="target/windows/$target/release/dynoscope.exe"
fi
[ -f "$binary" ] || { say "$binary is not there"; exit 2; }
# A Windows program, for x86-64, with the icon and version information in its resources.
header="$(x86_64-w64-mingw32-objdump -f "$binary")"
grep -q "file format pei-x86-64" <<<"$header" || { say "$binary is not a Windows x86-64 program"; exit 2; }
x86_64-w64-mingw32-objdump -h "$binary" | grep -q '\.rsrc' \
  || { say "$binary has no resources (icon, version): was it built by build.rs with windres?"; exit 2; }

root="$(pwd)"
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

# The zip: one folder, the files with Windows line ends where a user opens them in Notepad.
folder="dynoscope-$version-x86_64-windows"
mkdir -p "$stage/$folder"
cp "$binary" "$stage/$folder/dynoscope.exe"
sed 's/$/\r/' packaging/windows/README.txt >"$stage/$folder/README.txt"
sed 's/$/\r/' LICENSE-MIT >"$stage/$folder/LICENSE-MIT.txt"
sed 's/$/\r/' LICENSE-APACHE >"$stage/$folder/LICENSE-APACHE.txt"
zip_file="$out/$folder.zip"
rm -f "$zip_file"
(cd "$stage" && zip -q -r -X -9 "$zip_file" "$folder")

# The .msi, from the same files (wixl takes the sources relative to where it runs).
msi_file="$out/dynoscope-$version-x86_64.msi"
cp packaging/windows/dynoscope.ico "$stage/$folder/"
(cd "$stage/$folder" && wixl -a x64 -o "$msi_file" \
  -D Version="$version" -D Exe=dynoscope.exe -D Readme=README.txt \
  -D LicenseMit=LICENSE-MIT.txt -D LicenseApache=LICENSE-APACHE.txt -D Icon=dynoscope.ico \
  "$root/packaging/windows/dynoscope.wxs")
msiinfo export "$msi_file" File | grep -q dynoscope.exe || { say "$msi_file holds no dynoscope.exe"; exit 1; }

size() { du -h "$1" | cut -f1; }
say "dynoscope.exe $(size "$binary"); $(basename "$zip_file") $(size "$zip_file"); $(basename "$msi_file") $(size "$msi_file")"
printf '%s\n%s\n' "$zip_file" "$msi_file"
