#!/usr/bin/env bash
# Prints a Rust `vec![...]` of (input, expected) pairs for tests/wasm.rs: every golden
# fixture under 64 KB, compiled into the wasm test so it checks the same expectations.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "vec!["
for f in tests/fixtures/*/*; do
  case "$f" in *.expected.*|*.md|*/conformance/*) continue ;; esac
  case "$f" in *.jsonl|*.ndjson|*.txt|*.log) ;; *) continue ;; esac
  stem="${f%.*}"
  exp="$stem.expected.jsonl"
  [ -f "$exp" ] || continue
  [ "$(wc -c < "$f")" -lt 65536 ] || continue
  # Skip fixtures with blank lines: the wasm test drops empty lines before replay.
  grep -q '^$' "$f" && continue
  printf '    (include_str!("../%s"), include_str!("../%s")),\n' "$f" "$exp"
done
echo "]"
