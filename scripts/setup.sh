#!/usr/bin/env bash
# Installs what the build and tests need, skipping whatever is already present:
# the wasm32 target, wasm-bindgen-cli pinned to the crate's wasm-bindgen version, binaryen's
# wasm-opt, Node dev dependencies, and (with --browser) Debian's chromium + chromium-driver.
set -euo pipefail
cd "$(dirname "$0")/.."

want_browser=0
[ "${1:-}" = "--browser" ] && want_browser=1
want_analytics=0
[ "${1:-}" = "--analytics" ] && want_analytics=1

say() { printf '[setup] %s\n' "$*" >&2; }

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# The CLI must match the wasm-bindgen crate exactly (the lock file pins it).
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock 2>/dev/null || true)
if [ -n "$wb_version" ]; then
  have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
  if [ "$have" != "$wb_version" ]; then
    say "installing wasm-bindgen-cli $wb_version (a few minutes, once)"
    # --locked fails on this registry (one locked dependency version is missing).
    cargo install wasm-bindgen-cli --version "$wb_version" >&2
  fi
fi

apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then
    say "apt-get update"
    apt-get update -qq >&2
    apt_updated=1
  fi
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}

command -v wasm-opt >/dev/null 2>&1 || apt_install binaryen
if [ "$want_browser" = 1 ]; then
  if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    apt_install chromium chromium-driver
  fi
fi

# npm ci when node_modules is missing or older than the lock file (a pull added a package).
# --omit=optional leaves out the agent CLIs' platform binaries (claude-agent-sdk, codex) that
# the host's adapter packages pull in and the oracle test never runs; --ignore-scripts: no
# dependency needs its install script to parse (docs/parity.md, "Installing the oracles").
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci (dev dependencies)"
  npm ci --no-audit --no-fund --omit=optional --ignore-scripts >&2
fi

# --analytics: a Python environment in target/pyenv with the pinned packages of
# tests/analytics/requirements.txt (installed again when that file changes), and Java for
# Spark (Debian's newest, 17, when none is there).
if [ "$want_analytics" = 1 ]; then
  if [ ! -x target/pyenv/bin/python ]; then
    say "python venv target/pyenv"
    python3 -m venv target/pyenv
  fi
  if ! cmp -s tests/analytics/requirements.txt target/pyenv/requirements.installed; then
    say "pip install -r tests/analytics/requirements.txt (DuckDB, pyarrow, PySpark…; a minute, once)"
    target/pyenv/bin/pip install -q --disable-pip-version-check -r tests/analytics/requirements.txt >&2
    cp tests/analytics/requirements.txt target/pyenv/requirements.installed
  fi
  command -v java >/dev/null 2>&1 || apt_install openjdk-17-jre-headless
fi
