// Types of the adapter-author entry (dist/index.cjs, dist/index.mjs).

/** One transcript entry, as the Paperclip host's `TranscriptEntry` (see docs/entries.md). */
export type TranscriptEntry =
  | { kind: "assistant"; ts: string; text: string; delta?: boolean; channel?: "progress" | "final" | "unknown"; itemId?: string; parentToolUseId?: string }
  | { kind: "thinking"; ts: string; text: string; delta?: boolean; lifecycle?: "started" | "completed"; channel?: "summary" | "detail" | "unknown"; itemId?: string; parentToolUseId?: string }
  | { kind: "user"; ts: string; text: string; parentToolUseId?: string }
  | { kind: "tool_call"; ts: string; name: string; input: unknown; toolUseId?: string; parentToolUseId?: string }
  | { kind: "tool_result"; ts: string; toolUseId: string; toolName?: string; content: string; isError: boolean; delta?: boolean; durationMs?: number; parentToolUseId?: string }
  | { kind: "init"; ts: string; model: string; sessionId: string }
  | { kind: "result"; ts: string; text: string; inputTokens: number; outputTokens: number; cachedTokens: number; costUsd: number; subtype: string; isError: boolean; errors: string[] }
  | { kind: "stderr"; ts: string; text: string }
  | { kind: "system"; ts: string; text: string }
  | { kind: "stdout"; ts: string; text: string }
  | { kind: "diff"; ts: string; changeType: "add" | "remove" | "context" | "hunk" | "file_header" | "truncation"; text: string };

/** Runtime names accepted by `createStdoutParser({ format })`. Anything else autodetects. */
export type RuntimeFormat = "claude" | "codex" | "gemini" | "opencode" | "cursor" | "pi" | "openclaw" | "amp" | "acp" | "grok" | "kimi" | "cursor_cloud" | "hermes" | "hermes_gateway" | "plain";

export interface StdoutParser {
  parseLine(line: string, ts: string): TranscriptEntry[];
  reset(): void;
  /** Raw text that may end mid-line (LF or CRLF). */
  parseChunk(chunk: string, ts: string): TranscriptEntry[];
  /** The text after the last newline, at the end of a stream. */
  flush(ts: string): TranscriptEntry[];
  /** Frees the parser's state inside the wasm instance. */
  dispose(): void;
}

export declare function parseStdoutLine(line: string, ts: string): TranscriptEntry[];
export declare function createStdoutParser(options?: { format?: RuntimeFormat | string }): StdoutParser;
