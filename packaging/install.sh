#!/bin/sh
# Install dynoscope from this folder into ~/.local (or $PREFIX): the binary into bin/, its desktop
# entry, icons, AppStream metainfo, man pages and shell completions under share/. Nothing needs
# root and nothing outside $PREFIX is touched.
#
#   ./install.sh               # into ~/.local
#   PREFIX=/opt/x ./install.sh
#   ./install.sh --uninstall   # remove the files an install put there
set -eu
say() { printf 'dynoscope: %s\n' "$*"; }
here="$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)"
prefix="${PREFIX:-${HOME:?HOME is not set: give PREFIX}/.local}"
case "$prefix" in
  /*) ;;
  *) prefix="$(pwd)/$prefix" ;;
esac
# The desktop entry names the binary in full: a prefix its Exec key cannot quote is refused.
case "$prefix" in
  *[\"\`\$\\%]* | *"
"*) say "the prefix $prefix holds a character a desktop entry cannot name; choose another"; exit 2 ;;
esac
uninstall=false
case "${1:-}" in
  "") ;;
  --uninstall) uninstall=true ;;
  *) say "usage: ./install.sh [--uninstall]   (PREFIX=DIR to install elsewhere than ~/.local)"; exit 2 ;;
esac

files="$(cd "$here" && find bin share -type f | sort)"
if $uninstall; then
  echo "$files" | while IFS= read -r file; do
    rm -f "$prefix/$file"
  done
  say "removed from $prefix"
  exit 0
fi

echo "$files" | while IFS= read -r file; do
  mkdir -p "$prefix/$(dirname "$file")"
  # A new file renamed into place: a running dynoscope keeps its old binary until it ends.
  cp "$here/$file" "$prefix/$file.new"
  mv -f "$prefix/$file.new" "$prefix/$file"
done
chmod 755 "$prefix/bin/dynoscope"
# A launcher may not have ~/.local/bin on its PATH: the desktop entry names the binary in full.
desktop="$prefix/share/applications/dynoscope.desktop"
escaped="$(printf '%s' "$prefix/bin/dynoscope" | sed 's/[&|]/\\&/g')"
sed "s|^Exec=dynoscope|Exec=\"$escaped\"|" "$desktop" >"$desktop.new"
mv -f "$desktop.new" "$desktop"
if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q "$prefix/share/applications" || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$prefix/share/icons/hicolor/index.theme" ]; then
  gtk-update-icon-cache -q "$prefix/share/icons/hicolor" || true
fi
say "installed into $prefix ($("$prefix/bin/dynoscope" --version))"
case ":$PATH:" in
  *":$prefix/bin:"*) ;;
  *) say "$prefix/bin is not on your PATH; add it to run dynoscope by name" ;;
esac
say "zsh finds its completion once $prefix/share/zsh/vendor-completions is on its fpath"
