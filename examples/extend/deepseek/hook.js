// agentlines-ui-parser --hook for GoPro3400/paperclip_adapter_deepseek: its run log is one
// `deepseek.*` JSON event per line (src/server/events.ts). Every other line: agentlines.
module.exports = function (line, ts) {
  if (line.indexOf('"type":"deepseek.') < 0) return undefined;
  var e;
  try { e = JSON.parse(line); } catch (err) { return undefined; }
  var u = e.usage || {};
  switch (e.type) {
    case "deepseek.init": return [{ kind: "init", ts: ts, model: e.model, sessionId: e.sessionId }];
    case "deepseek.text_delta": return [{ kind: "assistant", ts: ts, text: e.text, delta: true }];
    case "deepseek.thinking_delta": return [{ kind: "thinking", ts: ts, text: e.text, delta: true }];
    case "deepseek.assistant": return [{ kind: "assistant", ts: ts, text: e.text }];
    case "deepseek.thinking": return [{ kind: "thinking", ts: ts, text: e.text }];
    case "deepseek.user": return [{ kind: "user", ts: ts, text: e.text }];
    case "deepseek.tool_call": return [{ kind: "tool_call", ts: ts, name: e.name, input: e.input, toolUseId: e.toolCallId }];
    case "deepseek.tool_result":
      return [{ kind: "tool_result", ts: ts, toolUseId: e.toolCallId, toolName: e.name, content: e.output, isError: e.isError === true, durationMs: e.durationMs }];
    case "deepseek.status": return [{ kind: "system", ts: ts, text: e.message }];
    case "deepseek.warning": return [{ kind: "system", ts: ts, text: "warning: " + e.message }];
    case "deepseek.error": return [{ kind: "stderr", ts: ts, text: e.message }];
    // A turn's usage is part of the run's: only the run's result carries tokens (the host sums results).
    case "deepseek.turn": return [{ kind: "system", ts: ts, text: "turn " + e.turn + " ended (" + (e.finishReason || "no finish reason") + ", " + e.toolCalls + " tool calls)" }];
    case "deepseek.result":
      return [{
        kind: "result", ts: ts, text: e.summary || "", subtype: e.status + ":" + e.stopReason,
        inputTokens: u.cacheMissTokens || 0, cachedTokens: u.cacheHitTokens || 0, outputTokens: u.completionTokens || 0,
        costUsd: e.costUsd || 0, isError: e.status !== "completed", errors: e.errors || [],
      }];
  }
  return undefined;
};
