//@@CALL_BEGIN
// Name-based calls into the core (src/api.rs): arguments go over as one JSON array with the
// values JSON cannot hold tagged, the answer comes back as {"ok": value} or {"throws": msg}.
// A tag is an object whose only key is "$js"; real data keys "$js", "$$js", ... travel with
// one more "$" (src/api.rs), so data of a tag's shape comes back as the same data.
var AL_TAG_KEY = /^\$+js$/;

// A copy of o with its tag-like keys escaped (o itself when it has none), in o's key order.
function alEscapeKeys(o) {
  var keys = Object.keys(o), i = 0;
  while (i < keys.length && !AL_TAG_KEY.test(keys[i])) i++;
  if (i === keys.length) return o;
  var out = {};
  for (i = 0; i < keys.length; i++) {
    var k = AL_TAG_KEY.test(keys[i]) ? "$" + keys[i] : keys[i];
    Object.defineProperty(out, k, { value: o[keys[i]], writable: true, enumerable: true, configurable: true });
  }
  return out;
}

function alEncodeArg(key, value) {
  if (value === undefined) return { $js: "undefined" };
  if (typeof value === "number" && value !== value) return { $js: "NaN" };
  if (value === Infinity) return { $js: "Infinity" };
  if (value === -Infinity) return { $js: "-Infinity" };
  if (typeof value === "function") return { $js: "function" };
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "symbol") return { $js: "undefined" };
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return alEscapeKeys(value);
  return value;
}

function alTagValue(tag) {
  if (tag === "NaN") return NaN;
  if (tag === "Infinity") return Infinity;
  if (tag === "-Infinity") return -Infinity;
  if (tag === "function") return function () {};
  return undefined;
}

// Replaces tagged values in a JSON.parse result, in place. Keys are (re)defined with
// defineProperty so a "__proto__" key stays an own property and never touches a prototype.
function alDecodeValue(v) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    for (var i = 0; i < v.length; i++) {
      var d = alDecodeValue(v[i]);
      if (d !== v[i]) v[i] = d;
    }
    return v;
  }
  var keys = Object.keys(v);
  if (keys.length === 1 && keys[0] === "$js" && typeof v.$js === "string") return alTagValue(v.$js);
  var renamed = false;
  for (var k = 0; k < keys.length; k++) {
    if (keys[k].length > 3 && AL_TAG_KEY.test(keys[k])) renamed = true;
    var old = v[keys[k]];
    var dec = alDecodeValue(old);
    if (dec !== old) {
      Object.defineProperty(v, keys[k], { value: dec, writable: true, enumerable: true, configurable: true });
    }
  }
  if (!renamed) return v;
  // Unescape "$$js" -> "$js" into a new object, keeping the key order.
  var out = {};
  for (k = 0; k < keys.length; k++) {
    var name = keys[k].length > 3 && AL_TAG_KEY.test(keys[k]) ? keys[k].slice(1) : keys[k];
    Object.defineProperty(out, name, { value: v[keys[k]], writable: true, enumerable: true, configurable: true });
  }
  return out;
}

function __call(name, args) {
  var answer, json;
  // Reading the arguments (a getter or proxy that throws, a cycle) fails here, before the
  // wasm is touched: the shared instance, and every live parser's state in it, stays.
  try {
    json = JSON.stringify(Array.prototype.slice.call(args), alEncodeArg);
  } catch (e) {
    var bad = new Error("agentlines: " + name + ": the arguments cannot be read as JSON (" + (e && e.message) + ")");
    bad.cause = e;
    throw bad;
  }
  try {
    var w = alInstance();
    var n = alWrite2(w, alText(name), json);
    answer = JSON.parse(alRead(w, w.x.al_call(n[0], n[1])));
    alTrim(w);
  } catch (e) {
    alRethrowNoWasm(e);
    alDropInstance();
    throw new Error("agentlines: " + name + " failed inside the wasm core");
  }
  if (answer && Object.prototype.hasOwnProperty.call(answer, "throws")) throw new Error(answer.throws);
  return alDecodeValue(answer.ok);
}
//@@CALL_END
