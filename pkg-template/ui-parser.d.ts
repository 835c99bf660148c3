// Types of the ui-parser files (the Paperclip adapter UI parser contract, adapterUiParser
// 1.0.0): dist/ui-parser.js, dist/ui-parser.stateless.js and dist/<runtime>/ui-parser*.js.
// scripts/assemble.mjs writes one per file; the stateless ones have no createStdoutParser.
import type { TranscriptEntry, StdoutParser, StdoutLineParser, RuntimeFormat } from "@@INDEX@@";
export type { TranscriptEntry, StdoutParser, StdoutLineParser, RuntimeFormat };

export declare function parseStdoutLine(line: string, ts: string): TranscriptEntry[];
//@@STATEFUL_BEGIN
export declare function createStdoutParser(options?: { format?: RuntimeFormat }): StdoutParser;
//@@STATEFUL_END
