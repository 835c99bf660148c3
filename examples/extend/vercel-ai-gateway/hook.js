// agentlines-ui-parser --hook for sengeezer/vercel-ai-gateway-paperclip-adapter: one
// {kind, ts, payload} event per line (src/server/events.ts). Its `kind` is not a transcript
// entry's (the payload holds the fields), so agentlines alone names these lines as events.
module.exports = function (line, ts) {
  if (line.indexOf('"payload"') < 0) return undefined;
  var e;
  try { e = JSON.parse(line); } catch (err) { return undefined; }
  var p = e && e.payload;
  if (!p || typeof p !== "object") return undefined;
  switch (e.kind) {
    case "init": return [{ kind: "init", ts: ts, model: p.model || "", sessionId: p.runId || "" }];
    case "assistant_delta": return [{ kind: "assistant", ts: ts, text: p.text || "", delta: true }];
    case "assistant_message": return [{ kind: "assistant", ts: ts, text: p.text || "" }];
    case "thinking": return [{ kind: "thinking", ts: ts, text: p.text || "" }];
    case "warning": return [{ kind: "system", ts: ts, text: "warning: " + (p.message || p.type || "") }];
    case "error": return [{ kind: "stderr", ts: ts, text: p.message || "error" }];
    case "result":
      return [{
        kind: "result", ts: ts, text: p.finishReason || "", subtype: p.finishReason || "gateway",
        inputTokens: p.inputTokens || 0, outputTokens: p.outputTokens || 0, cachedTokens: p.cachedInputTokens || 0,
        costUsd: p.costUsd || 0, isError: false, errors: [],
      }];
  }
  return undefined;
};
