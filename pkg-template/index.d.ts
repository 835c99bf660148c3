// Types of the adapter-author entry (dist/index.cjs, dist/index.mjs).

/**
 * One transcript entry, as the Paperclip host's `TranscriptEntry` (@paperclipai/adapter-utils
 * 2026.916.1; see docs/entries.md). agentlines makes the first eleven kinds and adds optional
 * fields the host ignores (`parentToolUseId`, `durationMs`); the host's other six kinds come
 * out only from a line that already is one (passed through, checked). tests/types/ checks
 * both directions.
 */
export type TranscriptEntry =
  | { kind: "assistant"; ts: string; text: string; delta?: boolean; channel?: "progress" | "final" | "unknown"; itemId?: string; parentToolUseId?: string }
  | { kind: "thinking"; ts: string; text: string; delta?: boolean; lifecycle?: "started" | "completed"; channel?: "summary" | "detail" | "unknown"; itemId?: string; parentToolUseId?: string }
  | { kind: "user"; ts: string; text: string; parentToolUseId?: string }
  | { kind: "tool_call"; ts: string; name: string; input: unknown; toolUseId?: string; invocationId?: string; actionRequestId?: string; parentToolUseId?: string }
  | { kind: "tool_result"; ts: string; toolUseId: string; toolName?: string; content: string; isError: boolean; delta?: boolean; durationMs?: number; parentToolUseId?: string }
  | { kind: "init"; ts: string; model: string; sessionId: string }
  | { kind: "result"; ts: string; text: string; inputTokens: number; outputTokens: number; cachedTokens: number; cacheCreationTokens?: number; cacheCreation1hTokens?: number; reasoningTokens?: number; model?: string; callId?: string; costUsd: number; subtype: string; isError: boolean; errors: string[] }
  | { kind: "stderr"; ts: string; text: string }
  | { kind: "system"; ts: string; text: string }
  | { kind: "stdout"; ts: string; text: string }
  | { kind: "diff"; ts: string; changeType: "add" | "remove" | "context" | "hunk" | "file_header" | "truncation"; text: string }
  | HostOnlyEntry;

/** The host's kinds agentlines does not make (written by the host's own server-side code);
 * passed through from a line that already is one. */
export type HostOnlyEntry =
  | { kind: "provider_activity"; ts: string; family: ProviderActivityFamily; eventType: string; status: "running" | "completed" | "failed" | "interrupted" | "informational"; title: string; summary: string; payload: Record<string, unknown> }
  | { kind: "workspace_change"; ts: string; changeSetId: string; revision: number; source: "harness_reported" | "runner_verified"; complete: boolean; files: WorkspaceChangeFile[]; totals: { files: number; additions: number | null; deletions: number | null }; patchArtifactRef: string | null }
  | { kind: "workspace_file_reference"; ts: string; referenceId: string; source: "harness_reported" | "runner_verified"; path: string; displayName: string; mediaType: string | null; presentation: "document" | "code" | "image" | "generic"; line: number | null; preview: string | null; previewTruncated: boolean; contentDigest: string | null }
  | { kind: "runtime_request"; ts: string; requestId: string; requestKind: "runtime" | "command_approval" | "file_approval" | "permission_approval" | "user_input" | "elicitation" | null; turnId: string | null; requestType: "permission" | "input"; status: "pending" | "resolved" | "expired" | "cancelled"; prompt: string; choices: { key: string; label: string }[]; fields: { name: string; label: string; placeholder: string | null }[]; questionSet?: QuestionSet | null; resolvedAction?: string | null; response?: QuestionResponse | null }
  | { kind: "run_result"; ts: string; disposition: RunDisposition; summary: string; objectiveSatisfied: boolean | null; verification: { commandOrCheck: string; status: "passed" | "failed" | "not_run"; detail?: string; artifactRef?: string }[]; remainingWork: { description: string; blocksCompletion: boolean }[]; blocker: { reasonCode: string; unblockAction: string; scope: "current_track" | "task_wide" } | null; artifacts: { kind: string; ref: string; title?: string }[]; acceptedResponseWake?: { runId: string; sourceEventId: string } }
  | { kind: "run_terminal"; ts: string; turnState: "completed" | "failed" | "interrupted" | "cancelled"; runState: "succeeded" | "failed" | "cancelled"; disposition: RunDisposition; stopReason?: string };

export type ProviderActivityFamily = "plan" | "tool_execution" | "research" | "delegation" | "model_identity" | "context" | "artifact" | "review" | "hook" | "memory" | "safety" | "terminal" | "wait" | "provider_notice";
export type RunDisposition = "done" | "blocked" | "needs_review" | "yielded";
export interface WorkspaceChangeFile { path: string; operation: "create" | "modify" | "delete" | "rename" | "mode_change"; previousPath: string | null; additions: number | null; deletions: number | null; binary: boolean; diff: string | null }
export interface QuestionSet {
  schema: "paperclip.question_set.v1"; title?: string; description?: string; submitLabel?: string;
  questions: {
    id: string; header?: string; prompt: string; helpText?: string; required: boolean;
    answerMode: "single_select" | "multi_select" | "text";
    options?: { id: string; label: string; description?: string; recommended?: boolean }[];
    customAnswer?: { enabled: true; label?: string; placeholder?: string };
    textValidation?: { minLength?: number; maxLength?: number; pattern?: string; inputType?: "text" | "number" | "integer"; minimum?: number; maximum?: number };
  }[];
}
export interface QuestionResponse { schema: "paperclip.question_response.v1"; answers: Record<string, { selectedOptionIds?: string[]; text?: string; customText?: string }> }

