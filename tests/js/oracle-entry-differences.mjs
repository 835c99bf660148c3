// Listed differences that cover one host entry another way (for tests/js/oracle-compare.mjs):
// when no entry of ours shows a host entry the plain way, each difference below whose
// adapters include the line's may cover it, strictly (same ids and isError, every host
// word present, the line being of the shape the reason names). `covers(e, ctx, cov)`
// returns the indexes of our entries on the line that show it (possibly none, when ours
// shows it on another line), or null when the difference does not apply; `cov(e, o)` is the
// plain comparison of one host entry with one of ours.

const words = (t) => String(t ?? "").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const has = (need, pool) => {
  const set = new Set(words(pool));
  return words(need).every((w) => set.has(w));
};
const leaves = (v, key = "") =>
  v === null || v === undefined || key === "type" ? [] : typeof v === "object" ? Object.entries(v).flatMap(([k, x]) => leaves(x, k)) : typeof v === "string" ? [v] : [];
const json = (s) => {
  try {
    const v = JSON.parse(s);
    return typeof v === "object" && v !== null ? v : null;
  } catch {
    return null;
  }
};
const find = (ctx, pred) => ctx.ours.findIndex(pred);
const one = (j) => (j >= 0 ? [j] : null);
const num = (x) => (typeof x === "number" && Number.isFinite(x) ? x : 0);
const sameUsage = (a, b) => ["inputTokens", "outputTokens", "cachedTokens", "costUsd"].every((k) => Math.abs(num(a[k]) - num(b[k])) < 1e-9);

/** Kinds ours gives on purpose to what the host shows as `assistant`/`user`/`stderr`. */
const RELABEL = {
  claude: { assistant: ["stderr", "system"], user: ["system"] },
  gemini: { stderr: ["system"] },
  pi: { assistant: ["user"] },
};

