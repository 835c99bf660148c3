// The host's calling and caching, re-created (HOST.md): shared by `make bench-host`
// in Node (bench/host.mjs) and in headless Chromium (bench/host-browser.mjs), so both run the
// very same render loop. Browser-safe: no Node imports.
//
// Results are cached per line; the stateless key is ts + "\0" + line; the stateful key of
// line n is line n-1's key + this line (so key n holds every earlier line); each result
// crosses postMessage (modelled with structuredClone); the transcript merges consecutive
// `delta: true` entries of the same kind. A render walks every line: key, cache look-up, on
// a miss a parse (+ clone) stored in the cache, then the merged transcript. Render 1 is the
// run arriving (every line a miss); later renders are the re-renders as results arrive
// (every line a hit, keys rebuilt).

const now = () => performance.now();

export const KEY = {
  stateless: () => (line, ts) => ts + "\0" + line,
  // Key n = key n-1 + this line: a fresh closure per render, as the host rebuilds keys.
  chained: () => {
    let prev = "";
    return (line, ts) => (prev = prev + "\n" + ts + "\0" + line);
  },
};

const DELTA_FIELD = { assistant: "text", thinking: "text", tool_result: "content" };

/** The transcript view's merge: consecutive delta entries of one kind become one. */
export function mergeDeltas(entries) {
  const out = [];
  for (const e of entries) {
    const last = out[out.length - 1];
    const f = DELTA_FIELD[e.kind];
    if (f && e.delta === true && last && last.delta === true && last.kind === e.kind) {
      out[out.length - 1] = { ...last, [f]: String(last[f] ?? "") + String(e[f] ?? "") };
    } else {
      out.push(e);
    }
  }
  return out;
}

/** Renders a run `renders` times the host's way; returns timings and the last transcript. */
export function renderRun(lines, tsList, { parse, key, clone, renders = 2, onLine }) {
  const cache = new Map();
  const renderMs = [];
  let parseMs = 0;
  let transcript = [];
  for (let r = 0; r < renders; r++) {
    const t0 = now();
    const keyOf = KEY[key]();
    const all = [];
    for (let i = 0; i < lines.length; i++) {
      const k = keyOf(lines[i], tsList[i]);
      let res = cache.get(k);
      if (res === undefined) {
        const p0 = now();
        res = parse(lines[i], tsList[i]);
        if (clone) res = structuredClone(res);
        parseMs += now() - p0;
        cache.set(k, res);
      }
      for (let j = 0; j < res.length; j++) all.push(res[j]);
      if (onLine && (i & 63) === 0) onLine();
    }
    transcript = mergeDeltas(all);
    renderMs.push(now() - t0);
  }
  return { renderMs, parseMs, entries: transcript.length, cacheSize: cache.size };
}
