// What "ours shows the same content as the host's parser on this line" means, for
// tests/js/host-oracle.test.mjs. Per host entry, in order, the next of our entries that
// covers it:
// - assistant / thinking / user: same kind, the host's text contained in ours (whitespace
//   runs compared as one space);
// - system / stderr: same kind, every word and number of the host's text in ours;
// - stdout (a line the host shows raw): any entry of ours whose text contains it; the raw
//   fallback of a JSON line is not content and is skipped;
// - a text that is only whitespace (the host's `"\n\n"` text block) is not content, nor are
//   terminal colour codes in a text;
// - tool_call: same name and toolUseId, every word of the host's input values in our
//   name, id and input;
// - tool_result: same toolUseId and isError, every word of the host's content in ours;
// - result: same tokens, cost and isError, the host's text words and the words of each of
//   its errors in ours;
// - init: same sessionId, the host's model words in ours.
// A line where that fails must be an instance of a listed difference (DIFFERENCES): either
// one host entry is covered another, listed way (the difference's `covers`, strict about
// ids, isError and words), or the difference's `expect` computes our exact entries for the
// whole line; anything else is a failure.

import { entryDifference } from "./oracle-entry-differences.mjs";
export { ENTRY_DIFFERENCES } from "./oracle-entry-differences.mjs";