/** The host's `StdoutLineParser`: what `parseStdoutLine` is. */
export type StdoutLineParser = (line: string, ts: string) => TranscriptEntry[];

/**
 * Names accepted by `createStdoutParser({ format })` (any case): runtime names and the
 * Paperclip adapter type names (src/formats/mod.rs FORMAT_NAMES). Omit `format` to autodetect.
 */
export type RuntimeFormat =
  | "claude"
  | "claude-code"
  | "claude_local"
  | "claude-local"
  | "qwen"
  | "qwen-code"
  | "codex"
  | "codex-local"
  | "codex_local"
  | "gemini"
  | "gemini-cli"
  | "gemini_local"
  | "gemini-local"
  | "opencode"
  | "opencode-local"
  | "opencode_local"
  | "cursor"
  | "cursor-agent"
  | "cursor_local"
  | "cursor-local"
  | "pi"
  | "pi-local"
  | "pi_local"
  | "openclaw"
  | "openclaw-gateway"
  | "openclaw_gateway"
  | "amp"
  | "acp"
  | "acpx"
  | "agent-client-protocol"
  | "acpx_local"
  | "acpx-local"
  | "agy"
  | "antigravity"
  | "antigravity_local"
  | "agy_local"
  | "copilot"
  | "copilot-cli"
  | "copilot_local"
  | "copilot-local"
  | "github-copilot"
  | "amplifier"
  | "amplifier_local"
  | "amplifier-local"
  | "claw"
  | "claw-code"
  | "claw_local"
  | "claw-local"
  | "droid"
  | "factory-droid"
  | "droid_local"
  | "droid-local"
  | "goose"
  | "goose_local"
  | "goose-local"
  | "kiro"
  | "kiro-cli"
  | "kiro_cli"
  | "kiro_local"
  | "kiro-local"
  | "grok"
  | "grok-local"
  | "grok_local"
  | "kimi"
  | "kimi-local"
  | "kimi_local"
  | "cursor-cloud"
  | "cursor_cloud"
  | "hermes"
  | "hermes-local"
  | "hermes_local"
  | "hermes-gateway"
  | "hermes_gateway"
  | "openrouter"
  | "openrouter_local"
  | "openrouter-local"
  | "qwen_openrouter"
  | "qwen-openrouter"
  | "letta"
  | "letta-code"
  | "letta_code"
  | "letta-local"
  | "letta_local"
  | "cline"
  | "cline-cli"
  | "cline_local"
  | "cline-local"
  | "openhands"
  | "openhands-cli"
  | "openhands_local"
  | "openhands-local"
  | "omp"
  | "oh-my-pi"
  | "omp_local"
  | "omp-local"
  | "kilo"
  | "kilocode"
  | "kilo-local"
  | "kilo_local"
  | "plain"
  | "text";

export interface StdoutParser {
  parseLine(line: string, ts: string): TranscriptEntry[];
  reset(): void;
  /** Raw text that may end mid-line (LF or CRLF). */
  parseChunk(chunk: string, ts: string): TranscriptEntry[];
  /** The text after the last newline, at the end of a stream. */
  flush(ts: string): TranscriptEntry[];
  /** Frees the parser's state inside the wasm instance now; a parser dropped without it is
   * freed when garbage-collected. In the host's ui-parser files the parser stays usable (it
   * starts over); the npm entries' parsers throw after it ({@link StdoutParserWithBatch}). */
  dispose(): void;
}

// `Symbol.dispose` for projects whose `lib` predates it (TypeScript's own
// `esnext.disposable` declares the same), so `using p = createStdoutParser()` type-checks.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** The npm entries' stateful parser (the host's ui-parser files have no `parseBatch`). */
export interface StdoutParserWithBatch extends StdoutParser {
  /** Whole lines at once through this parser: what `parseLine` gives for each, with the line
   * each entry came from (see {@link parseBatch}). */
  parseBatch(text: string | Uint8Array, ts?: string | readonly string[], options?: ParseBatchOptions & { json?: false }): ParsedBatch;
  parseBatch(text: string | Uint8Array, ts: string | readonly string[] | undefined, options: ParseBatchOptions & { json: true }): string;
  /** The runtime the stream was detected (or forced) as (`"claude"`, `"codex"`…), once a line
   * was unmistakable; `undefined` before. {@link summarizeUsage} takes it to read the results'
   * token counts. */
  readonly runtime: string | undefined;
  /** Frees the parser's state now; afterwards every method throws an Error saying the parser
   * was disposed (create a new one). A second call does nothing. */
  dispose(): void;
  /** The same as `dispose()`: `using p = createStdoutParser()` disposes `p` at the end of
   * its block. */
  [Symbol.dispose](): void;
}

