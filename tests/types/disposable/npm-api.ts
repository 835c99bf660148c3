// The npm entry's own types as a user writes against them: `using` on a parser (the README's
// example; TS2741 before `[Symbol.dispose]` was declared), AgentlinesWasmError's class and
// codes, a misspelt format a type error as it is a runtime TypeError.
import { createStdoutParser, AgentlinesWasmError, init } from "../../../dist/index.js";
import type { AgentlinesWasmErrorCode, StdoutParserWithBatch } from "../../../dist/index.js";

export function readAll(lines: string[]): number {
  using p = createStdoutParser({ format: "claude" });
  let n = 0;
  for (const l of lines) n += p.parseLine(l, new Date().toISOString()).length;
  return n;
}

export const disposable: Disposable = createStdoutParser();
export const parser: StdoutParserWithBatch = createStdoutParser();

export async function start(): Promise<AgentlinesWasmErrorCode | null> {
  try {
    await init();
    return null;
  } catch (e) {
    if (e instanceof AgentlinesWasmError) {
      const code: AgentlinesWasmErrorCode = e.code;
      // @ts-expect-error: not one of the codes
      const wrong: typeof e.code = "AGENTLINES_OTHER";
      return wrong ?? code;
    }
    throw e;
  }
}

// @ts-expect-error: not a runtime name (refused at run time too)
createStdoutParser({ format: "claud" });