/** Lower-cased words and numbers of a text. */
export function words(text) {
  return String(text ?? "").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

const squash = (s) => String(s ?? "").replace(/\s+/g, " ").trim();
const isJson = (line) => {
  try {
    const v = JSON.parse(line);
    return typeof v === "object" && v !== null;
  } catch {
    return false;
  }
};
const values = (v) => (v === null || v === undefined ? [] : typeof v === "object" ? Object.values(v).flatMap(values) : [String(v)]);
const normJson = (s) => {
  try {
    return JSON.stringify(JSON.parse(s));
  } catch {
    return s;
  }
};

/** Words of `theirs` missing from `ours` (minus `allowed`). */
function missing(theirs, ours, allowed = []) {
  const have = new Set(words(ours));
  return words(theirs).filter((w) => !have.has(w) && !allowed.includes(w));
}

/** Does our entry `o` show the content of the host's entry `e`? Returns null, or the
 * listed difference it needed (a string), or false. */
function covers(adapter, e, o, ctx = { ids: new Map(), ours: [] }) {
  const text = (x) => x.text ?? x.content ?? "";
  // Hermes prints no call ids: the host numbers calls per page (`hermes-tool-N`), ours
  // derives one from the line; equal when one host id always maps to the same id of ours.
  const sameId = (a, b) => {
    if (a === b) return true;
    if (!HERMES.includes(adapter) || !/^hermes/.test(a ?? "") || !/^hermes/.test(b ?? "")) return false;
    if (!ctx.ids.has(a)) ctx.ids.set(a, b);
    return ctx.ids.get(a) === b;
  };
  switch (e.kind) {
    case "assistant":
    case "thinking":
    case "user":
      return o.kind === e.kind && squash(o.text).includes(squash(e.text)) ? null : false;
    case "system":
    case "stderr": {
      if (o.kind !== e.kind) return false;
      if (missing(e.text, o.text).length === 0) return null;
      // acpx.status: the host's `(used/size ctx)` reads `context used/size tokens (p%)` here.
      if (adapter === "acp" && missing(e.text, o.text, ["ctx"]).length === 0) return "acpx-status-context";
      return false;
    }
    case "stdout":
      return typeof o.text === "string" && squash(o.text).includes(squash(e.text)) ? null : false;
    case "tool_call": {
      if (o.kind !== "tool_call" || o.name !== e.name) return false;
      // A host card without an id (Gemini's reader drops `call_id`) against ours with one.
      if (e.toolUseId !== undefined && (o.toolUseId ?? null) !== (e.toolUseId ?? null) && !sameId(e.toolUseId, o.toolUseId)) return false;
      const generated = e.toolUseId !== undefined && (o.toolUseId ?? null) !== (e.toolUseId ?? null) ? "hermes-tool-ids" : null;
      const pool = `${o.name} ${o.toolUseId ?? ""} ${values(o.input).join(" ")}`;
      const need = values(e.input).join(" ");
      if (missing(need, pool).length === 0) return generated;
      // hermes_local: the duration and exit suffix go to our result (content, durationMs).
      const results = ctx.ours.filter((x) => x.kind === "tool_result" && x.toolUseId === o.toolUseId).map((x) => x.content);
      if (HERMES.includes(adapter) && missing(need, `${pool} ${results.join(" ")}`).length === 0) return "hermes-detail-suffix";
      // acpx: the card leaves out the status acpx writes into its input (`pending`, …).
      const status = e.input && typeof e.input === "object" ? String(e.input.status ?? "") : "";
      if (adapter === "acp" && status && missing(need, pool, words(status)).length === 0) return "acpx-card-status";
      return false;
    }
    case "tool_result": {
      if (o.kind !== "tool_result" || o.isError !== e.isError) return false;
      if (o.toolUseId !== e.toolUseId && !sameId(e.toolUseId, o.toolUseId)) return false;
      if (missing(text(e), text(o)).length === 0) return o.toolUseId === e.toolUseId ? null : "hermes-tool-ids";
      return false;
    }
    case "result": {
      const same = ["inputTokens", "outputTokens", "cachedTokens", "costUsd"].every((k) => (o[k] ?? 0) === (e[k] ?? 0));
      const errs = (x) => (x.errors ?? []).map(normJson);
      const errorsShown = errs(e).every((x) => errs(o).includes(x) || errs(o).some((y) => missing(x, y).length === 0));
      return o.kind === "result" && same && o.isError === e.isError && missing(e.text, o.text).length === 0 && errorsShown ? null : false;
    }
    case "init":
      return o.kind === "init" && o.sessionId === e.sessionId && missing(e.model, o.model).length === 0 ? null : false;
    default:
      return o.kind === e.kind && JSON.stringify(o) === JSON.stringify(e) ? null : false;
  }
}

/** acpx's `"<title> (<status>)[: <detail>]"` as {title, detail}, or null. */
function splitAcpxText(text, status) {
  const marker = ` (${status})`;
  const i = status ? text.indexOf(marker) : -1;
  if (i < 0) return null;
  const rest = text.slice(i + marker.length);
  if (rest !== "" && !rest.startsWith(": ")) return null;
  return { title: text.slice(0, i), detail: rest.slice(2) };
}

const TERMINAL = ["completed", "failed", "cancelled"];
const HERMES = ["hermes", "hermes_gateway"];
const GATEWAY_EVENT = /^\[hermes-gateway:event\] run=(\S*) event=(\S+) data=(.*)$/;
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");
const compact = (v) => JSON.stringify(v);
const clip = (s, n) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** The listed differences: for a line that is an instance, our exact expected entries. */
export const DIFFERENCES = {
  "acpx-tool-update": {
    adapters: ["acp"],
    reason:
      "an `acpx.tool_call` update between announcement and end (`tag: tool_call_update`, status pending/in_progress) repeats the call's card in the host's parser; ours shows no second card, only what the update adds: nothing for acpx's placeholder title `tool call`, `tool: <title>` for a title the update carries, `<name> input: <json>` for new input.",
    expect(v) {
      if (v?.type !== "acpx.tool_call" || v.tag !== "tool_call_update" || TERMINAL.includes(v.status)) return undefined;
      const name = typeof v.name === "string" ? v.name : "acp_tool";
      const text = typeof v.text === "string" ? v.text : "";
      const sys = (t) => [{ kind: "system", text: t }];
      if (v.input !== undefined) return sys(`${name} input: ${clip(compact(v.input), 300)}`);
      const parts = splitAcpxText(text, v.status ?? "");
      if (!parts) return text.trim() ? sys(`${name}: ${text}`) : [];
      if (parts.title === "tool call" || parts.title === "") return [];
      return sys(parts.title === name ? `tool: ${parts.title}` : `${name}: ${parts.title}`);
    },
  },
  "acpx-tool-end": {
    adapters: ["acp"],
    reason:
      "an `acpx.tool_call` update that ends a call (completed/failed/cancelled) gives, in the host's parser, the card again plus the result `<title> (<status>): <output>`; ours gives the result alone (same toolUseId and isError), its content the output (or the status when there is none).",
    expect(v) {
      if (v?.type !== "acpx.tool_call" || v.tag !== "tool_call_update" || !TERMINAL.includes(v.status)) return undefined;
      const name = typeof v.name === "string" ? v.name : "acp_tool";
      const id = v.toolCallId || v.toolUseId || v.id || name;
      const parts = splitAcpxText(v.text ?? "", v.status);
      const detail = parts ? parts.detail : v.text ?? "";
      const content = detail.trim() ? detail : v.status;
      return [{ kind: "tool_result", toolUseId: id, toolName: name, content, isError: v.status !== "completed" }];
    },
  },
  "acpx-tool-announce-end": {
    adapters: ["acp"],
    reason:
      "an `acpx.tool_call` announcement that already ends the call: the card as usual, the result's content the output without acpx's `<title> (<status>): ` prefix.",
    expect(v, theirs, ours) {
      if (v?.type !== "acpx.tool_call" || v.tag === "tool_call_update" || !TERMINAL.includes(v.status)) return undefined;
      const parts = splitAcpxText(v.text ?? "", v.status);
      const detail = parts ? parts.detail : v.text ?? "";
      const want = { kind: "tool_result", toolUseId: theirs[1]?.toolUseId, toolName: theirs[1]?.toolName, content: detail.trim() ? detail : v.status, isError: v.status !== "completed" };
      return ours[0]?.kind === "tool_call" && covers("acp", theirs[0], ours[0]) !== false ? [ours[0], want] : [want];
    },
  },
  "acpx-error-without-message": {
    adapters: ["acp"],
    reason:
      "an `acpx.error` whose `message` is not a string (the turn finaliser writes `message: null` for a cancelled turn) shows the raw JSON line in the host's parser; ours shows `turn <summary>: <stopReason>`.",
    expect(v) {
      if (v?.type !== "acpx.error" || (typeof v.message === "string" && v.message)) return undefined;
      const s = typeof v.summary === "string" && v.summary ? v.summary : null;
      const r = typeof v.stopReason === "string" && v.stopReason ? v.stopReason : null;
      const text = s && r && s !== r ? `turn ${s}: ${r}` : s ? `turn ${s}` : r ? `turn stopped: ${r}` : "acpx error";
      return [{ kind: "stderr", text }];
    },
  },
  "acpx-tool-result-error-object": {
    adapters: ["acp"],
    reason:
      "an `acpx.tool_result` whose `error` is an object with a `message`: the host shows the object as indented JSON, ours the message.",
    expect(v) {
      if (v?.type !== "acpx.tool_result" || typeof v.error?.message !== "string") return undefined;
      const id = v.toolCallId || v.toolUseId || v.id || v.name || "acp_tool";
      return [{ kind: "tool_result", toolUseId: id, toolName: v.name, content: v.error.message, isError: true }];
    },
  },
  "hermes-unmarked-line": {
    adapters: ["hermes"],
    reason:
      "a line with no Hermes mark (prose, a log line): the host's Hermes parser knows every line is Hermes' and reads it as `assistant` (or `stderr` for a log line); our stateless file cannot know a bare line is Hermes' and shows it as `stdout` with the same text, and our stateful parser, once the stream is known to be Hermes, shows the host's kind (checked against the golden).",
    expect(v, theirs, ours, ctx) {
      if (v !== null || theirs.length !== 1 || !["assistant", "stderr"].includes(theirs[0].kind)) return undefined;
      const golden = ctx.stateful ?? [];
      if (!(golden.length === 1 && golden[0].kind === theirs[0].kind && golden[0].text === theirs[0].text)) return undefined;
      return [{ kind: "stdout", text: theirs[0].text }];
    },
  },
  "hermes-gateway-event": {
    adapters: ["hermes_gateway"],
    reason:
      "a gateway event the host shows only by name (`Hermes event: tool.started`): ours shows the event itself: `tool.started` → the `tool_call` (name `tool`, input `preview`), `tool.completed` → its `tool_result` (paired by run and tool, `isError` from `error`, the duration), `run.completed` → the `result` with `output` and the token usage.",
    expect(v, theirs, ours, ctx) {
      const m = GATEWAY_EVENT.exec(ctx.line ?? "");
      if (!m || theirs.length !== 1 || theirs[0].text !== `Hermes event: ${m[2]}`) return undefined;
      let d;
      try {
        d = JSON.parse(m[3]);
      } catch {
        return undefined;
      }
      const id = `hermes:${m[1]}:${d.tool}`;
      if (m[2] === "tool.started") return [{ kind: "tool_call", name: d.tool, input: { preview: d.preview }, toolUseId: id }];
      if (m[2] === "tool.completed") return [{ kind: "tool_result", toolUseId: id, toolName: d.tool, isError: Boolean(d.error) }];
      if (m[2] === "run.completed") {
        const u = d.usage ?? {};
        return [{ kind: "result", text: d.output, inputTokens: u.input_tokens ?? 0, outputTokens: u.output_tokens ?? 0, isError: false }];
      }
      return undefined;
    },
  },
  "hermes-gateway-glued-delta": {
    adapters: ["hermes_gateway"],
    reason:
      "the gateway adapter writes each delta raw to stdout with no newline, so the next event line arrives as `<delta>[hermes-gateway:event] …`: the host shows that whole line raw; ours drops the glued copy (the delta's own event line showed it) and reads the event, exactly as it reads the event line alone.",
    expect(v, theirs, ours, ctx) {
      const i = (ctx.line ?? "").indexOf("[hermes-gateway:event]");
      if (i <= 0 || theirs.length !== 1 || theirs[0].kind !== "stdout" || !ctx.reparse) return undefined;
      return ctx.reparse(ctx.line.slice(i));
    },
  },
  "grok-bare-event": {
    adapters: ["grok"],
    reason:
      "a bare `{\"type\":\"error\"}` or `{\"type\":\"end\"}` (no other field): nothing in it says it is Grok's, so the stateless file names it (`event: error`) instead of claiming it for Grok (`Grok error`, `run completed`); once a stream is known to be Grok's, the stateful parser reads it as Grok's.",
    expect(v) {
      if (!v || Object.keys(v).length !== 1 || !["error", "end"].includes(v.type)) return undefined;
      return [{ kind: "system", text: `event: ${v.type}` }];
    },
  },
  "kimi-content-parts": {
    adapters: ["kimi"],
    reason: "a Kimi `tool` message whose content is a list of parts: the host shows the list as indented JSON, ours the parts' text.",
    expect(v) {
      if (v?.role !== "tool" || !Array.isArray(v.content)) return undefined;
      const text = v.content.map((p) => (typeof p?.text === "string" ? p.text : "")).filter(Boolean).join("\n");
      return [{ kind: "tool_result", toolUseId: v.tool_call_id || "tool_result", content: text, isError: false }];
    },
  },
  "hermes-emoji-name": {
    adapters: ["hermes"],
    reason:
      "a Hermes tool line whose emoji carries a variation selector (`┊ ✍️  write     notes.md  0.2s [error]`): the host's pattern takes the emoji for the tool's name and the rest for its input; ours reads the verb as the name, the detail as input, and puts duration and suffix in the result.",
    expect(v, theirs) {
      const [card, res] = theirs;
      if (v !== null || card?.kind !== "tool_call" || /[\p{L}\p{N}]/u.test(card.name) || typeof card.input?.detail !== "string") return undefined;
      const m = /^(\S+)\s+(.*)$/.exec(card.input.detail);
      if (!m) return undefined;
      const detail = m[2].replace(/\s{2,}\d+(\.\d+)?s\b.*$/, "");
      return [
        { kind: "tool_call", name: m[1], input: { detail } },
        { kind: "tool_result", content: m[2], isError: res?.isError ?? false },
      ];
    },
  },
  "acpx-status-context": {
    adapters: ["acp"],
    reason: "`acpx.status`: the host's `(used/size ctx)` reads `context used/size tokens (p%)` in ours (plus cost and token breakdown the host does not show).",
  },
  "hermes-tool-ids": {
    adapters: ["hermes", "hermes_gateway"],
    reason: "Hermes prints no call ids: the host numbers calls per page (`hermes-tool-N`), ours derives an id from the line (or run and tool name); card and result share it on both sides.",
  },
  "hermes-detail-suffix": {
    adapters: ["hermes"],
    reason: "a Hermes tool line with a failure suffix (`npm test  2.4s [exit 1]`): the host keeps duration and suffix in the card's input; ours keeps the command there and puts them in the result (content and `durationMs`).",
  },
  "acpx-card-status": {
    adapters: ["acp"],
    reason: "`acpx.tool_call` announcement: the host copies the status (`pending`, …) into the card's input; ours leaves it out (the card and its result show the state).",
  },
};

/** Our entries `ours` against the exact `want` list (fields given in `want` only). */
function exactly(want, ours) {
  if (want.length !== ours.length) return false;
  return want.every((w, i) => Object.entries(w).every(([k, x]) => k === "ts" || JSON.stringify(ours[i][k]) === JSON.stringify(x)));
}

/**
 * One line: `{failure}` or `{reasons, oursMore}` (`oursMore`: ours shows entries the host's
 * parser has no counterpart for).
 */
export function compareLine(adapter, line, theirs, ours, extra = {}) {
  let v = null;
  try {
    v = JSON.parse(line);
  } catch {}
  const ctx = { ids: new Map(), ours, line, v, fileOurs: [], ...extra };
  const reasons = [];
  const used = new Set();
  let cursor = 0;
  let ok = true;
  for (let e of theirs) {
    if (e.kind === "stdout" && isJson(line)) continue;
    if (["assistant", "thinking", "user", "system", "stderr"].includes(e.kind) && !String(e.text ?? "").trim()) continue;
    // Terminal colour codes in the host's text are not content (ours strips them).
    if (typeof e.text === "string") e = { ...e, text: stripAnsi(e.text) };
    if (typeof e.content === "string") e = { ...e, content: stripAnsi(e.content) };
    let found = -1;
    for (let j = cursor; j < ours.length; j++) {
      const c = covers(adapter, e, ours[j], ctx);
      if (c !== false) {
        if (c) reasons.push(c);
        found = j;
        break;
      }
    }
    if (found < 0) {
      // A listed difference that covers this one host entry another way.
      const alt = entryDifference(adapter, e, ctx, (x, o) => covers(adapter, x, o, ctx));
      if (alt) {
        reasons.push(alt.id);
        for (const j of alt.used) used.add(j);
        continue;
      }
      ok = false;
      break;
    }
    used.add(found);
    cursor = found + 1;
  }
  if (!ok) {
    const v = ctx.v;
    for (const [id, d] of Object.entries(DIFFERENCES)) {
      if (!d.adapters.includes(adapter) || !d.expect) continue;
      const want = d.expect(v, theirs, ours, ctx);
      if (want === undefined) continue;
      if (exactly(want, ours)) return { reasons: [id], oursMore: false };
      return { failure: `listed difference ${id} applies but ours is not ${JSON.stringify(want)}` };
    }
    return { failure: "the host's parser shows content ours does not" };
  }
  return { reasons: [...new Set(reasons)], oursMore: ours.some((_, j) => !used.has(j)) };
}
