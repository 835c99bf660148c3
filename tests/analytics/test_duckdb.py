"""The DuckDB extension against the CLI, on every fixture: row for row against `agentlines
parse`, totals against `agentlines stats`, and what bad input gets (docs/tables.md)."""

import json
import os
import tempfile
import unittest

from common import EXTENSION, ROOT, duckdb_connection, entry_cells, fixture_files, parsed, stats


class DuckDBTables(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.chdir(ROOT)
        cls.con = duckdb_connection()
        cls.files = fixture_files()

    def test_entries_row_for_row(self):
        want = parsed(self.files)
        rows = self.con.execute(
            "SELECT file, line, seq, ts, kind, text, delta, tool_name, tool_use_id, is_error, duration_ms,"
            " call_id, subtype, session_id, parent_tool_use_id"
            " FROM agentlines_entries('tests/fixtures') ORDER BY file, line, seq"
        ).fetchall()
        cols = ["kind", "text", "delta", "tool_name", "tool_use_id", "is_error", "duration_ms", "call_id",
                "subtype", "session_id", "parent_tool_use_id"]
        got = {}
        for r in rows:
            got.setdefault((r[0], r[1]), []).append(r)
        self.assertEqual(sorted(got), sorted(want), "the same lines give entries")
        n = 0
        for key, entries in want.items():
            mine = got[key]
            self.assertEqual(len(mine), len(entries), key)
            for seq, (e, r) in enumerate(zip(entries, mine)):
                self.assertEqual(r[2], seq)
                # A line without a time of its own: the CLI stamps it with the time it ran.
                if r[3]:
                    self.assertEqual(r[3], e["ts"], key)
                cells = dict(zip(cols, r[4:]))
                if cells["kind"] == "tool_call" or cells["text"] and cells["kind"] not in (
                        "assistant", "thinking", "user", "stderr", "system", "stdout", "result", "diff", "tool_result"):
                    cells["text"] = json.loads(cells["text"])
                expect = entry_cells(e)
                # Without times of their own, the CLI's call and result both have the time it
                # ran, so it times the call; the table has no time, so it does not.
                # Kiro's text has no call ids: the parser makes them from the line and its time.
                if not r[3]:
                    expect["duration_ms"] = cells["duration_ms"]
                    if (expect["tool_use_id"] or "").startswith("kiro-"):
                        expect["tool_use_id"] = cells["tool_use_id"]
                # The table names a result's tool from its call when the entry does not.
                if expect["tool_name"] is None and cells["kind"] == "tool_result":
                    expect["tool_name"] = cells["tool_name"]
                self.assertEqual(cells, expect, f"{key} entry {seq}")
                n += 1
        self.assertGreater(n, 5000)

    def test_runs_equal_stats(self):
        runs = self.con.execute(
            "SELECT file, entries, results, input_tokens, cache_read_tokens, cache_write_tokens, output_tokens,"
            " reasoning_tokens, cost_usd, estimated_cost_usd, unpriced_results, errors, duration_ms, problem"
            " FROM agentlines_runs('tests/fixtures') ORDER BY file"
        ).fetchall()
        self.assertEqual([r[0] for r in runs], sorted(self.files))
        priced = 0
        for r in runs:
            s = stats(r[0])
            if r[13] is not None:
                self.assertIsNone(s, r[0])
                continue
            t = s["tokens"]
            self.assertEqual(
                r[1:8],
                (s["entries"], s["results"], t["input"], t["cacheRead"], t["cacheWrite"], t["output"], t["reasoning"]),
                r[0],
            )
            self.assertAlmostEqual(r[8], s["statedCostUsd"], places=9, msg=r[0])
            self.assertAlmostEqual(r[9], s["estimatedCostUsd"], places=9, msg=r[0])
            self.assertEqual((r[10], r[11], r[12]), (s["unpricedResults"], s["errors"], s["durationMs"] if s["firstTs"] else None), r[0])
            priced += r[9] > 0
        self.assertGreater(priced, 10, "files with an estimate")

    def test_tool_calls_equal_stats(self):
        got = {}
        for file, name, calls, errors in self.con.execute(
            "SELECT file, tool_name, count(line), count(*) FILTER (status = 'error')"
            " FROM agentlines_tool_calls('tests/fixtures') GROUP BY ALL"
        ).fetchall():
            got.setdefault(file, {})[name] = (calls, errors)
        checked = 0
        for file in self.files:
            s = stats(file)
            if s is None:
                continue
            want = {n: (t["calls"], t["errors"]) for n, t in s["tools"].items()}
            self.assertEqual(got.get(file, {}), want, file)
            checked += bool(want)
        self.assertGreater(checked, 50)

    def test_bad_input_is_named_not_a_crash(self):
        con = self.con
        with self.assertRaisesRegex(Exception, "no file matches nope/"):
            con.execute("SELECT * FROM agentlines_runs('nope/*.jsonl')").fetchall()
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaisesRegex(Exception, "holds no log file"):
                con.execute(f"SELECT * FROM agentlines_entries('{d}')").fetchall()
            binary = os.path.join(d, "a.jsonl")
            with open(binary, "wb") as f:
                f.write(b"\x7fELF\x00\x01")
            missing = os.path.join(d, "missing.jsonl")
            rows = con.execute(f"SELECT file, problem FROM agentlines_runs('{binary}')").fetchall()
            self.assertEqual(rows, [(binary, f"{binary} is binary (a NUL byte at offset 4), not agent output: skipped")])
            rows = con.execute(f"SELECT problem FROM agentlines_runs('{missing}')").fetchall()
            self.assertEqual(rows, [(f"cannot read {missing}: no such file",)])
            self.assertEqual(con.execute(f"SELECT count(*) FROM agentlines_entries('{missing}')").fetchall(), [(0,)])
            # Not a log at all: read as text, as the CLI reads it.
            text = os.path.join(d, "notes.txt")
            with open(text, "w") as f:
                f.write("hello\nworld\n")
            rows = con.execute(f"SELECT kind, text FROM agentlines_entries('{text}')").fetchall()
            self.assertEqual(rows, [("stdout", "hello"), ("stdout", "world")])
        # The connection still answers.
        self.assertEqual(con.execute("SELECT 1").fetchall(), [(1,)])

    def test_memory_is_bounded_by_a_file_not_the_glob(self):
        # 60 links to one ~8 MiB log (the Claude fixtures, repeated): ~480 MiB read by a fresh
        # DuckDB process, whose peak memory must stay far below what it read.
        import subprocess
        import sys

        with tempfile.TemporaryDirectory() as d:
            one = os.path.join(d, "one.jsonl")
            texts = [open(f, encoding="utf-8").read() for f in self.files if f.startswith("tests/fixtures/claude/")]
            with open(one, "w", encoding="utf-8") as out:
                while out.tell() < 8 << 20:
                    for t in texts:
                        out.write(t if t.endswith("\n") else t + "\n")
            for i in range(60):
                os.symlink(one, os.path.join(d, f"copy{i:02}.jsonl"))
            code = (
                "import duckdb, resource, sys\n"
                "con = duckdb.connect(config={'allow_unsigned_extensions': 'true'})\n"
                "con.execute('SET enable_progress_bar = false')\n"
                f"con.execute(\"LOAD '{EXTENSION}'\")\n"
                "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
                f"n = con.execute(\"SELECT count(*) FROM agentlines_entries('{d}/copy*.jsonl')\").fetchall()[0][0]\n"
                "print(n, before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
            )
            n, before, after = map(int, subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                                        check=True).stdout.split())
            read_mib = os.path.getsize(one) * 60 / (1 << 20)
            grew_mib = (after - before) / 1024
            self.assertGreater(n, 100000)
            self.assertLess(grew_mib, 64, f"memory grew {grew_mib:.0f} MiB reading {read_mib:.0f} MiB")

    def test_files_are_read_in_parallel_with_the_same_rows(self):
        q = "SELECT count(*), sum(output_tokens), sum(length(text)) FROM agentlines_entries('tests/fixtures/**/*.jsonl')"
        self.con.execute("SET threads = 1")
        one = self.con.execute(q).fetchall()
        self.con.execute("SET threads = 4")
        four = self.con.execute(q).fetchall()
        self.assertEqual(one, four)


if __name__ == "__main__":
    unittest.main()
