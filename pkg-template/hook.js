// agentlines: the extension hook's runtime (docs/extend.md). `agentlines-ui-parser --hook
// <file>` bakes a ui-parser file, this runtime and the author's hook into one script
// (pkg-template/bin/bake-hook.mjs): still one self-contained file that the host's scanner
// accepts and that never throws.
//
// The baked file is two scopes side by side: the parser with this runtime in one function,
// the hook in another, each evaluated once and joined by the last line. So the hook can
// reach none of the parser's names (it cannot replace the validator or the wasm glue) and
// the parser none of the hook's.
//
// The hook is `function (line, ts, ours) { return entries | undefined }`, called first for
// every line. `ours(line?, ts?)` is agentlines' reading of this line (or of another line,
// e.g. one the hook took out of an envelope), computed once per line; `undefined` (or null)
// hands the line to agentlines. What the hook returns is checked here for its shape (each
// item named in a notice when it is not an entry: which item, which field, what it got and
// what was expected) and then by the wasm (al_hook_entries: the same check as a line that
// already is an entry); it is bounded by the output budget of the line it came from. A hook
// that throws costs its line a notice, then agentlines' reading.

// The output budget of a line (src/formats/common/budget.rs: at least 1024 entries and 256
// KiB, more for longer lines), counted here in UTF-16 units of the line and of the entries'
// JSON; the wasm counts UTF-8 bytes under the same line's budget, so for non-ASCII text it may
// cut further, with its own notice.
function alHookLimits(lineLength) {
  return [Math.max(1024, Math.floor(lineLength / 32)), Math.max(262144, lineLength * 4)];
}

// What a value is, for a notice: `the number 42`, `a string of 3 characters ("abc")`.
function alHookWhat(v) {
  if (v === undefined) return "undefined";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array of " + v.length;
  var t = typeof v;
  if (t === "string") return v.length > 40 ? "a string of " + v.length + " characters" : "the string " + JSON.stringify(v);
  if (t === "number" || t === "boolean") return "the " + t + " " + String(v);
  if (t === "object") return "an object";
  return "a " + t;
}

// The host's entry kinds: each required field with its type (s a string, n a finite number,
// b true or false, * anything), then `?` and the optional ones. The six kinds the host writes
// itself are only named here: the wasm checks their fields.
var AL_HOOK_KINDS = {
  assistant: "text:s ? delta:b itemId:s parentToolUseId:s",
  thinking: "text:s ? delta:b itemId:s parentToolUseId:s",
  user: "text:s ? parentToolUseId:s",
  tool_call: "name:s input:* ? toolUseId:s invocationId:s actionRequestId:s parentToolUseId:s",
  tool_result: "toolUseId:s content:s ? toolName:s isError:b delta:b durationMs:n parentToolUseId:s",
  init: "model:s sessionId:s",
  result: "inputTokens:n outputTokens:n ? text:s cachedTokens:n cacheCreationTokens:n costUsd:n subtype:s isError:b",
  stderr: "text:s",
  system: "text:s",
  stdout: "text:s",
  diff: "changeType:s text:s",
  provider_activity: "", workspace_change: "", workspace_file_reference: "", runtime_request: "", run_result: "", run_terminal: ""
};
var AL_HOOK_TYPE = { s: "a string", n: "a finite number", b: "true or false", "*": "any JSON value" };

// Why item `i` is not an entry (null when its shape is right; the wasm still checks it).
function alHookWhy(item, i, maxBytes) {
  var at = "item " + i;
  if (item === null || typeof item !== "object" || Array.isArray(item)) {
    return at + " is " + alHookWhat(item) + ", expected an entry object ({ kind, ts, … })";
  }
  var kind = item.kind;
  if (typeof kind !== "string" || !Object.prototype.hasOwnProperty.call(AL_HOOK_KINDS, kind)) {
    return at + (kind === undefined ? " has no kind" : "'s kind is " + alHookWhat(kind)) +
      ", expected one of " + Object.keys(AL_HOOK_KINDS).join(", ");
  }
  var fields = AL_HOOK_KINDS[kind].split(" "), required = true;
  for (var k = 0; k < fields.length; k++) {
    if (fields[k] === "?") { required = false; continue; }
    if (fields[k] === "") continue;
    var name = fields[k].slice(0, -2), type = fields[k].slice(-1), v = item[name];
    if (v === undefined) {
      if (required) return at + " (" + kind + ") has no " + name + ", expected " + AL_HOOK_TYPE[type];
      continue;
    }
    var ok = type === "*" || (type === "s" ? typeof v === "string" : type === "b" ? typeof v === "boolean" : typeof v === "number" && isFinite(v));
    if (!ok) return at + " (" + kind + "): " + name + " is " + alHookWhat(v) + ", expected " + AL_HOOK_TYPE[type];
    if (type === "s" && v.length > maxBytes) return at + " (" + kind + "): " + name + " is " + alHookWhat(v) + ", more than this line may show (" + maxBytes + ")";
  }
  return null;
}

function alHookNotice(text, ts) {
  return { kind: "system", ts: ts, text: "the ui-parser hook " + text };
}

