#!/usr/bin/env bash
# Fuzzes every public entry point of the core for FUZZ_SECONDS each (default 60), one target
# after another: parse_line, stateful, chunks, api_call (see fuzz/src/lib.rs for what each
# checks). `make test` runs it for 30 s a target (`make test-fuzz`).
#
# - nightly + cargo-fuzz present (cargo-fuzz is installed from crates.io if only it is
#   missing): libFuzzer with AddressSanitizer, coverage-guided; the growing corpus is kept
#   in fuzz/corpus/<target>/ between runs.
# - otherwise: the stable-Rust mutation loop (fuzz/src/bin/mutate.rs) over the same bodies.
# Seeds and a JSON dictionary are regenerated from tests/fixtures (and the shared corpus
# when present) into fuzz/seeds/. A crash is saved under fuzz/artifacts/<target>/ and the
# script exits non-zero. FUZZ_TARGETS="parse_line chunks" picks targets; FUZZ_MODE=stable
# forces the fallback. A summary (execs, time, crashes) goes to fuzz/last-run.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${FUZZ_SECONDS:-60}
targets=${FUZZ_TARGETS:-"parse_line stateful chunks api_call"}
mode=${FUZZ_MODE:-}
say() { printf '[fuzz] %s\n' "$*" >&2; }

cargo build -q --release --manifest-path fuzz/Cargo.toml --no-default-features --bin seeds --bin mutate
rm -rf fuzz/seeds
fuzz/target/release/seeds fuzz/seeds

if [ -z "$mode" ]; then
  mode=stable
  if cargo +nightly --version >/dev/null 2>&1; then
    if ! cargo fuzz --version >/dev/null 2>&1; then
      say "installing cargo-fuzz from crates.io (a few minutes, once)"
      cargo install cargo-fuzz >&2 || true
    fi
    cargo fuzz --version >/dev/null 2>&1 && mode=libfuzzer
  fi
fi
say "mode: $mode, $secs s per target"

summary=fuzz/last-run.txt
: > "$summary"
status=0
for t in $targets; do
  if [ "$mode" = libfuzzer ]; then
    mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
    log="fuzz/target/$t.log"
    set +e
    (cd fuzz && cargo +nightly fuzz run -O "$t" "corpus/$t" "seeds/$t" -- \
      -max_total_time="$secs" -dict=seeds/json.dict -rss_limit_mb=2048 -timeout=20 \
      -print_final_stats=1) > "$log" 2>&1
    rc=$?
    set -e
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 || true)
    line="$t: libfuzzer, $execs execs in $secs s, $cov, corpus $(ls "fuzz/corpus/$t" | wc -l) files, exit $rc"
    if [ "$rc" != 0 ]; then
      status=1
      grep -E 'panicked|SUMMARY|Test unit written' "$log" | head -5 >&2 || true
    fi
  else
    set +e
    line=$(fuzz/target/release/mutate "$t" "$secs" fuzz/seeds)
    rc=$?
    set -e
    [ "$rc" != 0 ] && status=1
  fi
  say "$line"
  echo "$line" >> "$summary"
done
exit $status
