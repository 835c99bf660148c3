// Types of agentlines/testing (dist/testing.mjs): the host-shaped loader for tests.
import type { TranscriptEntry, StdoutParser, RuntimeFormat } from "./index";

/** What a loaded ui-parser file exports. */
export interface UiParserModule {
  parseStdoutLine(line: string, ts: string): TranscriptEntry[];
  createStdoutParser?(options?: { format?: RuntimeFormat }): StdoutParser;
}
/** Where the host would refuse the file. */
export declare class HostLoadError extends Error {
  readonly stage: "package" | "scanner" | "evaluate" | "exports";
}
export declare const HOST_DISABLED_GLOBALS: readonly string[];
export declare function codeOnly(src: string): string;
export declare function scanForHost(src: string): { rule: string; line: number }[];
export declare function loadUiParser(source: string, options?: { scan?: boolean }): UiParserModule;
export declare function loadUiParserFile(file: string, options?: { scan?: boolean }): UiParserModule;
export declare function loadAdapterUiParser(adapterDir: string): { file: string; module: UiParserModule };
export interface HostParseOptions {
  /** One ts for every line, or one per line (default 2026-01-01T00:00:00.000Z). */
  ts?: string | readonly string[];
  /** Use a createStdoutParser() session when the file has one (default true). */
  stateful?: boolean;
}
export declare function parseWithHost(mod: UiParserModule, lines: readonly string[], options?: HostParseOptions): TranscriptEntry[];
/** The subset of a playwright-core Page this module uses. */
export interface PageLike {
  evaluate<R, A>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
}
export interface PageParser {
  readonly stateful: boolean;
  parse(lines: readonly string[], options?: HostParseOptions): Promise<TranscriptEntry[]>;
  close(): Promise<void>;
}
export declare function loadUiParserInPage(page: PageLike, source: string): Promise<PageParser>;