export const ENTRY_DIFFERENCES = {
  "shown-once": {
    adapters: ["cursor", "pi"],
    reason:
      "a text the host shows more than once (Cursor's `--stream-partial-output` chunks before the complete message, Pi's `text_end`/`message_end`/`turn_end`/`agent_end`, which each repeat the same message and its tool results, a tool result's `message_end` shown as `assistant` text): our stateless file shows it once, on the line with the complete message (checked: it is on another line of the same run), and our stateful parser shows the chunks as deltas on their own line (checked against the golden).",
    covers(e, ctx, cov) {
      if (!["assistant", "thinking", "user", "tool_result"].includes(e.kind)) return null;
      // Pi's `message_end` of a tool result: the host shows its text as `assistant`.
      const m = ctx.v?.message;
      if (ctx.adapter === "pi" && e.kind === "assistant" && m?.role === "toolResult") e = { kind: "tool_result", toolUseId: m.toolCallId, isError: m.isError === true, content: e.text };
      if ((ctx.stateful ?? []).some((o) => cov(e, o) !== false)) return [];
      const elsewhere = ctx.fileOurs.some((entries, k) => k !== ctx.index && entries.some((o) => cov(e, o) !== false));
      return elsewhere ? [] : null;
    },
  },
  "harness-kind": {
    adapters: ["claude", "gemini", "pi"],
    reason:
      "the same text under another kind: Claude Code's own words (`<synthetic>`-model replies and API errors → `stderr`/`system`; text it adds to a user turn, `[Request interrupted by user]`, a subagent's prompt → `system`), Gemini's loop and blocked-tool warnings (the run goes on: `system` `warning: …`, not `stderr`), and a Pi user message the host shows as `assistant` (→ `user`).",
    covers(e, ctx) {
      const to = RELABEL[ctx.adapter]?.[e.kind];
      if (!to) return null;
      const v = ctx.v ?? {};
      if (ctx.adapter === "claude" && e.kind === "assistant" && v.message?.model !== "<synthetic>" && !v.error) return null;
      // Claude user text that is not the user's: `isMeta`, a subagent's prompt, a `[…]` marker.
      if (ctx.adapter === "claude" && e.kind === "user" && !v.isMeta && !v.parent_tool_use_id && !/^\[.*\]$/s.test(e.text.trim())) return null;
      if (ctx.adapter === "pi" && v.message?.role !== "user") return null;
      // Gemini: an `error` line of severity `warning` (ours: `warning: …`), or a system line.
      if (ctx.adapter === "gemini" && !(v.type === "error" && v.severity === "warning") && v.type !== "system") return null;
      return one(find(ctx, (o) => to.includes(o.kind) && has(e.text, o.text)));
    },
  },
  "claude-running-totals": {
    adapters: ["claude", "qwen"],
    reason:
      "a Claude `result` whose `total_cost_usd` and `modelUsage` are the process's running totals: the host shows the line's `total_cost_usd` and the last query's `usage`, so its run summary counts earlier prompts again and misses compaction and subagents; ours gives the process's `modelUsage` for its first prompt and, for a later one (`result_index` > 0), its `usage` and its share of the cost (docs/entries.md). Same text, isError and errors; our cost never above the host's.",
    covers(e, ctx) {
      const v = ctx.v ?? {};
      if (e.kind !== "result" || v.type !== "result" || typeof v.modelUsage !== "object" || v.modelUsage === null) return null;
      const m = Object.values(v.modelUsage).reduce((t, x) => [t[0] + num(x.inputTokens), t[1] + num(x.outputTokens), t[2] + num(x.cacheReadInputTokens)], [0, 0, 0]);
      return one(find(ctx, (o) => {
        if (o.kind !== "result" || o.isError !== e.isError || !has(e.text, o.text) || !has((e.errors ?? []).join(" "), (o.errors ?? []).join(" "))) return false;
        // Input and output as the host's (the query's `usage`) or the process's; cache reads
        // at least the host's (Qwen's parser reads none).
        const io = [o.inputTokens, o.outputTokens];
        const same = io.every((x, i) => Math.abs(num(x) - [e.inputTokens, e.outputTokens][i]) < 1e-9);
        const process = io.every((x, i) => Math.abs(num(x) - m[i]) < 1e-9);
        return (same || process) && num(o.cachedTokens) >= num(e.cachedTokens) && num(o.costUsd) <= num(e.costUsd) + 1e-12;
      }));
    },
  },
  "claude-harness-text": {
    adapters: ["claude"],
    reason:
      "Claude Code's own text around a tool's output: a `<system-reminder>` it appends to a result (to every Read) is our `reminder: …` notice after the result, not the file's content, and a `<tool_use_error>` wrapper is taken off the error; same id and isError, every word of the host's content in our result and notices.",
    covers(e, ctx) {
      if (e.kind !== "tool_result" || !/<\/?(system-reminder|tool_use_error)>/.test(e.content ?? "")) return null;
      const r = find(ctx, (o) => o.kind === "tool_result" && o.toolUseId === e.toolUseId && o.isError === e.isError);
      if (r < 0) return null;
      const notes = ctx.ours.map((o, j) => (o.kind === "system" && o.text.startsWith("reminder: ") ? j : -1)).filter((j) => j >= 0);
      const pool = [ctx.ours[r].content, ...notes.map((j) => ctx.ours[j].text)].join(" ");
      const tags = ["system", "reminder", "tool", "use", "error"];
      const set = new Set(words(pool));
      return words(e.content).every((w) => set.has(w) || tags.includes(w)) ? [r, ...notes] : null;
    },
  },
  "opencode-step-start": {
    adapters: ["opencode", "cursor"],
    reason:
      "OpenCode's `step_start` (which the host's cursor reader also takes): the host shows `step started (<session id>)` before every model call, a row of an id only; ours shows nothing (the step's `step_finish` is its result, with tokens and cost).",
    covers(e, ctx) {
      return e.kind === "system" && ctx.v?.type === "step_start" && /^step started/.test(e.text) ? [] : null;
    },
  },
  "cursor-tool-names": {
    adapters: ["cursor"],
    reason:
      "Cursor's tool-call keys (`shellToolCall`, `readToolCall`, `mcpToolCall`, …): the host names the card by the key, ours by the tool (`shell`, `read`, `mcp:<provider>/<tool>`); same id, the host's input words all in ours.",
    covers(e, ctx) {
      if (e.kind !== "tool_call" || !/ToolCall$/.test(e.name ?? "")) return null;
      const i = e.input ?? {};
      const base = e.name.replace(/ToolCall$/, "");
      const name = base === "mcp" ? `mcp:${i.providerIdentifier}/${i.toolName ?? i.name}` : base[0].toLowerCase() + base.slice(1);
      return one(find(ctx, (o) => o.kind === "tool_call" && o.name === name && o.toolUseId === e.toolUseId && has(leaves(i).join(" "), `${o.name} ${leaves(o.input).join(" ")}`)));
    },
  },
  "cursor-result-object": {
    adapters: ["cursor", "gemini"],
    reason:
      "a Cursor tool result (the Gemini reader takes the same `tool_call` events): the host shows the result object as indented JSON (`{\"success\":{\"content\":…}}`, `{\"error\":{\"errorMessage\":…}}`) or `exit 0`; ours shows its text (content, output, error message; `(no output)` for a silent command) and marks an `error` result as an error, which the host does not.",
    covers(e, ctx) {
      if (e.kind !== "tool_result") return null;
      const obj = json(e.content);
      const exit = /^exit (-?\d+)\n?/.exec(e.content ?? "");
      if (!obj && !exit) return null;
      const isError = obj ? e.isError || "error" in obj : e.isError || exit[1] !== "0";
      const need = obj ? leaves(obj).join(" ") : e.content.slice(exit[0].length).replace(/<\/?std(out|err)>/g, "");
      return one(find(ctx, (o) => o.kind === "tool_result" && o.toolUseId === e.toolUseId && o.isError === isError && has(need, o.content)));
    },
  },
  "codex-result-header": {
    adapters: ["codex"],
    reason:
      "a Codex command result: the host's content repeats the command, status and exit code above the output (`command: …\\nstatus: …\\nexit_code: …`); ours shows the output (the command is on the card, a non-zero exit as `exit code N` and an error), and a `declined` command is an error in ours (it did not run), not in the host's.",
    covers(e, ctx) {
      if (e.kind !== "tool_result" || !/^command: /.test(e.content ?? "")) return null;
      const rest = e.content.split("\n").filter((l) => !/^(command|status|exit_code): /.test(l)).join("\n");
      const declined = /\nstatus: declined(\n|$)/.test(e.content);
      return one(find(ctx, (o) => o.kind === "tool_result" && o.toolUseId === e.toolUseId && (o.isError === e.isError || (declined && o.isError)) && has(rest, o.content)));
    },
  },
  "codex-item-notice": {
    adapters: ["codex"],
    reason:
      "a Codex item the host reads only by name (`item started: web_search (id=…)`, `mcp_tool_call`, `collab_tool_call`, `todo_list`, `plan`, `reasoning started`, `file changes: update a.rs`): ours shows the item itself (the card and result with the same id, the plan or to-do list, the file change as a card with a diff naming every path), and nothing for a `started` item whose completion carries it.",
    covers(e, ctx) {
      const v = ctx.v ?? {};
      const item = v.item ?? {};
      if (e.kind !== "system" || !/^item\.(started|completed)$/.test(v.type ?? "")) return null;
      if (!/^(item (started|completed): |reasoning (started|completed)$|file changes)/.test(e.text)) return null;
      const idx = ctx.ours.map((o, j) => (o.toolUseId === item.id || o.itemId === item.id || o.kind === "diff" || (o.kind === "system" && /^todo list/.test(o.text)) ? j : -1)).filter((j) => j >= 0);
      if (/^file changes/.test(e.text)) {
        const shown = idx.map((j) => JSON.stringify(ctx.ours[j])).join(" ");
        return (item.changes ?? []).every((c) => shown.includes(c.path)) && idx.length ? idx : null;
      }
      if (idx.length) return idx;
      return ctx.ours.length === 0 && (v.type === "item.started" || item.type === "reasoning") ? [] : null;
    },
  },
  "result-reason": {
    adapters: ["opencode", "cursor"],
    reason: "an OpenCode `step_finish` (also one of the older shapes the host's cursor reader takes): the host writes the finish reason (`stop`, `length`, `tool-calls`) as the result's text; ours keeps it as the subtype (same tokens and cost).",
    covers(e, ctx) {
      if (e.kind !== "result") return null;
      return one(find(ctx, (o) => o.kind === "result" && sameUsage(o, e) && o.isError === e.isError && o.subtype === e.text && !o.text));
    },
  },
  "opencode-result-metadata": {
    adapters: ["opencode", "cursor"],
    reason:
      "an OpenCode tool result (also from the host's cursor reader, which takes OpenCode's `tool_use`): the host's content lists the status and every metadata field above the output (`status: completed\\ndiff: …\\nexit: 0\\ndescription: …`); ours shows the output (`(no output)` for none), the metadata's diff as diff entries, the duration as `durationMs`.",
    covers(e, ctx) {
      if (e.kind !== "tool_result" || !/^status: (completed|error)/.test(e.content ?? "")) return null;
      const cut = e.content.indexOf("\n\n");
      const v = ctx.v ?? {};
      const out = String(v.part?.state?.output ?? v.part?.state?.error ?? (cut >= 0 ? e.content.slice(cut + 2) : ""));
      const diffs = ctx.ours.map((o, j) => (o.kind === "diff" ? j : -1)).filter((j) => j >= 0);
      const j = find(ctx, (o) => o.kind === "tool_result" && o.toolUseId === e.toolUseId && o.isError === e.isError && has(out, o.content));
      return j >= 0 ? [j, ...diffs] : null;
    },
  },
  "pi-run-result": {
    adapters: ["pi"],
    reason:
      "Pi's `agent_end`: the host's result counts the last message's tokens, calls it `Run completed` and never an error; ours sums the tokens and cost of every assistant message of the run, takes the subtype from the last `stopReason` and marks a run that ended in `error` as an error with its message.",
    covers(e, ctx) {
      const v = ctx.v ?? {};
      if (e.kind !== "result" || v.type !== "agent_end") return null;
      const msgs = (v.messages ?? []).filter((m) => m?.role === "assistant");
      const u = (m, ...k) => num(k.map((x) => m.usage?.[x]).find((x) => x !== undefined));
      const sum = (f) => msgs.reduce((s, m) => s + f(m), 0);
      const want = { inputTokens: sum((m) => u(m, "inputTokens", "input")), outputTokens: sum((m) => u(m, "outputTokens", "output")), cachedTokens: sum((m) => u(m, "cacheRead", "cachedInputTokens")), costUsd: sum((m) => num(m.usage?.cost?.total ?? m.usage?.costUsd)) };
      const last = msgs[msgs.length - 1] ?? {};
      return one(find(ctx, (o) => o.kind === "result" && sameUsage(o, want) && o.isError === (last.stopReason === "error") && (!last.stopReason || o.subtype === last.stopReason)));
    },
  },
  "no-clutter": {
    adapters: ["codex", "claude", "qwen"],
    reason:
      "a line that says nothing a reader needs, shown by the host as a notice: Codex's `turn.started` (`turn started`; the turn's end carries its usage), Claude Code's (and Qwen Code's) background-task `task_progress` (`system: task_progress`; the task's start and end are shown) and a `rate_limit_event` whose status is `allowed` (not a limit): ours shows nothing on the line (docs/formats/codex.md, docs/formats/claude.md).",
    covers(e, ctx) {
      const v = ctx.v ?? {};
      if (e.kind !== "system" || ctx.ours.length !== 0) return null;
      if (ctx.adapter === "codex" && ["turn.started", "task_started", "turn_started"].includes(v.type ?? v.msg?.type) && /^turn started$/i.test(e.text.trim())) return [];
      const claude = ["claude", "qwen"].includes(ctx.adapter);
      if (claude && v.type === "system" && v.subtype === "task_progress" && e.text.trim() === "system: task_progress") return [];
      if (claude && v.type === "rate_limit_event" && v.rate_limit_info?.status === "allowed") return [];
      return null;
    },
  },
  "usage-row": {
    adapters: ["opencode"],
    reason:
      "an OpenCode step that ended to call tools (a model call on the way): the host's row says `tool-calls`, ours what the step counts (`tokens: 10 in · 5 out · 4 cache read`), with the same subtype and counts, so no mid-run row reads like the run's end (docs/host-e2e.md, Results).",
    covers(e, ctx) {
      if (e.kind !== "result" || e.text !== e.subtype) return null;
      return one(find(ctx, (o) => o.kind === "result" && o.subtype === e.subtype && sameUsage(o, e) && o.text.startsWith("tokens: ")));
    },
  },
  "pi-lifecycle": {
    adapters: ["pi"],
    reason: "Pi's `agent_start`/`agent_end` without usage: the host says `🚀 Pi agent started` / `✅ Pi agent finished`, ours `agent run started` / the run's result or `agent run finished`.",
    covers(e, ctx) {
      if (e.kind !== "system" || !/^(🚀|✅) Pi agent (started|finished)$/u.test(e.text)) return null;
      return one(find(ctx, (o) => (o.kind === "system" && /^agent run (started|finished)/.test(o.text)) || o.kind === "result"));
    },
  },
};

