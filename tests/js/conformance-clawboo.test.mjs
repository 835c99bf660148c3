// @clawboo/protocol parity through the BUILT package: every recorded case of
// tests/fixtures/conformance/clawboo/cases.jsonl is decoded into real JS values (undefined,
// NaN, functions), passed to dist/index.cjs, and the answer re-encoded and compared.
// Needs `make dist` first. The native twin is tests/conformance_clawboo.rs.
import { test } from "node:test";
import { loadCases, checkAll } from "./frames-conformance-lib.mjs";

test("every clawboo case matches upstream through dist/index.cjs", () => {
  checkAll(loadCases("clawboo"), 745);
});
