// Parses a log with the built dist/ui-parser.js, loaded the way the host loads it, and
// prints the transcript. Usage: node scripts/demo.mjs <log> [--stateless] [--format NAME]
import { readFileSync } from "node:fs";
import { loadHostFile, linesOf } from "../tests/js/host.mjs";

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--"));
if (!file) {
  console.error("usage: node scripts/demo.mjs <log> [--stateless] [--format NAME]");
  process.exit(2);
}
const stateless = args.includes("--stateless");
const fi = args.indexOf("--format");
const format = fi >= 0 ? args[fi + 1] : undefined;

let text;
try {
  text = readFileSync(file, "utf8");
} catch (e) {
  console.error(`demo: cannot read ${file}: ${e.message}`);
  process.exit(2);
}
const mod = loadHostFile(stateless ? "dist/ui-parser.stateless.js" : "dist/ui-parser.js");
const parser = stateless ? null : mod.createStdoutParser(format ? { format } : undefined);
const color = process.stdout.isTTY;
const paint = (code, s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const one = (s, n = 160) => {
  const t = String(s).replace(/\s+/g, " ").trim();
  return t.length > n ? t.slice(0, n - 1) + "…" : t;
};

const t0 = performance.now();
const entries = [];
const lines = linesOf(text);
lines.forEach((line, i) => {
  const ts = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  entries.push(...(stateless ? mod.parseStdoutLine(line, ts) : parser.parseLine(line, ts)));
});
const ms = performance.now() - t0;

// Consecutive delta entries of one kind are merged, as the host's transcript view does.
const merged = [];
for (const e of entries) {
  const last = merged[merged.length - 1];
  if (e.delta && last && last.delta && last.kind === e.kind) last.text += e.text;
  else merged.push({ ...e });
}

const counts = {};
for (const e of merged) {
  counts[e.kind] = (counts[e.kind] || 0) + 1;
  const sub = e.parentToolUseId ? paint(2, " ↳ subagent") : "";
  switch (e.kind) {
    case "init": console.log(paint(36, `● session ${e.sessionId || "?"} · model ${e.model}`)); break;
    case "assistant": console.log(paint(1, "assistant") + sub + ": " + one(e.text, 400)); break;
    case "thinking": console.log(paint(2, "thinking") + sub + ": " + paint(2, one(e.text))); break;
    case "user": console.log(paint(32, "user") + sub + ": " + one(e.text)); break;
    case "tool_call": console.log(paint(33, `▶ ${e.name}`) + sub + " " + paint(2, one(JSON.stringify(e.input), 120))); break;
    case "tool_result": console.log(
      paint(e.isError ? 31 : 33, `  ◀ ${e.toolName || e.toolUseId}${e.isError ? " (error)" : ""}`) +
      (e.durationMs !== undefined ? paint(2, ` ${e.durationMs} ms`) : "") + " " + one(e.content, 120)); break;
    case "result": console.log(paint(36, `■ result ${e.subtype}${e.isError ? " (error)" : ""}: in ${e.inputTokens} · out ${e.outputTokens} · cached ${e.cachedTokens} tokens · $${e.costUsd}`) + (e.text ? " — " + one(e.text) : "")); break;
    case "diff": console.log(paint(e.changeType === "add" ? 32 : e.changeType === "remove" ? 31 : 2, e.text)); break;
    case "stderr": console.log(paint(31, "stderr: " + one(e.text))); break;
    case "system": console.log(paint(2, "· " + one(e.text))); break;
    default: console.log(`${e.kind}: ${one(e.text ?? JSON.stringify(e))}`);
  }
}
console.error(paint(2, `\n${lines.length} lines → ${entries.length} entries (${merged.length} after delta merge) in ${ms.toFixed(1)} ms · ` +
  Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", ")));