/** Listed differences that apply to every adapter. */
const ALL = ["acp", "grok", "kimi", "hermes", "hermes_gateway", "claude", "codex", "gemini", "opencode", "cursor", "pi", "openclaw_gateway", "cursor_cloud"];
Object.assign(ENTRY_DIFFERENCES, {
  "system-label": {
    adapters: ["gemini", "cursor"],
    reason: "a `system` line of a subtype the host does not read: the host says `system: <subtype>`, ours the subtype in words and its fields (`config (session_id: …)`).",
    covers(e, ctx) {
      const m = e.kind === "system" && /^system: (.+)$/.exec(e.text);
      return m ? one(find(ctx, (o) => o.kind === "system" && has(m[1].replace(/_/g, " "), o.text))) : null;
    },
  },
  "json-text": {
    adapters: ALL,
    reason: "an error or notice whose payload is an object (`{\"error\":{\"message\":\"rate limited\"}}`): the host shows the object as indented JSON, ours its text (every string of it).",
    covers(e, ctx) {
      // (Not the raw line the host falls back to: that is a whole-line difference.)
      const obj = ["stderr", "system"].includes(e.kind) && e.text.trim() !== String(ctx.line ?? "").trim() && json(e.text);
      return obj ? one(find(ctx, (o) => o.kind === e.kind && has(leaves(obj).join(" "), o.text))) : null;
    },
  },
  "bare-tool-event": {
    adapters: ["cursor", "opencode"],
    reason: "a tool event with no tool in it (`{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":…}`, an OpenCode `tool_use` without `part`): the host writes a notice (`tool_call (started)`, `tool event`), ours opens a card named `tool` under the event's id so that its result pairs with it.",
    covers(e, ctx) {
      if (e.kind !== "system" || !/^(tool_call \((started|start)\)|tool event)$/.test(e.text)) return null;
      return ctx.ours.length === 1 && ctx.ours[0].kind === "tool_call" && ctx.ours[0].name === "tool" && JSON.stringify(ctx.ours[0].input) === "{}" ? [0] : null;
    },
  },
});

/** The first listed difference covering host entry `e` on this line: {id, used} or null. */
export function entryDifference(adapter, e, ctx, cov) {
  for (const [id, d] of Object.entries(ENTRY_DIFFERENCES)) {
    if (!d.adapters.includes(adapter)) continue;
    const used = d.covers(e, { ...ctx, adapter }, cov);
    if (used) return { id, used };
  }
  return null;
}
