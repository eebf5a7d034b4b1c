#!/usr/bin/env bash
# The Windows packages checked under Wine (Debian's wine64), as CI runs them after
# scripts/package-windows.sh:
#
#   scripts/check-windows.sh target/package/dynoscope-*-x86_64-windows.zip target/package/dynoscope-*-x86_64.msi
#
# From the zip: --version; the seeded sandbox's check (exactly its three drifted parents, exit 1);
# two `add --delta 1` on VID#9f3a moving play_count by exactly 2 (a sandbox file at a C:\ path
# with a space and a non-ASCII name); a diff of two sandboxes served on two ports finding a
# planted difference (exit 1); an export to C:\…\likes.json.gz imported back into an empty table
# and compared equal; a second export to it refused, a third with --force replacing it whole;
# check --from-export of that file (the seeded three drifts); the MCP server answering
# tools/list. The .msi installed with msiexec /qn for the user and listed once in Settings →
# Apps, its installed .exe run, upgraded in place by a newer .msi made from the same files,
# then uninstalled with nothing left. The app's first window under Xvfb, mapped, its screen
# saved (target/package/windows-first-window.png).
#
# Wine is not Windows: what this proves and what it cannot is in the manual (docs/install.md, "Windows").
# Wine 8 lacks bcryptprimitives.dll!ProcessPrng, which Rust's standard library calls: a shim
# built here from tests/windows/processprng.c is put beside the .exe under test, never shipped.
set -euo pipefail
say() { printf 'scripts/check-windows.sh: %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; exit 1; }
[ $# -eq 2 ] || { say "give the .zip and the .msi"; exit 2; }
zip_file="$(realpath "$1")"
msi_file="$(realpath "$2")"
cd "$(dirname "$0")/.."
root="$(pwd)"
out="$(dirname "$zip_file")"
wine=/usr/lib/wine/wine64
for tool in "$wine":wine64 Xvfb:xvfb import:imagemagick xdotool:xdotool unzip:unzip \
            x86_64-w64-mingw32-gcc:gcc-mingw-w64-x86-64 wixl:wixl python3:python3; do
  command -v "${tool%%:*}" >/dev/null 2>&1 \
    || { say "${tool%%:*} is missing: apt-get install ${tool#*:}"; exit 2; }
done

work="$(mktemp -d)"
export WINEPREFIX="$work/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
display=:96
cleanup() {
  [ -n "${served_a:-}" ] && kill "$served_a" 2>/dev/null
  [ -n "${served_b:-}" ] && kill "$served_b" 2>/dev/null
  WINEPREFIX="$WINEPREFIX" timeout 20 /usr/lib/wine/wineserver -k 2>/dev/null || true
  [ -n "${xvfb:-}" ] && kill "$xvfb" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb=$!
export DISPLAY="$display"
started=$(date +%s)
timeout 300 "$wine" wineboot --init >/dev/null 2>&1 || fail "wineboot did not set up a prefix"
say "Wine prefix ready in $(( $(date +%s) - started )) s ($("$wine" --version))"

# C: of the prefix, as Windows paths and as this machine's.
c="$WINEPREFIX/drive_c"
unzip -q "$zip_file" -d "$c/portable"
dir="$(find "$c/portable" -maxdepth 1 -mindepth 1 -type d | head -1)"
exe_win="C:\\portable\\$(basename "$dir")\\dynoscope.exe"
x86_64-w64-mingw32-gcc -O2 -shared -o "$dir/bcryptprimitives.dll" \
  tests/windows/processprng.c tests/windows/processprng.def -ladvapi32
run() { timeout 120 "$wine" "$exe_win" "$@"; }
status_of() { local s=0; "$@" >"$work/out" 2>"$work/err" || s=$?; echo "$s"; }

# --version, timed the second time (the first starts Wine's own services).
run --version >/dev/null
started=$(date +%s%N)
version="$(run --version | tr -d '\r')"
say "$version (in $(( ($(date +%s%N) - started) / 1000000 )) ms under Wine)"
grep -q '^dynoscope ' <<<"$version" || fail "--version said: $version"

# Where it keeps things: Windows' folders, the AWS CLI's %USERPROFILE%\.aws.
run paths | tr -d '\r' >"$work/paths"
sed 's|^|scripts/check-windows.sh: paths: |' "$work/paths" >&2
grep -q 'AWS config .*C:\\users\\[^\\]*\\\.aws\\config' "$work/paths" \
  || fail "paths does not read the AWS config from %USERPROFILE%\\.aws: $(cat "$work/paths")"
grep -q '^settings .*C:\\users\\[^\\]*\\AppData\\Roaming\\dynoscope' "$work/paths" \
  || fail "paths does not keep settings in %APPDATA%\\dynoscope: $(cat "$work/paths")"
say "paths: %USERPROFILE%\\.aws and %APPDATA%\\dynoscope"

rule=(--tally likeTally --parent-prefix 'POST#' --child-prefix 'LIKE#')
# The seeded sandbox's three drifted parents, exit 1.
s="$(status_of run --sandbox check --table Social "${rule[@]}" --all --json)"
[ "$s" = 1 ] || fail "check exited $s: $(cat "$work/err")"
drifted="$(tr -d '\r' <"$work/out" | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["totals"]["drifted"])')"
[ "$drifted" = 3 ] || fail "check found $drifted drifted parents, not 3"
say "check: 3 drifted parents, exit 1"

# Two +1s on one counter in a sandbox file under a path with a space and a non-ASCII name.
mkdir -p "$c/Datos de prueba/señal"
db='C:\Datos de prueba\señal\sandbox.db'
key=(--table Videos --key 'PK=VID#9f3a' --key 'SK=STATS#TOTAL')
play_count() {
  run --sandbox-db "$db" get "${key[@]}" --json 2>/dev/null | tr -d '\r' \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["play_count"]["N"])'
}
before="$(play_count)"
for _ in 1 2; do
  s="$(status_of run --sandbox-db "$db" add "${key[@]}" --attr play_count --delta 1 --yes)"
  [ "$s" = 0 ] || fail "add exited $s: $(cat "$work/err")"
done
after="$(play_count)"
[ "$after" = "$((before + 2))" ] || fail "play_count went $before → $after, not +2"
say "add: play_count $before → $after in $db"

# Two sandboxes served on two ports; one item changed on B; the diff finds it.
port_a=$((20000 + RANDOM % 20000)); port_b=$((port_a + 1))
"$wine" "$exe_win" --sandbox sandbox --port "$port_a" >"$work/a.log" 2>&1 &
served_a=$!
"$wine" "$exe_win" --sandbox sandbox --port "$port_b" >"$work/b.log" 2>&1 &
served_b=$!
for port in "$port_a" "$port_b"; do
  for _ in $(seq 120); do
    run --endpoint-url "http://127.0.0.1:$port" tables >/dev/null 2>&1 && break
    sleep 1
  done
done
b=(--endpoint-url "http://127.0.0.1:$port_b")
s="$(status_of run "${b[@]}" add --table Social --key 'PK=POST#a91f' --key SK=META --attr likeTally --delta 5 --yes)"
[ "$s" = 0 ] || fail "the planted change exited $s: $(cat "$work/err")"
s="$(status_of run --endpoint-url "http://127.0.0.1:$port_a" diff --table Social --to-endpoint "http://127.0.0.1:$port_b" --pk 'POST#a91f')"
[ "$s" = 1 ] || fail "diff exited $s: $(cat "$work/out" "$work/err")"
grep -q "likeTally" "$work/out" || fail "diff did not name likeTally: $(cat "$work/out")"
say "diff: the planted likeTally found, exit 1"

# An export to a C:\ path, imported back into an empty table on B, compared equal.
mkdir -p "$c/exports"
s="$(status_of run "${b[@]}" export --table Social --pk 'POST#a91f' --format ddb-json \
  --out 'C:\exports\likes.json.gz')"
[ "$s" = 0 ] || fail "export exited $s: $(cat "$work/err")"
[ -s "$c/exports/likes.json.gz" ] || fail "no likes.json.gz at C:\\exports"
s="$(status_of run "${b[@]}" table create --table Copy --pk PK:S --sk SK:S --yes)"
[ "$s" = 0 ] || fail "table create exited $s: $(cat "$work/err")"
s="$(status_of run "${b[@]}" import --table Copy --format ddb-json --yes 'C:\exports\likes.json.gz')"
[ "$s" = 0 ] || fail "import exited $s: $(cat "$work/err")"
s="$(status_of run "${b[@]}" diff --table Social --to-table Copy --pk 'POST#a91f')"
[ "$s" = 0 ] || fail "the imported copy differs (exit $s): $(cat "$work/out" "$work/err")"
say "export to C:\\exports\\likes.json.gz and import: equal"

# The same file again: refused while it is there (exit 2, left as it was); with --force written
# whole beside it and renamed over it, with no part file left in the folder.
sum_before="$(md5sum <"$c/exports/likes.json.gz")"
s="$(status_of run "${b[@]}" export --table Social --pk 'POST#a91f' --format ddb-json \
  --out 'C:\exports\likes.json.gz')"
[ "$s" = 2 ] || fail "an export over an existing file exited $s, not 2: $(cat "$work/err")"
[ "$(md5sum <"$c/exports/likes.json.gz")" = "$sum_before" ] || fail "a refused export changed the file"
a=(--endpoint-url "http://127.0.0.1:$port_a")
s="$(status_of run "${a[@]}" export --table Social --format s3-export --force \
  --out 'C:\exports\likes.json.gz')"
[ "$s" = 0 ] || fail "export --force exited $s: $(cat "$work/err")"
[ "$(md5sum <"$c/exports/likes.json.gz")" != "$sum_before" ] || fail "export --force left the old file"
gzip -t "$c/exports/likes.json.gz" || fail "the replaced file is not whole"
[ "$(find "$c/exports" -type f | wc -l)" = 1 ] || fail "files left beside it: $(ls -a "$c/exports")"
say "export over an existing file: refused (exit 2), then replaced whole with --force"

# That file (the whole of A's Social, as DynamoDB's export writes it) reconciled offline: the
# seeded three drifted parents, exit 1.
s="$(status_of run "${a[@]}" check --table Social "${rule[@]}" --from-export 'C:\exports\likes.json.gz' --json)"
[ "$s" = 1 ] || fail "check --from-export exited $s: $(cat "$work/err")"
drifted="$(tr -d '\r' <"$work/out" | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["totals"]["drifted"])')"
[ "$drifted" = 3 ] || fail "check --from-export found $drifted drifted parents, not 3"
say "check --from-export C:\exports\likes.json.gz: 3 drifted parents, exit 1"

# The MCP server lists its tools.
printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"check","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' >"$work/mcp.in"
timeout 120 "$wine" "$exe_win" --sandbox mcp <"$work/mcp.in" >"$work/mcp.out" 2>"$work/mcp.err" || true
tr -d '\r' <"$work/mcp.out" | grep '"id":2' | grep -q '"tools"' \
  || fail "the MCP server did not list its tools: $(cat "$work/mcp.out" "$work/mcp.err")"
say "mcp: tools/list answered"

# The .msi: installed for the user, no rights asked; run; removed.
timeout 300 "$wine" msiexec /i "$msi_file" /qn || fail "msiexec /i failed"
installed="$(find "$c/users" -path '*/AppData/Local/Programs/dynoscope/dynoscope.exe' | head -1)"
[ -n "$installed" ] && [ -f "$installed" ] || fail "the .msi installed no dynoscope.exe under AppData\\Local\\Programs"
cp "$dir/bcryptprimitives.dll" "$(dirname "$installed")/"
timeout 120 "$wine" "$installed" --version >/dev/null || fail "the installed dynoscope.exe did not run"
find "$c/users" -name 'dynoscope.lnk' | grep -q . || fail "no Start-menu shortcut"
rm "$(dirname "$installed")/bcryptprimitives.dll"
# Settings → Apps lists what the Uninstall keys hold: dynoscope once, at the version installed.
listed() {
  for key in 'HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall' \
             'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall'; do
    timeout 60 "$wine" reg query "$key" /s 2>/dev/null | tr -d '\r'
  done | awk 'function flush() { if (name == "dynoscope") print version; name = version = "" }
               /^HKEY_/ { flush() } $1 == "DisplayName" { name = $3 }
               $1 == "DisplayVersion" { version = $3 } END { flush() }'
}
package_version="$(basename "$dir" | sed -n 's/^dynoscope-\(.*\)-x86_64-windows$/\1/p')"
[ -n "$package_version" ] || fail "no version in the zip's folder name $(basename "$dir")"
[ "$(listed)" = "$package_version" ] || fail "Settings → Apps does not list dynoscope $package_version once: $(listed)"
# A newer version, made by wixl from the same files, replaces it in place.
newer="$(awk -F. -v OFS=. '{ $NF = $NF + 1; print }' <<<"$package_version")"
cp packaging/windows/dynoscope.ico "$dir/"
(cd "$dir" && wixl -a x64 -o "$work/newer.msi" -D Version="$newer" -D Exe=dynoscope.exe \
  -D Readme=README.txt -D LicenseMit=LICENSE-MIT.txt -D LicenseApache=LICENSE-APACHE.txt \
  -D Icon=dynoscope.ico "$root/packaging/windows/dynoscope.wxs") || fail "wixl could not make $newer"
timeout 300 "$wine" msiexec /i "$work/newer.msi" /qn || fail "msiexec /i of $newer failed"
[ "$(listed)" = "$newer" ] || fail "after the upgrade Settings → Apps lists: $(listed | tr '\n' ' ')"
[ -f "$installed" ] || fail "the upgrade left no dynoscope.exe"
timeout 300 "$wine" msiexec /x "$work/newer.msi" /qn || fail "msiexec /x failed"
[ ! -e "$installed" ] || fail "uninstalling left $installed"
! find "$c/users" -name 'dynoscope.lnk' | grep -q . || fail "uninstalling left the shortcut"
[ -z "$(listed)" ] || fail "uninstalling left dynoscope in Settings → Apps: $(listed)"
say "msi: installed ($package_version listed once), ran, upgraded in place to $newer, uninstalled clean"

# The first window, under Xvfb.
started=$(date +%s%N)
"$wine" "$exe_win" --sandbox >"$work/window.log" 2>&1 &
app=$!
window="$(timeout 120 xdotool search --sync --onlyvisible --name '^dynoscope' | head -1)" \
  || fail "no window mapped: $(cat "$work/window.log")"
say "first window mapped in $(( ($(date +%s%N) - started) / 1000000 )) ms under Wine"
sleep 5
import -window root "$out/windows-first-window.png"
colours="$(convert "$out/windows-first-window.png" -format '%k' info:)"
[ "$colours" -gt 50 ] || fail "the window's screen has $colours colours: nothing drawn?"
xdotool windowclose "$window" || true
kill "$app" 2>/dev/null || true
say "window: $out/windows-first-window.png ($colours colours)"
find "$c/users" -path '*dynoscope*' -type f | sed 's|^|scripts/check-windows.sh: kept: |' >&2
say "all checked under $("$wine" --version)"
