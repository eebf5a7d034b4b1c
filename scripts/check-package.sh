#!/usr/bin/env bash
# The release packages checked as a user meets them, on a Debian machine, as root (CI runs it
# after scripts/package.sh):
#
#   scripts/check-package.sh target/package/dynoscope_*.deb target/package/dynoscope-*.tar.gz
#
# The .deb is installed with apt-get (which pulls its Depends), the installed binary says its
# version and checks the sandbox's tallies, and the installed app opens its window under Xvfb:
# the screen is taken (target/package/first-window.png) and its size and colours checked. Every
# library the running app loaded must come from a package its Depends pull in, or from one a bare
# Debian has (Priority required): a library missing from Depends fails here, by name. The
# tarball is installed under a prefix of its own and its binary run.
set -euo pipefail
say() { printf 'scripts/check-package.sh: %s\n' "$*" >&2; }
fail() { say "$*"; exit 1; }
[ $# -eq 2 ] || { say "give the .deb and the tarball"; exit 2; }
deb="$(realpath "$1")"
tarball="$(realpath "$2")"
cd "$(dirname "$0")/.."
out="$(dirname "$deb")"
export DEBIAN_FRONTEND=noninteractive

# What the window check needs, none of it the package's.
need=()
for tool in Xvfb:xvfb import:imagemagick xdotool:xdotool; do
  command -v "${tool%%:*}" >/dev/null 2>&1 || need+=("${tool#*:}")
done
apt-get update -qq
if [ "${#need[@]}" -gt 0 ]; then
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

apt-get install -y -qq --no-install-recommends "$deb" >/dev/null
[ "$(command -v dynoscope)" = /usr/bin/dynoscope ] || fail "dynoscope is not /usr/bin/dynoscope"
say "installed: $(dynoscope --version)"
home="$(mktemp -d)"
status=0
HOME="$home" dynoscope --sandbox check --table Social --tally likeTally --child-prefix 'LIKE#' \
  --parent-prefix 'POST#' --all >/dev/null || status=$?
# The seeded sandbox holds drifted parents on purpose: the check says so with exit 1.
[ "$status" -eq 1 ] || fail "the installed CLI's check ended $status, not 1"
page="$(MANPAGER=cat man -l /usr/share/man/man1/dynoscope-check.1.gz 2>/dev/null || true)"
[[ "$page" == *--tally* ]] || fail "the installed man page does not render"

# The installed app's first window, under Xvfb.
display=:97
[ ! -e /tmp/.X11-unix/X97 ] || fail "display $display is taken"
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb=$!
# The app starts only once the display listens (at most 20 s).
for _ in $(seq 200); do
  [ -e /tmp/.X11-unix/X97 ] && break
  sleep 0.1
done
[ -e /tmp/.X11-unix/X97 ] || fail "Xvfb did not start: $(cat "$out/xvfb.log")"
libs="$(mktemp -d)"
HOME="$home" DISPLAY="$display" LD_DEBUG=libs LD_DEBUG_OUTPUT="$libs/ld" \
  /usr/bin/dynoscope --sandbox >/dev/null 2>&1 &
app=$!
cleanup() { kill "$app" "$xvfb" 2>/dev/null || true; }
trap cleanup EXIT
DISPLAY="$display" timeout 60 xdotool search --sync --name '^dynoscope' >/dev/null \
  || fail "no dynoscope window within 60 s"
# The window is mapped; its first frames take a moment more. Look until the sandbox's tables
# are drawn (many colours), for at most 30 s.
shot="$out/first-window.png"
for _ in $(seq 30); do
  sleep 1
  DISPLAY="$display" import -window root "$shot"
  colours="$(convert "$shot" -format %k info:)"
  [ "$colours" -gt 50 ] && break
done
size="$(identify -format %wx%h "$shot")"
[ "$size" = 1280x800 ] || fail "the screenshot is $size, not 1280x800"
[ "$colours" -gt 50 ] || fail "the window drew $colours colours: nothing drawn"
say "first window: $shot ($size, $colours colours)"
kill "$app" 2>/dev/null || true
wait "$app" 2>/dev/null || true

# The window destroyed by another program: said in words, exit 3 (a write on its way may have
# applied), never a panic's backtrace.
gone_home="$(mktemp -d)"
HOME="$gone_home" DISPLAY="$display" /usr/bin/dynoscope --sandbox >/dev/null 2>"$out/window-gone.err" &
app=$!
window="$(DISPLAY="$display" timeout 60 xdotool search --sync --name '^dynoscope' | head -1)" \
  || fail "no second dynoscope window within 60 s"
sleep 2
DISPLAY="$display" xdotool windowclose "$window"
status=0
timeout 30 tail --pid="$app" -f /dev/null || fail "the app did not end once its window was destroyed"
wait "$app" || status=$?
[ "$status" -eq 3 ] || fail "a destroyed window ended the app with $status, not 3: $(cat "$out/window-gone.err")"
grep -q "the window was destroyed by another program" "$out/window-gone.err" \
  || fail "a destroyed window was not said in words: $(cat "$out/window-gone.err")"
! grep -q "panicked" "$out/window-gone.err" || fail "a destroyed window printed a panic: $(cat "$out/window-gone.err")"
say "a window destroyed from outside: said in words, exit 3"

# Every library the app loaded, against what its Depends pull in.
allowed="$(mktemp)"
apt-cache depends --recurse --installed --no-recommends --no-suggests --no-conflicts \
  --no-breaks --no-replaces --no-enhances dynoscope | grep -v '^ ' | tr -d '<>' >"$allowed"
dpkg-query -W -f='${Package} ${Priority}\n' | awk '$2 == "required" {print $1}' >>"$allowed"
missing=()
loaded="$(cat "$libs"/ld.* 2>/dev/null | grep -o 'calling init: [^ ]*' | awk '{print $3}' | sort -u || true)"
[ "$(wc -l <<<"$loaded")" -gt 10 ] || fail "the app's loaded libraries were not seen (LD_DEBUG)"
for lib in $loaded; do
  owner="$(dpkg -S "$(realpath "$lib")" 2>/dev/null || dpkg -S "$lib" 2>/dev/null \
    || dpkg -S "/usr$lib" 2>/dev/null || true)"
  package="${owner%%:*}"
  [ -n "$package" ] || { missing+=("$lib (no package)"); continue; }
  grep -qx "$package" "$allowed" || missing+=("$lib ($package)")
done
[ "${#missing[@]}" -eq 0 ] || fail "loaded from packages Depends does not pull in: ${missing[*]}"
say "every library the app loaded comes from its Depends or a required package"

# The tarball, under a prefix of its own.
unpacked="$(mktemp -d)"
tar -xzf "$tarball" -C "$unpacked"
PREFIX="$unpacked/prefix" "$unpacked"/dynoscope-*/install.sh
"$unpacked/prefix/bin/dynoscope" --version
say "the .deb and the tarball install and run"
