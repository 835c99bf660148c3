// agentlines: the extension hook's runtime (docs/extend.md). `agentlines-ui-parser --hook
// <file>` appends this, then the author's hook wrapped in its own scope, to a ui-parser file
// (pkg-template/bin/bake-hook.mjs): the result is still one self-contained script that the
// host's scanner accepts and that never throws.
//
// The hook is `function (line, ts, ours) { return entries | undefined }`, called first for
// every line. `ours(line?, ts?)` is agentlines' reading of this line (or of another line,
// e.g. one the hook took out of an envelope), computed once per line; `undefined` (or null)
// hands the line to agentlines. What the hook returns goes through the same checks as a
// line that already is an entry (the wasm's al_hook_entries): each a `kind` entry with its
// fields' types right, else a notice. A hook that throws costs its line a notice, then
// agentlines' reading.

// The hook's result, checked by the wasm.
function alHookEntries(value, ts) {
  var json = "";
  try {
    json = JSON.stringify(value);
  } catch (e) {
    json = "";
  }
  if (typeof json !== "string") json = "";
  try {
    var w = alInstance();
    var n = alWrite2(w, json, ts);
    return JSON.parse(alRead(w, w.x.al_hook_entries(n[0], n[1])));
  } catch (e) {
    alDropInstance();
    return [{ kind: "system", ts: ts, text: "the ui-parser hook's entries could not be checked; this line is not shown" }];
  }
}

function alHookNotice(e, ts) {
  var why = "";
  try {
    why = e && typeof e.message === "string" ? e.message : String(e);
  } catch (ignored) {
    why = "an error";
  }
  return { kind: "system", ts: ts, text: "the ui-parser hook failed on this line (" + why.slice(0, 300) + "); agentlines' reading follows" };
}

// parse(line, ts) with the hook in front of it. `parse` is agentlines' own (stateless, or a
// stateful session's parseLine).
function alHooked(hook, parse) {
  return function (line, ts) {
    var l = alText(line), t = alText(ts), mine = null;
    var ours = function (other, otherTs) {
      var o = other === undefined ? l : alText(other), ot = otherTs === undefined ? t : alText(otherTs);
      if (o === l && ot === t) {
        if (mine === null) mine = parse(l, t);
        return mine.slice();
      }
      return parse(o, ot);
    };
    if (typeof hook !== "function") return ours();
    var got;
    try {
      got = hook(l, t, ours);
    } catch (e) {
      return [alHookNotice(e, t)].concat(ours());
    }
    if (got === undefined || got === null) return ours();
    return alHookEntries(got, t);
  };
}

// A stateful parser whose lines go through the hook first (the host calls parseLine and
// reset; raw chunks are not split here).
function alHookedParser(hook, options) {
  var p = createStdoutParser(options);
  return { parseLine: alHooked(hook, p.parseLine), reset: p.reset, dispose: p.dispose };
}
