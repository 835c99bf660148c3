// Helpers for tests/browser/viewer.test.mjs: stand-in parser sources (served with
// page.route), a log that exercises every row type, expected counts computed from golden
// files, a 100k-line log synthesized from a real fixture, and page-side probes.

/** A parser in the host's shape that echoes entries: a line {"echo":[entries]} yields those
 * entries (ts filled in); any other non-blank line is stdout. Lets the rendering tests
 * cover every entry kind whatever runtimes the real parser knows yet. */
export const ECHO_PARSER = `
function parseStdoutLine(line, ts) {
  var v = null;
  try { v = JSON.parse(line); } catch (e) { v = null; }
  if (v && Array.isArray(v.echo)) {
    return v.echo.map(function (e) { var o = { ts: ts }; for (var k in e) o[k] = e[k]; return o; });
  }
  return String(line).trim() ? [{ kind: "stdout", ts: ts, text: String(line) }] : [];
}
module.exports = {
  parseStdoutLine: parseStdoutLine,
  createStdoutParser: function () { return { parseLine: parseStdoutLine }; }
};
`;

/** Parser sources that must make the viewer fall back, with the stage it should report. */
export const BAD_PARSERS = {
  scanner: { stage: "scanner", source: "var x = eval(\"1\");\nmodule.exports = { parseStdoutLine: function () { return []; } };" },
  throws: { stage: "evaluate", source: "throw new Error(\"parser exploded on load\");" },
  noexports: { stage: "exports", source: "var nothing = 1;" },
  hangs: { stage: "timeout", source: "while (true) {}" },
};

export const XSS = [
  `<img src=x onerror="document.body.dataset.pwned='img'">`,
  `<script>document.body.dataset.pwned='script'</script>`,
  `<a href="javascript:document.body.dataset.pwned='link'">click</a>`,
  `[md link](javascript:document.body.dataset.pwned='md') and ![img](x onerror=alert(1))`,
  `<iframe src="data:text/html,<script>parent.document.body.dataset.pwned='iframe'</script>"></iframe>`,
  `<svg onload="document.body.dataset.pwned='svg'"></svg>`,
];

const echo = (...entries) => JSON.stringify({ echo: entries });

/** Lines for the echo parser covering every row type, with XSS payloads in each text field;
 * returns { lines, expect } where expect holds the counts the viewer must show. */
export function richLog() {
  const x = XSS.join("\n");
  const lines = [
    echo({ kind: "init", model: "claude-test-model", sessionId: "sess-123" }),
    echo({ kind: "user", text: "Please look at " + XSS[0] }),
    echo({ kind: "thinking", text: "Let me think **hard** about " + XSS[1], delta: true }),
    echo({ kind: "thinking", text: " — more thinking", delta: true }),
    echo({ kind: "assistant", text: "# Plan\n\nI will:\n\n1. read `a.rs`\n2. fix it\n   - nested *item*\n\n```rust\nfn main() {}\n```\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\nSee [docs](https://example.com/docs) and https://example.org.\n\n" + x }),
    echo({ kind: "tool_call", name: "Bash", input: { command: "ls -la " + XSS[0], description: "list" }, toolUseId: "t1" }),
    echo({ kind: "tool_call", name: "Read", input: { file_path: "/src/main.rs" }, toolUseId: "t2" }),
    echo({ kind: "tool_result", toolUseId: "t1", toolName: "Bash", content: "total 0\n" + x, isError: false, durationMs: 1234 }),
    echo({ kind: "tool_result", toolUseId: "t2", toolName: "Read", content: "no such file " + XSS[1], isError: true, durationMs: 12 }),
    echo({ kind: "tool_result", toolUseId: "orphan", toolName: "Grep", content: "a result without its call", isError: false }),
    echo({ kind: "diff", changeType: "file_header", text: "--- a/src/main.rs" }, { kind: "diff", changeType: "hunk", text: "@@ -1,2 +1,2 @@" },
      { kind: "diff", changeType: "remove", text: "-fn main() { " + XSS[0] + " }" }, { kind: "diff", changeType: "add", text: "+fn main() {}" },
      { kind: "diff", changeType: "context", text: " // end" }),
    echo({ kind: "assistant", text: "Streaming ", delta: true }),
    echo({ kind: "assistant", text: "answer " + XSS[2], delta: true }),
    echo({ kind: "system", text: "event: mystery (" + XSS[4] + ")" }),
    echo({ kind: "stderr", text: "warning: " + XSS[5] }),
    echo({ kind: "tool_call", name: "Task", input: { prompt: "sub" }, toolUseId: "t3", parentToolUseId: "p1" }),
    XSS[0],
    XSS[1],
    echo({ kind: "result", text: "Done. " + XSS[3], inputTokens: 1200, outputTokens: 345, cachedTokens: 6789, costUsd: 0.0421, subtype: "success", isError: false, errors: [] }),
  ];
  // init, user, thinking(1 merged), assistant, 4 tool cards (t1, t2, orphan, t3), diff(1),
  // assistant(1 merged), system, stderr, stdout x2, result.
  const expect = { tool: 4, thinking: 1, diff: 1, assistant: 2, user: 1, init: 1, result: 1, system: 1, stderr: 1, stdout: 2, rows: 15 };
  return { lines, expect };
}