// The hook's result, checked: its shape here (a notice naming each item that is not an
// entry), within the line's budget, then the entries by the wasm. Answers the entries.
function alHookEntries(value, ts, lineLength) {
  if (!Array.isArray(value)) {
    return [alHookNotice("returned " + alHookWhat(value) + "; it must return an array of entries, or undefined to leave the line to agentlines", ts)];
  }
  var lim = alHookLimits(lineLength), parts = [], bytes = 2, i = 0, n = value.length;
  for (; i < n && parts.length < lim[0]; i++) {
    var item = value[i], why = alHookWhy(item, i, lim[1]), json;
    if (why !== null) item = alHookNotice("gave an entry that is not shown: " + why, ts);
    try {
      json = JSON.stringify(item);
    } catch (e) {
      json = undefined;
    }
    if (typeof json !== "string") json = JSON.stringify(alHookNotice("gave an entry that is not shown: item " + i + " cannot be written as JSON (a cycle or a BigInt)", ts));
    if (bytes + json.length > lim[1]) break;
    parts.push(json);
    bytes += json.length + 1;
  }
  var out;
  try {
    var w = alInstance();
    var m = alWrite2(w, "[" + parts.join(",") + "]", ts);
    out = JSON.parse(alRead(w, w.x.al_hook_entries(m[0], m[1], lineLength)));
  } catch (e) {
    alDropInstance();
    out = [alHookNotice("gave entries that could not be checked; this line is not shown", ts)];
  }
  if (i < n) {
    out.push(alHookNotice("gave " + n + " entries for a line of " + lineLength + " characters; the " + (n - i) +
      " past its output budget (" + lim[0] + " entries, " + lim[1] + " characters of JSON) are not shown", ts));
  }
  return out;
}

function alHookFailed(e, ts) {
  var why = "";
  try {
    why = e && typeof e.message === "string" ? e.message : String(e);
  } catch (ignored) {
    why = "an error";
  }
  return alHookNotice("failed on this line (" + why.slice(0, 300) + "); agentlines' reading follows", ts);
}

// Whether the stack has room for a call into the wasm: a hook that recursed to the stack's
// end and calls ours() there would overflow inside the wasm, and an instance interrupted
// mid-call must be dropped, with the state of every stateful parser in it. The deepest line
// (a tool call whose input nests to the reader's limit) needs 250-500 of these plain frames
// (measured in Node 20 and 24); 2000 of them cost ~6 µs, paid only by an ours() the hook
// itself calls (tests/js/extend.test.mjs shows the break without the probe).
var AL_HOOK_STACK_PROBE = 2000;
function alHookProbe(n) {
  return n <= 0 ? 0 : 1 + alHookProbe(n - 1);
}
function alHookRoom() {
  try {
    return alHookProbe(AL_HOOK_STACK_PROBE) === AL_HOOK_STACK_PROBE;
  } catch (e) {
    return false;
  }
}

// parse(line, ts) with the hook in front of it. `parse` is agentlines' own (stateless, or a
// stateful session's parseLine).
function alHooked(hook, parse) {
  return function (line, ts) {
    var l = alText(line), t = alText(ts);
    try {
      var mine = null, inHook = false;
      var ours = function (other, otherTs) {
        if (inHook && !alHookRoom()) {
          return [alHookNotice("called ours() with too little stack left (deep recursion); agentlines' reading is not shown", t)];
        }
        var o = other === undefined ? l : alText(other), ot = otherTs === undefined ? t : alText(otherTs);
        if (o === l && ot === t) {
          if (mine === null) mine = parse(l, t);
          return mine.slice();
        }
        return parse(o, ot);
      };
      if (typeof hook !== "function") return ours();
      var got, threw = false, failed;
      inHook = true;
      try {
        got = hook(l, t, ours);
      } catch (e) {
        threw = true;
        failed = e;
      } finally {
        inHook = false;
      }
      if (threw) return [alHookFailed(failed, t)].concat(ours());
      if (got === undefined || got === null) return ours();
      return alHookEntries(got, t, l.length);
    } catch (e) {
      // Only a hook that rewrote shared built-ins (JSON, Array.prototype…) gets here.
      return [{ kind: "stdout", ts: t, text: l }];
    }
  };
}

// A stateful parser whose lines go through the hook first: the whole stateful API. Raw
// chunks are split into lines here (LF or CRLF) so that every line meets the hook, each
// chunk once (what is held is never split again). A line past 16 MiB keeps its head and
// the rest is dropped until its newline: the parser then shows the head with its notice (of
// the head's length), as it does for such a line.
function alHookedParser(hook, options) {
  var p = createStdoutParser(options), line = alHooked(hook, p.parseLine), held = "", dropping = false;
  var cap = 16777217;
  function take(text, ts) {
    var out = [], start = 0, nl;
    while ((nl = text.indexOf("\n", start)) >= 0) {
      var whole = dropping ? held : held + text.slice(start, Math.min(nl, start + cap - held.length));
      held = "";
      dropping = false;
      out = out.concat(line(whole.replace(/\r$/, ""), ts));
      start = nl + 1;
    }
    if (!dropping) {
      var room = cap - held.length, rest = text.length - start;
      held += text.slice(start, start + Math.min(rest, room));
      dropping = rest > room;
    }
    return out;
  }
  return {
    parseLine: line,
    parseChunk: function (chunk, ts) {
      return take(alText(chunk), ts);
    },
    flush: function (ts) {
      var out = held === "" ? [] : line(held.replace(/\r$/, ""), ts);
      held = "";
      dropping = false;
      return out.concat(p.flush(ts));
    },
    reset: function () {
      held = "";
      dropping = false;
      p.reset();
    },
    dispose: function () {
      held = "";
      dropping = false;
      p.dispose();
    }
  };
}
