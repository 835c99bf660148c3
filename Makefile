# agentlines: `make demo` builds and prints a real transcript; `make test` runs every test.
# Both install what they need (scripts/setup.sh skips what is already there).

WASM_TARGET := wasm32-unknown-unknown
WASM_RAW    := target/$(WASM_TARGET)/wasm/agentlines.wasm
WASM_OUT    := target/pkg-wasm
# One runtime per file in dist/<runtime>/ (cargo features); `base` reads no runtime (the file
# for a hook-only adapter, docs/extend.md).
RUNTIMES    := claude codex gemini opencode cursor pi openclaw amp acp grok kimi cursor_cloud hermes cline letta openhands openrouter agy copilot droid goose kiro amplifier claw base
# rustc's default wasm features, which binaryen 108 must be told about, and simd128
# (.cargo/config.toml; the string scans, src/json/scan.rs). -O2 without inlining
# functions into their only caller (-ocimfs 0): 6-8% smaller files than -O1 (ui-parser.stateless.js
# 118.7 -> 111.1 KB gzip), the same speed per line and on a fresh process's first pass.
# Plain -O2 is 0.9 KB bigger and its larger functions slowed V8's second pass over a log by up to
# 1.6x; -Oz made the first pass 2-2.7x slower (docs/bench.md, Decisions).
WASM_OPT_FLAGS := -O2 -ocimfs 0 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
                  --enable-mutable-globals --enable-simd --strip-debug --strip-producers
# The npm entries' full wasm (no size budget; the viewer's batch path waits on it): built for
# speed, opt-level 3 and -O3: 1.3x faster than the host files' settings on a 100 MB log, 1.4x
# bigger (docs/viewer.md, Big logs).
WASM_OPT_FAST_FLAGS := -O3 $(filter-out -O2 -ocimfs 0,$(WASM_OPT_FLAGS))
WASM_TEST_ENV := CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
DEMO_LOG ?= tests/fixtures/claude/stream-hivemind-background-disabled.jsonl

.PHONY: all setup setup-browser setup-analytics dist check demo serve test test-native test-js test-oracle test-wasm test-browser test-fuzz test-streamed test-analytics duckdb python bench bench-host host-e2e fuzz prices clean

all: dist

setup:
	@scripts/setup.sh

setup-browser:
	@scripts/setup.sh --browser

setup-analytics:
	@scripts/setup.sh --analytics

# The npm package: wasm builds -> wasm-opt -> dist/ and pkg/, then checked.
# host.wasm: every runtime and the turn-signal notices, no readers (the files the host loads);
# host-stateless.wasm / <runtime>-stateless.wasm: the same without the stateful and batch
# exports (feature stateless-only), for the ui-parser.stateless.js files;
# full.wasm: everything, built for speed (the adapter-author entry); <runtime>.wasm: one runtime each.
# Rebuilt only when an input changed (target/dist.stamp), so `make serve`, `make demo` and
# the benchmarks start at once on an unchanged tree; a missing dist/ rebuilds too.
DIST_INPUTS := $(shell find src pkg-template tests/fixtures -type f 2>/dev/null) \
               $(shell find www -type f -not -name samples.json -not -name parsers.json 2>/dev/null) \
               docs/extend.md docs/entries.md docs/host.md docs/stateless.md \
               Cargo.toml Cargo.lock .cargo/config.toml package-lock.json scripts/assemble.mjs scripts/wasm-chars.mjs scripts/wasm-split.mjs scripts/check-package.mjs Makefile
DIST_STAMP  := target/dist.stamp

dist: setup
	@[ -f dist/ui-parser.js ] && [ -f pkg/package.json ] || rm -f $(DIST_STAMP)
	@$(MAKE) --no-print-directory $(DIST_STAMP)

