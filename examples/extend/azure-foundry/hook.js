// agentlines-ui-parser --hook for claudiosanchez/azure-foundry-paperclip-adapter: `AF::` + one
// JSON event (src/server/common.ts `emit`). agentlines takes the prefix off by itself and shows
// an entry inside as it is; this reads the adapter's own events.
module.exports = function (line, ts) {
  if (line.slice(0, 4) !== "AF::") return undefined;
  var e;
  try { e = JSON.parse(line.slice(4)); } catch (err) { return undefined; }
  switch (e.kind) {
    case "token": return [{ kind: "assistant", ts: ts, text: e.text, delta: true }];
    case "thinking": return [{ kind: "thinking", ts: ts, text: e.text, delta: true }];
    case "tool_call":
      var input;
      try { input = JSON.parse(e.arguments || "{}"); } catch (err) { input = { arguments: e.arguments }; }
      return [{ kind: "tool_call", ts: ts, name: e.name, input: input, toolUseId: e.id }];
    // The adapter writes a failed tool's result as {"error": …}.
    case "tool_result": return [{ kind: "tool_result", ts: ts, toolUseId: e.id, content: e.content, isError: /^\{"error"/.test(e.content) }];
    // One usage event, with the run's totals, just before `finish`.
    case "usage":
      return [{ kind: "result", ts: ts, text: "", subtype: "usage", inputTokens: e.input || 0, outputTokens: e.output || 0, cachedTokens: 0, costUsd: 0, isError: false, errors: [] }];
    case "finish": return [{ kind: "system", ts: ts, text: "finished: " + e.reason }];
    case "error": return [{ kind: "stderr", ts: ts, text: e.message }];
    case "log": return [{ kind: e.level === "error" ? "stderr" : "system", ts: ts, text: e.message }];
  }
  return undefined;
};
