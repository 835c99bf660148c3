// Types of dist/ui-parser.js and dist/ui-parser.stateless.js (the Paperclip adapter UI
// parser contract, adapterUiParser 1.0.0). Entries are the host's TranscriptEntry.
import type { TranscriptEntry } from "./index";

export declare function parseStdoutLine(line: string, ts: string): TranscriptEntry[];

export interface StdoutParser {
  parseLine(line: string, ts: string): TranscriptEntry[];
  reset(): void;
  parseChunk(chunk: string, ts: string): TranscriptEntry[];
  flush(ts: string): TranscriptEntry[];
  dispose(): void;
}

/** Only in dist/ui-parser.js (the stateful shape). */
export declare function createStdoutParser(options?: { format?: string }): StdoutParser;