$(DIST_STAMP): $(DIST_INPUTS)
	@mkdir -p $(WASM_OUT)
	cargo build -p agentlines --lib --target $(WASM_TARGET) --profile wasm --no-default-features --features runtimes,turn-signals,host-stateful
	wasm-opt $(WASM_OPT_FLAGS) $(WASM_RAW) -o $(WASM_OUT)/host.wasm
	cargo build -p agentlines --lib --target $(WASM_TARGET) --profile wasm --no-default-features --features runtimes,turn-signals,stateless-only
	wasm-opt $(WASM_OPT_FLAGS) $(WASM_RAW) -o $(WASM_OUT)/host-stateless.wasm
	cargo build -p agentlines --lib --target $(WASM_TARGET) --profile wasm-fast
	wasm-opt $(WASM_OPT_FAST_FLAGS) target/$(WASM_TARGET)/wasm-fast/agentlines.wasm -o $(WASM_OUT)/full.wasm
	@for r in $(RUNTIMES); do \
	  cargo build -p agentlines --lib --target $(WASM_TARGET) --profile wasm --no-default-features --features $$r,turn-signals,host-stateful || exit 1; \
	  wasm-opt $(WASM_OPT_FLAGS) $(WASM_RAW) -o $(WASM_OUT)/$$r.wasm || exit 1; \
	  cargo build -p agentlines --lib --target $(WASM_TARGET) --profile wasm --no-default-features --features $$r,turn-signals,stateless-only || exit 1; \
	  wasm-opt $(WASM_OPT_FLAGS) $(WASM_RAW) -o $(WASM_OUT)/$$r-stateless.wasm || exit 1; \
	done
	@# A string slice (s[a..b] on a str) brings core's char-boundary panic message (and 4.3-4.6 KB gzip of Debug
	@# code) into a file; the host's wasm slices strings with text::cut instead.
	@if grep -l "is not a char boundary" $(WASM_OUT)/*.wasm | grep -v '/full\.wasm$$'; then \
	  echo "error: a string slice in the host's wasm (above) links core's panic message: use text::cut (src/lib.rs)"; exit 1; fi
	node scripts/assemble.mjs --host $(WASM_OUT)/host.wasm --host-stateless $(WASM_OUT)/host-stateless.wasm \
	  --full $(WASM_OUT)/full.wasm \
	  $(foreach r,$(RUNTIMES),--runtime $(r)=$(WASM_OUT)/$(r).wasm --runtime-stateless $(r)=$(WASM_OUT)/$(r)-stateless.wasm)
	node scripts/check-package.mjs
	@touch $@

check:
	node scripts/check-package.mjs

# Parse a bundled real Claude log with the built dist/ui-parser.js (loaded the host's way)
# and print the transcript. DEMO_LOG=<file> picks another log.
demo: dist
	node scripts/demo.mjs $(DEMO_LOG)

# The run viewer (www/) on a local static server with a strict CSP.
serve: dist
	node www/serve.mjs

test: setup-browser test-native dist test-js test-oracle test-wasm test-browser test-fuzz test-analytics
	@echo "all test suites passed"

# The library and the command (cli/: a workspace member) with every target, the crate
# root's doc example, and the docs with warnings as errors.
test-native:
	cargo test --all-targets
	cargo test -q --profile ext --test hostile every_runtime
	cargo test --doc -p agentlines
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps

test-js:
	node --test tests/js/

test-wasm:
	scripts/gen-wasm-goldens.sh > tests/wasm_goldens.in
	$(WASM_TEST_ENV) cargo test -p agentlines --target $(WASM_TARGET) --no-default-features --features bindgen,runtimes,turn-signals --test wasm
	WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER=$$(command -v chromedriver) $(WASM_TEST_ENV) \
	  cargo test -p agentlines --target $(WASM_TARGET) --no-default-features --features bindgen,runtimes,turn-signals --test wasm

test-browser:
	node --test tests/browser/

# agentlines stats against ccusage 20.0.24 (npm, bundled prices, offline) on the corpus's Claude
# Code session files and Codex rollouts: the same tokens, the same cost within 1%
# (tests/oracle/ccusage.test.mjs; docs/costs.md).
CCUSAGE_VERSION := 20.0.24
test-oracle:
	@[ -x target/oracle/node_modules/.bin/ccusage ] && target/oracle/node_modules/.bin/ccusage --version | grep -qx 'ccusage $(CCUSAGE_VERSION)' || \
	  { mkdir -p target/oracle && npm install --prefix target/oracle --no-audit --no-fund --no-save ccusage@$(CCUSAGE_VERSION); }
	cargo build -p agentlines-cli
	AGENTLINES_BIN=target/debug/agentlines CCUSAGE_BIN=target/oracle/node_modules/.bin/ccusage node --test tests/oracle/

# The analytics bindings (docs/tables.md): the DuckDB extension and the Python wheel, built
# with the `ext` profile (release without LTO, Arrow's kernels that neither runs unoptimised:
# both from scratch in 2.5 min on two cores instead of 4.6; Cargo.toml), then tested against
# the CLI in DuckDB, pyarrow/Polars/pandas and PySpark local mode.
PY         := target/pyenv/bin/python
DUCKDB_EXT := target/duckdb/agentlines.duckdb_extension
duckdb: setup-analytics
	cargo build --profile ext -p agentlines-duckdb
	mkdir -p target/duckdb
	$(PY) scripts/duckdb-footer.py target/ext/libagentlines_duckdb.so $(DUCKDB_EXT) v0.1.0 \
	  $$($(PY) -c "import duckdb; print(duckdb.execute('PRAGMA platform').fetchone()[0])")

python: setup-analytics
	rm -f target/wheels/agentlines-*.whl
	target/pyenv/bin/maturin build --profile ext -m python/Cargo.toml -o target/wheels
	target/pyenv/bin/pip install -q --disable-pip-version-check --force-reinstall --no-deps target/wheels/agentlines-*.whl

test-analytics: duckdb python
	cargo build --release -p agentlines-cli
	cd tests/analytics && ../../$(PY) -m unittest -v test_duckdb test_python test_spark

# The list prices the cost estimates use (src/prices/table.rs), generated again from the pinned
# LiteLLM releases on PyPI (scripts/gen-prices.py says which and why).
prices:
	python3 scripts/gen-prices.py

bench: dist duckdb python
	node bench/run.mjs
	node bench/viewer.mjs
	node bench/stats.mjs
	cargo build --release -q -p agentlines-cli
	$(PY) bench/analytics.py

bench-host: dist
	node bench/host.mjs

# Our built ui-parser in the released Paperclip app (2026.916.1), run for real on 127.0.0.1:
# server, embedded Postgres, headless Chromium; ours vs the built-in Claude parser. Not in
# `test`: the first run downloads Node 24 and paperclipai (~hundreds of MB) into .tools/.
# See docs/host-e2e.md.
host-e2e: dist
	node scripts/host-e2e/main.mjs

# Every runtime's fixture lines streamed through one parser, 1 GiB of new-id rounds each plus
# every shape of line repeated until its state stops growing (tests/hostile.rs,
# docs/robustness.md "Limits"); `make test` streams 64 MiB each.
test-streamed:
	STREAM_BYTES=1073741824 cargo test -q --profile ext --test hostile every_runtime -- --nocapture

# Coverage-guided fuzzing of the core, FUZZ_SECONDS per target (default 60); an hour is
# FUZZ_SECONDS=900 (docs/robustness.md, "Fuzzing").
fuzz:
	scripts/fuzz.sh

# The short run in `test`: the stable mutation loop, 30 s per target, seeded from the
# fixtures and the corpus; any oracle stop fails the test.
test-fuzz:
	FUZZ_MODE=stable FUZZ_SECONDS=$${FUZZ_SECONDS:-30} scripts/fuzz.sh

clean:
	rm -rf dist pkg $(WASM_OUT) tests/wasm_goldens.in
