// Our .d.ts (dist/, as built) against @paperclipai/adapter-utils 2026.916.1's, the pinned host
// types. `tsc --strict` fails if an assignment below stops compiling or an @ts-expect-error
// line stops being an error. skipLibCheck only silences errors inside the host's .d.ts files
// (they import node types we do not install); the "not any" lines prove its types are real.
import type { TranscriptEntry as HostEntry, StdoutLineParser as HostLineParser } from "@paperclipai/adapter-utils";
import type { TranscriptEntry, StdoutLineParser, RuntimeFormat, StdoutParser } from "../../dist/index.js";
import { parseStdoutLine, createStdoutParser, parseLog, parseLines, call } from "../../dist/index.js";
import * as stateless from "../../dist/ui-parser.stateless.js";
import * as stateful from "../../dist/ui-parser.js";
import * as claudeOnly from "../../dist/claude/ui-parser.stateless.js";
import * as codexStateful from "../../dist/codex/ui-parser.js";

declare const ours: TranscriptEntry;
declare const host: HostEntry;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

// Both ways: what we emit the host takes, and a viewer typed with ours takes the host's entries.
export const oursToHost: HostEntry = ours;
export const hostToOurs: TranscriptEntry = host;
export const sameKinds: Same<TranscriptEntry["kind"], HostEntry["kind"]> = true;
// Kind by kind (a field type that drifted would fail here even if the unions still overlap).
type Kind<U, K> = Extract<U, { kind: K }>;
export const perKind: { [K in HostEntry["kind"]]: [Kind<HostEntry, K>] extends [Kind<TranscriptEntry, K>] ? ([Kind<TranscriptEntry, K>] extends [Kind<HostEntry, K>] ? true : false) : false } = {
  assistant: true, thinking: true, user: true, tool_call: true, tool_result: true, init: true, result: true,
  stderr: true, system: true, stdout: true, diff: true, provider_activity: true, workspace_change: true,
  workspace_file_reference: true, runtime_request: true, run_result: true, run_terminal: true,
};
export const toolCall: Kind<TranscriptEntry, "tool_call"> = {
  kind: "tool_call", ts: "t", name: "Bash", input: {}, invocationId: "inv-1", actionRequestId: "req-1",
};

// The parsers are the host's StdoutLineParser, and ours is the same type.
export const p1: HostLineParser = parseStdoutLine;
export const p2: HostLineParser = stateless.parseStdoutLine;
export const p3: HostLineParser = claudeOnly.parseStdoutLine;
export const p4: StdoutLineParser = ((line: string, ts: string) => [] as HostEntry[]);
export const sameParser: Same<StdoutLineParser, HostLineParser> = true;

// format: a union (autocomplete), so a typo is an error instead of a silent autodetect.
export const a: StdoutParser = createStdoutParser({ format: "claude" });
export const b: StdoutParser = stateful.createStdoutParser({ format: "codex_local" });
export const c: StdoutParser = codexStateful.createStdoutParser();
export const fmt: RuntimeFormat = "hermes_gateway";
// @ts-expect-error "cladue" is not a runtime name
createStdoutParser({ format: "cladue" });
// @ts-expect-error the stateless files have no createStdoutParser
stateless.createStdoutParser();
// @ts-expect-error per-runtime stateless files neither
claudeOnly.createStdoutParser();

// The batch API and call are declared.
export const log: TranscriptEntry[] = parseLog("line\n", "2026-01-01T00:00:00.000Z", { merge: false });
export const lines: HostEntry[] = parseLines(["a", "b"], ["t1", "t2"]);
export const called: unknown = call("isAgentFileName", "AGENTS.md");
// @ts-expect-error parseLines takes lines, not a string
parseLines("a\nb", "t");

// Not `any`: the host's types are read for real.
// @ts-expect-error a kind the host does not have
export const notAny: HostEntry = { kind: "nope", ts: "t" };
// @ts-expect-error and ours neither
export const notAny2: TranscriptEntry = { kind: "nope", ts: "t" };
