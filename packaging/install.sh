#!/bin/sh
# Install dynoscope from this folder into ~/.local (or $PREFIX): the binary into bin/, its desktop
# entry, icons, AppStream metainfo, man pages and shell completions under share/. Nothing needs
# root and nothing outside $PREFIX is touched.
#
#   ./install.sh               # into ~/.local
#   PREFIX=/opt/x ./install.sh
#   ./install.sh --uninstall   # remove what an install put there
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
prefix="${PREFIX:-${HOME:?HOME is not set: give PREFIX}/.local}"

files="$(cd "$here" && find bin share -type f | sort)"

if [ "${1:-}" = "--uninstall" ]; then
  for file in $files; do
    rm -f "$prefix/$file"
  done
  echo "dynoscope: removed from $prefix"
  exit 0
fi

for file in $files; do
  mkdir -p "$prefix/$(dirname "$file")"
  cp "$here/$file" "$prefix/$file"
done
chmod 755 "$prefix/bin/dynoscope"
# A launcher may not have ~/.local/bin on its PATH: the desktop entry names the binary in full.
desktop="$prefix/share/applications/dynoscope.desktop"
sed "s|^Exec=dynoscope|Exec=$prefix/bin/dynoscope|" "$desktop" >"$desktop.new"
mv "$desktop.new" "$desktop"
if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q "$prefix/share/applications" || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$prefix/share/icons/hicolor/index.theme" ]; then
  gtk-update-icon-cache -q "$prefix/share/icons/hicolor" || true
fi
echo "dynoscope: installed into $prefix ($("$prefix/bin/dynoscope" --version))"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) echo "dynoscope: $prefix/bin is not on your PATH; add it to run dynoscope by name" ;;
esac