/** Counts the viewer must show for a golden file (one JSON array per input line). Written
 * independently of www/model.js: delta merge, then cards = calls + results with no open call. */
export function expectedFromGolden(arrays) {
  const flat = arrays.flat();
  const merged = [];
  // A result streamed in pieces stays in its call's card (www/model.js, settle): later pieces
  // and the final result under its id add to it, not to the entries.
  const waiting = new Set(); // ids of calls without a result yet
  const streaming = new Map(); // id -> the piece a card holds
  for (const e of flat) {
    const prev = merged[merged.length - 1];
    const field = e.delta === true ? (e.kind === "tool_result" ? "content" : e.kind === "assistant" || e.kind === "thinking" ? "text" : null) : null;
    if (field && prev && prev.kind === e.kind && prev.delta === true) {
      prev[field] = (prev[field] ?? "") + (e[field] ?? "");
      continue;
    }
    const held = e.kind === "tool_result" ? streaming.get(e.toolUseId) : undefined;
    if (held) {
      if (e.delta === true) held.content = (held.content ?? "") + (e.content ?? "");
      else {
        if (e.content) held.content = e.content;
        held.delta = false;
        streaming.delete(e.toolUseId);
      }
      continue;
    }
    const copy = { ...e };
    merged.push(copy);
    if (e.kind === "tool_call" && e.toolUseId) waiting.add(e.toolUseId);
    else if (e.kind === "tool_result" && e.toolUseId && waiting.has(e.toolUseId)) {
      waiting.delete(e.toolUseId);
      if (e.delta === true) streaming.set(e.toolUseId, copy);
    }
  }
  const kinds = {};
  for (const e of merged) kinds[e.kind] = (kinds[e.kind] || 0) + 1;
  const open = new Map();
  let cards = 0;
  for (const e of merged) {
    if (e.kind === "tool_call") {
      cards++;
      if (e.toolUseId) open.set(e.toolUseId, true);
    } else if (e.kind === "tool_result") {
      if (e.toolUseId && open.has(e.toolUseId)) open.delete(e.toolUseId);
      else cards++;
    }
  }
  // Consecutive diff lines form one block (www/model.js caps a block at 400 lines).
  let diffRows = 0;
  let run = 0;
  merged.forEach((e, i) => {
    if (e.kind !== "diff") { run = 0; return; }
    if (i === 0 || merged[i - 1].kind !== "diff" || run >= 400) { diffRows++; run = 0; }
    run++;
  });
  // Consecutive notices of one agent fold into one row, system entries with system entries,
  // model-call results with model-call results (www/model.js caps a group at 200).
  const isCall = (e) => e.kind === "result" && e.subtype === "model_call";
  const isNote = (e) => e.kind === "system" || isCall(e);
  const sameNote = (a, b) => isNote(a) && isNote(b) && isCall(a) === isCall(b);
  let folded = 0;
  let group = 0;
  merged.forEach((e, i) => {
    const prev = merged[i - 1];
    if (prev && sameNote(prev, e) && (prev.parentToolUseId ?? "") === (e.parentToolUseId ?? "") && group < 200) {
      folded++;
      group++;
    } else group = 1;
  });
  const others = merged.filter((e) => e.kind !== "diff" && e.kind !== "tool_call" && e.kind !== "tool_result").length - folded;
  const results = merged.filter((e) => e.kind === "result");
  const inits = merged.filter((e) => e.kind === "init");
  // Which rows the list shows before any subagent is opened: a row whose first entry names
  // (parentToolUseId) a tool call placed before it is nested under that card, closed.
  const rowsSeen = [];
  const callsOpen = new Map();
  const cardIds = new Set();
  let last = null; // the row the previous entry went to
  for (const e of merged) {
    const parent = e.parentToolUseId ?? "";
    const push = (type) => { last = { type, first: e, n: 1, hidden: parent !== "" && cardIds.has(parent) && parent !== e.toolUseId }; rowsSeen.push(last); };
    if (e.kind === "tool_call") {
      push("tool");
      if (e.toolUseId) { callsOpen.set(e.toolUseId, last); cardIds.add(e.toolUseId); }
    } else if (e.kind === "tool_result" && e.toolUseId && callsOpen.has(e.toolUseId)) {
      last = callsOpen.get(e.toolUseId);
      callsOpen.delete(e.toolUseId);
    } else if (e.kind === "tool_result") push("tool");
    else if (e.kind === "diff" && last === rowsSeen[rowsSeen.length - 1] && last?.type === "diff" && last.n < 400) last.n++;
    else if (e.kind === "diff") push("diff");
    else if (isNote(e) && last === rowsSeen[rowsSeen.length - 1] && last?.type === "notes" && sameNote(last.first, e) && last.n < 200 && (last.first.parentToolUseId ?? "") === parent) last.n++;
    else if (isNote(e)) push("notes");
    else push(e.kind);
  }
  const shown = rowsSeen.filter((r) => !r.hidden);
  return {
    raw: flat.length, entries: merged.length, kinds, cards, diffRows, rows: cards + diffRows + others,
    shownRows: shown.length, shownCards: shown.filter((r) => r.type === "tool").length, shownThinking: shown.filter((r) => r.type === "thinking").length,
    // The result chip: every result, a notes row of model calls counting each of them.
    results: results.length,
    lastResult: results[results.length - 1] ?? null, lastInit: inits[inits.length - 1] ?? null,
    // The run's totals as the host's summary counts them (every result but its own session row).
    resultSum: results.length === 0 ? null : results
      .filter((r) => r.subtype !== "paperclip_runner_session_usage")
      .reduce((t, r) => {
        for (const k of ["inputTokens", "outputTokens", "cachedTokens", "costUsd"]) t[k] += typeof r[k] === "number" ? r[k] : 0;
        return t;
      }, { inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: 0 }),
  };
}

