// Sessions and transcript items (src/sessions/, src/items/): the object-shaped parts of the
// API over the flat name-based calls listed in api/sessions.json. Reader objects, the
// createReader composer, the Classification reader for growing files, selection/select.
(function () {
  var readerRows = null;
  function readerInfo(name) {
    if (readerRows === null) {
      readerRows = {};
      var rows = __call("TRANSCRIPT_READERS", []);
      for (var i = 0; i < rows.length; i++) readerRows[rows[i].name] = rows[i];
    }
    return readerRows[name];
  }

  // One bundled reader: { format, label, detect(input), read(input) }.
  function bundled(name) {
    var r = {
      detect: function (input) { return __call(name + "_detect", [input]); },
      read: function (input) { return __call(name + "_read", [input]); }
    };
    Object.defineProperty(r, "format", { enumerable: true, get: function () { return readerInfo(name).format; } });
    Object.defineProperty(r, "label", { enumerable: true, get: function () { return readerInfo(name).label; } });
    return Object.freeze(r);
  }

  exports.claudeCodeReader = bundled("claudeCode");
  exports.codexReader = bundled("codex");
  exports.moleculeIdeReader = bundled("moleculeIde");
  exports.autodetectReader = bundled("autodetect");
  exports.findPatches = function (input) { return __call("codex_findPatches", [input]); };
  exports.writesOfPatch = function (patch) { return __call("codex_writesOfPatch", [patch]); };

  // Compose readers (bundled or your own): the first whose detect() accepts the input reads it.
  exports.createReader = function (readers) {
    var list = Array.prototype.slice.call(readers);
    var labels = list.map(function (r) { return r.label; });
    var pick = function (input) {
      for (var i = 0; i < list.length; i++) if (list[i].detect(input)) return list[i];
      return undefined;
    };
    return {
      format: "autodetect",
      label: labels.join(", "),
      detect: function (input) { return pick(input) !== undefined; },
      read: function (input) {
        var reader = pick(input);
        if (reader === undefined) {
          // Throws the contract's message ("No transcript reader recognizes …").
          return __call("transcriptNotRecognized", [labels, { fileName: input == null ? undefined : input.fileName }]);
        }
        return reader.read(input);
      }
    };
  };

  // A transcript read as items while it is still being written. Items a later chunk links
  // to (a call's result_item, an agent's agent_id) are updated in place, as upstream does.
  function Classification() {
    this._state = null;
    this._made = 0;
    this._watch = new Map();
  }
  Classification.prototype.readChunk = function (chunk, start) {
    var r = __call("Classification_readChunk", [this._state, chunk, start === undefined ? 0 : start]);
    for (var i = 0; i < r.updates.length; i++) {
      var u = r.updates[i];
      var target = this._watch.get(u.ordinal);
      if (target !== undefined) target[u.field] = u.value;
    }
    var base = this._made;
    var keep = new Map();
    for (var j = 0; j < r.watch.length; j++) {
      var at = r.watch[j];
      var item = at >= base ? r.items[at - base] : this._watch.get(at);
      if (item !== undefined) keep.set(at, item);
    }
    this._watch = keep;
    this._made = base + r.items.length;
    this._state = r.state;
    return r.items;
  };
  exports.Classification = Classification;

  // Which items a dump keeps: { elements, ids, keeps(type) }.
  exports.selection = function (ask, presets) {
    var s = __call("selection", [ask === undefined ? {} : ask, presets === undefined ? [] : presets]);
    var known = new Map();
    return {
      elements: s.elements,
      ids: s.ids,
      keeps: function (type) {
        if (known.has(type)) return known.get(type);
        var kept = __call("selection_keeps", [s.elements, type]);
        known.set(type, kept);
        return kept;
      }
    };
  };

  // The items a selection keeps (the same objects, in order) and how many of each type.
  exports.select = function (items, keep) {
    var kept = [];
    var entries = {};
    for (var i = 0; i < items.length; i++) {
      var item = items[i];
      if (!keep.keeps(item.type)) continue;
      kept.push(item);
      var n = Object.prototype.hasOwnProperty.call(entries, item.type) ? entries[item.type] : 0;
      Object.defineProperty(entries, item.type, { value: n + 1, writable: true, enumerable: true, configurable: true });
    }
    return { items: kept, entries: entries };
  };
})();