/** What an {@link AgentlinesWasmError} is about: the wasm cannot be compiled or instantiated
 * here (`AGENTLINES_NO_WASM`: a page's CSP without `'wasm-unsafe-eval'`, no WebAssembly);
 * `agentlines/web` called before `await init()` (`AGENTLINES_NOT_INITIALIZED`); `init()`
 * could not load the wasm or it is not agentlines' (`AGENTLINES_WASM_LOAD`). */
export type AgentlinesWasmErrorCode = "AGENTLINES_NO_WASM" | "AGENTLINES_NOT_INITIALIZED" | "AGENTLINES_WASM_LOAD";
/** The error the npm entries throw (and `init()` rejects with) when the wasm is not there;
 * the message says what to do. Wrong arguments are `TypeError`s instead. */
export declare class AgentlinesWasmError extends Error {
  readonly name: "AgentlinesWasmError";
  readonly code: AgentlinesWasmErrorCode;
  /** The error underneath (the browser's `CompileError`, fetch's error). */
  readonly cause?: unknown;
}

export interface ParseBatchOptions {
  /** A line that is a JSON record with its own RFC 3339 top-level `timestamp` gets that time
   * instead of the one given (default false). */
  recordTs?: boolean;
  /** Answer the JSON text of the {@link ParsedBatch} instead of objects: one string to post
   * to another thread, instead of a structured clone of every entry (default false). */
  json?: boolean;
  /** The text ends the stream: a stateful parser is then flushed after its last line (what
   * it still holds, e.g. a Kiro call's output whose completion never came, is given as that
   * line's entries), as `flush` does (default false). */
  end?: boolean;
}
/** The entries of a batch and, for each, the 0-based index of the line it came from. */
export interface ParsedBatch {
  /** How many lines the text held. */
  count: number;
  lines: number[];
  entries: TranscriptEntry[];
}

/** Throws a TypeError when `line` or `ts` is not a string, `ts` left out included (the host's
 * ui-parser files never throw: there a line they cannot use is a `stdout` entry). */
export declare function parseStdoutLine(line: string, ts: string): TranscriptEntry[];
/** A stateful parser. In this entry, wrong argument types throw a TypeError (a `format` that
 * is no runtime's name included: it is not autodetected), a call after `dispose()` throws,
 * and the parser also has `[Symbol.dispose]` (so `using` disposes it). */
export declare function createStdoutParser(options?: { format?: RuntimeFormat }): StdoutParserWithBatch;
export interface InitOptions {
  /** Where the wasm comes from: a URL (fetched), a `Response`, its bytes, or a compiled
   * `WebAssembly.Module`. Default: the inlined wasm, or `agentlines.wasm` beside
   * `agentlines/web`. */
  wasm?: string | URL | Response | ArrayBuffer | ArrayBufferView | WebAssembly.Module;
}
/** Compiles the wasm asynchronously before the first call (required for `agentlines/web`,
 * optional elsewhere: without it the first call compiles synchronously). Resolves once
 * compiled; later calls resolve at once. */
export declare function init(options?: InitOptions): Promise<void>;
/** Consecutive `delta: true` entries of the same kind merged into one, as the host's
 * transcript view merges them (text appended; the first entry's `ts` and fields kept). The
 * input is not changed. For live views fed line by line. An item that is not an entry
 * object throws a TypeError. */
export declare function mergeDeltas(entries: readonly TranscriptEntry[]): TranscriptEntry[];

export interface ParseLogOptions {
  /** Merge consecutive deltas as the host does (default true). */
  merge?: boolean;
}
/** A whole log at once: one autodetecting stateful parser, every line stamped `ts`. */
export declare function parseLog(text: string, ts: string, options?: ParseLogOptions): TranscriptEntry[];
/** Lines (no embedded newlines) with one `ts` for all, or one per line. */
export declare function parseLines(lines: readonly string[], ts: string | readonly string[], options?: ParseLogOptions): TranscriptEntry[];
/** Whole lines at once, for viewers of big logs read in slices: `text` is complete lines
 * joined by `"\n"` (a final newline is optional), as a string or as UTF-8 bytes (a slice of
 * a file read as bytes goes into the wasm as it is), `ts` one time for all of them or one per
 * line. Each line is read alone, exactly as {@link parseStdoutLine} reads it (a stateful
 * parser's `parseBatch` carries its state across batches), in one crossing into the wasm.
 * An array `ts` with fewer times than lines throws a TypeError. */
export declare function parseBatch(text: string | Uint8Array, ts?: string | readonly string[], options?: ParseBatchOptions & { json?: false }): ParsedBatch;
export declare function parseBatch(text: string | Uint8Array, ts: string | readonly string[] | undefined, options: ParseBatchOptions & { json: true }): string;
/** Calls a core function by name (src/api.rs); throws the core's error message. */
export declare function call(name: string, ...args: unknown[]): unknown;
