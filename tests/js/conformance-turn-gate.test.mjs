// The Framework turn-gate parity through the BUILT package: every recorded case of
// tests/fixtures/conformance/turn-gate/cases.jsonl is decoded into real JS values (undefined,
// NaN, functions), passed to dist/index.cjs, and the answer re-encoded and compared.
// The 3 `legacy-session-name` variant cases are skipped. Needs `make dist` first. The native
// twin is tests/conformance_turn_gate.rs.
import { test } from "node:test";
import { loadCases, checkAll } from "./frames-conformance-lib.mjs";

test("every turn-gate case matches upstream through dist/index.cjs", () => {
  // The older emitter revision (session-name events) is deliberately not reproduced.
  const cases = loadCases("turn-gate").filter((c) => c.variant !== "legacy-session-name");
  checkAll(cases, 170);
});
