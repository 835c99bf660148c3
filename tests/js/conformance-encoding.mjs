// The conformance encoding (tests/fixtures/conformance/README.md): {"undefined":true},
// {"number":"NaN"}, {"function":true} to and from real JS values, and the comparison rule
// (an expected undefined property may be missing). Shared by every tests/js/conformance-*.
export const isTag = (v, key) => v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && key in v;
export function decode(v) {
  if (Array.isArray(v)) return v.map(decode);
  if (v === null || typeof v !== "object") return v;
  if (isTag(v, "undefined") && v.undefined === true) return undefined;
  if (isTag(v, "function") && v.function === true) return function () {};
  if (isTag(v, "number") && typeof v.number === "string") return Number(v.number);
  const o = {};
  for (const k of Object.keys(v)) Object.defineProperty(o, k, { value: decode(v[k]), enumerable: true, writable: true, configurable: true });
  return o;
}
export function encode(v) {
  if (v === undefined) return { undefined: true };
  if (typeof v === "number" && !Number.isFinite(v)) return { number: String(v) };
  if (typeof v === "function") return { function: true };
  if (Array.isArray(v)) return v.map(encode);
  if (v === null || typeof v !== "object") return v;
  const o = {};
  for (const k of Object.keys(v)) o[k] = encode(v[k]);
  return o;
}
export const isUndef = (v) => isTag(v, "undefined") && v.undefined === true;
// Why `actual` (encoded) differs from `expected`; an expected undefined property may be missing.
export function mismatch(a, e, path = "$") {
  if (Array.isArray(e)) {
    if (!Array.isArray(a) || a.length !== e.length) return `${path}: ${JSON.stringify(a)?.slice(0, 200)} != ${JSON.stringify(e).slice(0, 200)}`;
    for (let i = 0; i < e.length; i++) { const m = mismatch(a[i], e[i], `${path}[${i}]`); if (m) return m; }
    return null;
  }
  if (e && typeof e === "object" && !isUndef(e) && !isTag(e, "number") && !isTag(e, "function")) {
    if (!a || typeof a !== "object" || Array.isArray(a)) return `${path}: ${JSON.stringify(a)} is not an object`;
    const ak = Object.keys(a).filter((k) => !isUndef(a[k]) || k in e);
    const ek = Object.keys(e).filter((k) => !isUndef(e[k]) || k in a);
    if (ak.join("\u0000") !== ek.join("\u0000")) return `${path}: keys ${ak} != ${ek}`;
    for (const k of ek) { const m = mismatch(k in a ? a[k] : { undefined: true }, e[k], `${path}.${k}`); if (m) return m; }
    return null;
  }
  return JSON.stringify(a) === JSON.stringify(e) ? null : `${path}: ${JSON.stringify(a)?.slice(0, 200)} != ${JSON.stringify(e)?.slice(0, 200)}`;
}
