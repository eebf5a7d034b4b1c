#!/usr/bin/env bash
# dynoscope's packages, from the release build: a .deb and a tar.gz folder, in target/package/.
#
#   scripts/package.sh                  # cargo build --release, then both packages
#   scripts/package.sh --binary PATH    # package that binary instead (the tests package theirs)
#   scripts/package.sh --out DIR        # write the packages there
#   scripts/package.sh --fast           # gzip at level 1 instead of xz (the tests' packages)
#
# Both hold the binary, its desktop entry, the icon in the hicolor sizes, the AppStream
# metainfo, a man page for every command and the bash, zsh and fish completions — the man pages
# and completions made by the binary itself (`dynoscope man`, `dynoscope completions`). The
# .deb's Depends are written here by hand: eframe and winit load the window system and GL with
# dlopen at run time, so no tool can read them off the binary (scripts/check-package.sh checks
# every library the running app loads against them). The tarball's install.sh puts the same
# files under ~/.local (or $PREFIX).
set -euo pipefail
# The packages' files are everyone's to read, whatever the caller's umask.
umask 022
say() { printf 'scripts/package.sh: %s\n' "$*" >&2; }

binary=""
out=target/package
compress=(-Zxz)
while [ $# -gt 0 ]; do
  case "$1" in
    --binary | --out)
      [ $# -ge 2 ] || { say "$1 needs a value"; exit 2; }
      # Paths given are the caller's, made absolute before the cd below.
      value="$(realpath -m -- "$2")"
      if [ "$1" = --binary ]; then binary="$value"; else out="$value"; fi
      shift 2 ;;
    --fast) compress=(-Zgzip -z1); shift ;;
    *) say "unknown argument $1"; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
for tool in dpkg-deb:dpkg readelf:binutils strip:binutils objdump:binutils gzip:gzip; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || { say "${tool%%:*} is missing: apt-get install ${tool#*:}"; exit 2; }
done

if [ -z "$binary" ]; then
  cargo build --release --locked -p dynoscope
  binary=target/release/dynoscope
fi
[ -x "$binary" ] || { say "$binary is not an executable"; exit 2; }
version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)"
# The changelog's newest entry is this version's (the .deb's changelog.gz is that file).
changelog_version="$(sed -n '1s/^dynoscope (\(.*\)) .*/\1/p' packaging/changelog)"
[ "$changelog_version" = "$version" ] \
  || { say "packaging/changelog's newest entry is $changelog_version, Cargo.toml says $version: add an entry"; exit 2; }
arch="$(dpkg --print-architecture)"
machine="$(uname -m)"
mkdir -p "$out"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

# The files every package holds, under $1 (a prefix: usr/ in the .deb, the folder's root in the
# tarball).
lay_out() {
  local root="$1"
  install -Dm755 "$binary" "$root/bin/dynoscope"
  # A release build is stripped by its profile; a debug build given here is stripped now.
  sections="$(readelf -S "$root/bin/dynoscope")"
  if [[ "$sections" == *.symtab* ]]; then
    strip "$root/bin/dynoscope"
  fi
  install -Dm644 assets/dynoscope.desktop "$root/share/applications/dynoscope.desktop"
  for icon in packaging/icons/*/dynoscope.png; do
    local size
    size="$(basename "$(dirname "$icon")")"
    install -Dm644 "$icon" "$root/share/icons/hicolor/$size/apps/dynoscope.png"
  done
  install -Dm644 packaging/dynoscope.metainfo.xml \
    "$root/share/metainfo/io.github.dynoscope.dynoscope.metainfo.xml"
  "$root/bin/dynoscope" man --out "$root/share/man/man1" >/dev/null
  gzip -9n "$root"/share/man/man1/*.1
  install -d "$root/share/bash-completion/completions" "$root/share/zsh/vendor-completions" \
    "$root/share/fish/vendor_completions.d"
  "$root/bin/dynoscope" completions bash >"$root/share/bash-completion/completions/dynoscope"
  "$root/bin/dynoscope" completions zsh >"$root/share/zsh/vendor-completions/_dynoscope"
  "$root/bin/dynoscope" completions fish >"$root/share/fish/vendor_completions.d/dynoscope.fish"
  install -Dm644 packaging/copyright "$root/share/doc/dynoscope/copyright"
  # A native package's changelog, in Debian's format (lintian reads it).
  gzip -9n <packaging/changelog >"$root/share/doc/dynoscope/changelog.gz"
  chmod 644 "$root/share/doc/dynoscope/changelog.gz"
  install -Dm644 LICENSE-MIT "$root/share/doc/dynoscope/LICENSE-MIT"
  install -Dm644 LICENSE-APACHE "$root/share/doc/dynoscope/LICENSE-APACHE"
}

# The .deb.
deb_root="$stage/deb"
lay_out "$deb_root/usr"
glibc="$(objdump -T "$deb_root/usr/bin/dynoscope" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)"
install -d "$deb_root/DEBIAN"
# Each file's checksum, for `dpkg --verify` (dpkg-deb does not write them).
(cd "$deb_root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$deb_root/DEBIAN/md5sums"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@GLIBC@/${glibc#GLIBC_}/" \
  -e "s/@SIZE@/$(du -sk "$deb_root/usr" | cut -f1)/" packaging/control >"$deb_root/DEBIAN/control"
deb="$out/dynoscope_${version}_${arch}.deb"
dpkg-deb --root-owner-group "${compress[@]}" --build "$deb_root" "$deb" >/dev/null

# The tarball: the same files in a folder, with install.sh.
name="dynoscope-$version-$machine-linux"
tar_root="$stage/$name"
lay_out "$tar_root"
install -m755 packaging/install.sh "$tar_root/install.sh"
tarball="$out/$name.tar.gz"
gzip_level=9
[ "${compress[0]}" = "-Zgzip" ] && gzip_level=1
tar -C "$stage" --owner=0 --group=0 --numeric-owner -cf - "$name" | gzip -"$gzip_level" -n >"$tarball"

for file in "$deb" "$tarball"; do
  say "$(du -h "$file" | cut -f1)	$file"
done