/** n lines made by repeating `lines`, with ids made fresh on every repetition. */
export function synthesize(lines, n) {
  const idLike = /\b((?:toolu|msg|call|item|req|srvtoolu|fc|resp|run)_[A-Za-z0-9_-]+|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/g;
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const rep = Math.floor(i / lines.length);
    const line = lines[i % lines.length];
    out[i] = rep === 0 ? line : line.replace(idLike, (m) => `${m}r${rep}`);
  }
  return out;
}

/** Scrolls the virtual list from top to bottom (optionally opening every <details> on the
 * way); returns one record per row seen: {id, cls, text, bad, hrefs, md, durs, diffs}. */
export async function sweepRows(page, { open = false } = {}) {
  return page.evaluate(async (open) => {
    const list = document.getElementById("list");
    const seen = new Map();
    const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const take = () => {
      for (const el of list.querySelectorAll(".vl-row")) {
        if (open) {
          for (const d of el.matches("details") ? [el, ...el.querySelectorAll("details")] : el.querySelectorAll("details")) {
            if (!d.open) { d.open = true; d.dispatchEvent(new Event("toggle")); }
          }
        }
        const q = (sel) => el.querySelectorAll(sel).length;
        seen.set(el.dataset.row, {
          id: Number(el.dataset.row),
          cls: el.className,
          text: el.textContent,
          bad: q("img, script, iframe, svg, object, embed, style, link, base, form, [onerror], [onload], [onclick]"),
          hrefs: [...el.querySelectorAll("a:not(.ln)")].map((a) => [a.getAttribute("href"), a.rel, a.target]),
          md: { h1: q(".md h1"), li: q(".md ol > li"), nested: q(".md ol li ul li em"), code: q(".md pre code"), td: q(".md table td"), inlineCode: q(".md p > code, .md li code") },
          durs: [...el.querySelectorAll(".dur")].map((e) => e.textContent),
          diffs: [...el.querySelectorAll(".diff-body > div")].map((e) => e.className),
        });
      }
    };
    list.scrollTop = 0;
    await frame();
    for (let guard = 0; guard < 20000; guard++) {
      take();
      if (open) { await frame(); take(); }
      if (list.scrollTop + list.clientHeight >= list.scrollHeight - 2) break;
      list.scrollTop += Math.max(50, list.clientHeight - 40);
      await frame();
    }
    await frame();
    take();
    return [...seen.values()].sort((a, b) => a.id - b.id);
  }, open);
}

/** Installs (before the page's own scripts) collectors of CSP violations. */
export const CSP_PROBE = `
  window.__csp = [];
  document.addEventListener("securitypolicyviolation", (e) => {
    window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || ""));
  });
`;
