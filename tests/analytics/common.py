"""What the analytics tests share: where the built pieces are, the fixtures, and the CLI's
own figures (`agentlines parse` and `agentlines stats`) that the tables must equal."""

import json
import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("AGENTLINES_BIN", str(ROOT / "target/release/agentlines"))
EXTENSION = os.environ.get("AGENTLINES_DUCKDB", str(ROOT / "target/duckdb/agentlines.duckdb_extension"))
FIXTURES = ROOT / "tests/fixtures"
LOG_EXTENSIONS = (".jsonl", ".json", ".ndjson", ".log", ".txt")


def fixture_files():
    """Every file `agentlines_entries('tests/fixtures')` reads, as the CLI names it."""
    out = []
    for dirpath, dirs, files in os.walk(FIXTURES):
        dirs.sort()
        for f in sorted(files):
            if f.lower().endswith(LOG_EXTENSIONS):
                out.append(os.path.relpath(os.path.join(dirpath, f), ROOT))
    return out


def cli(*args):
    r = subprocess.run([CLI, *args], cwd=ROOT, capture_output=True, text=True)
    return r.stdout


def parsed(files):
    """`agentlines parse` of these files: {(file, line): [entry, ...]}, in order."""
    out = {}
    for line in cli("parse", "--location", *files).splitlines():
        # `file` and `line` come first; a passed-through host entry may have a `line` field
        # of its own after them, under the same name.
        pairs = json.loads(line, object_pairs_hook=Pairs)
        (fk, file), (lk, at) = pairs[0], pairs[1]
        assert (fk, lk) == ("file", "line"), line
        out.setdefault((file, at), []).append(plain(Pairs(pairs[2:])))
    return out


class Pairs(list):
    """A JSON object as its pairs, in order, duplicates kept."""


def plain(v):
    """JSON read with `Pairs`, back to dicts and lists."""
    if isinstance(v, Pairs):
        return {k: plain(x) for k, x in v}
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def stats(file):
    """`agentlines stats --json` of one file, its per-file figures (None: skipped)."""
    text = cli("stats", "--json", file)
    if not text.strip():
        return None
    files = json.loads(text)["files"]
    return files[0] if files else None


def duckdb_connection():
    import duckdb

    con = duckdb.connect(config={"allow_unsigned_extensions": "true"})
    con.execute(f"LOAD '{EXTENSION}'")
    return con


def entry_cells(e):
    """An entry of `parse` as the entries table's columns hold it (docs/tables.md)."""
    kind = e["kind"]
    rest = {k: v for k, v in e.items() if k not in ("kind", "ts")}
    text = e.get("text")
    if kind == "tool_call":
        text = e["input"]
    elif kind == "tool_result":
        text = e["content"]
    elif kind == "init":
        text = None
    elif kind not in ("assistant", "thinking", "user", "stderr", "system", "stdout", "result", "diff"):
        text = rest
    subtype = e.get("subtype") if kind == "result" else e.get("changeType") if kind == "diff" else None
    return {
        "kind": kind,
        "text": text,
        "delta": e.get("delta"),
        "tool_name": e.get("name") if kind == "tool_call" else e.get("toolName"),
        "tool_use_id": e.get("toolUseId"),
        "is_error": e.get("isError"),
        "duration_ms": e.get("durationMs"),
        "call_id": e.get("callId"),
        "subtype": subtype,
        "session_id": e.get("sessionId") if kind == "init" else None,
        "parent_tool_use_id": e.get("parentToolUseId"),
    }
