"""The Python module (the wheel `make python` builds) against the DuckDB extension and the
CLI, on every fixture: the same rows, bytes read like files, Arrow usable from DuckDB."""

import os
import unittest

import agentlines
import pyarrow as pa

from common import ROOT, duckdb_connection, fixture_files, stats

TABLES = ("entries", "runs", "tool_calls")


class PythonTables(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.chdir(ROOT)
        cls.con = duckdb_connection()

    def test_the_same_rows_as_duckdb(self):
        for name in TABLES:
            cols = [f.name for f in agentlines.schema(name)]
            order = {"entries": "file, line, seq", "runs": "file",
                     "tool_calls": "file, line NULLS FIRST, result_line, tool_use_id"}[name]
            mine = agentlines.table(name, "tests/fixtures").read_all()
            self.assertEqual(mine.schema.names, cols)
            # The module's Arrow table, queried by DuckDB itself, against the extension.
            arrow = self.con.execute(f"SELECT * FROM mine ORDER BY {order}").fetchall()
            ext = self.con.execute(f"SELECT * FROM agentlines_{name}('tests/fixtures') ORDER BY {order}").fetchall()
            self.assertEqual(len(arrow), len(ext), name)
            # DuckDB reads Arrow's UTC timestamps as TIMESTAMPTZ, the extension's as TIMESTAMP.
            strip = lambda rows: [tuple(v.replace(tzinfo=None) if hasattr(v, "tzinfo") and v.tzinfo else v
                                        for v in r) for r in rows]
            self.assertEqual(strip(arrow), strip(ext), name)
            self.assertGreater(len(ext), 40, name)

    def test_runs_total_equal_stats(self):
        runs = agentlines.runs("tests/fixtures/claude").read_all().to_pylist()
        for r in runs:
            s = stats(r["file"])
            self.assertEqual(r["output_tokens"], s["tokens"]["output"], r["file"])
            self.assertAlmostEqual(r["cost_usd"] + r["estimated_cost_usd"], s["costUsd"], places=9, msg=r["file"])

    def test_polars_and_pandas_take_the_batches(self):
        import polars as pl

        table = agentlines.runs("tests/fixtures/codex").read_all()
        df = pl.from_arrow(table)
        self.assertEqual(df.height, table.num_rows)
        self.assertEqual(df["output_tokens"].sum(), sum(table["output_tokens"].to_pylist()))
        self.assertEqual(df.schema["start_time"], pl.Datetime("us", "UTC"))
        frame = agentlines.tool_calls("tests/fixtures/claude").read_all().to_pandas()
        self.assertEqual(len(frame), agentlines.tool_calls("tests/fixtures/claude").read_all().num_rows)
        self.assertGreater(frame["tool_name"].nunique(), 5)

    def test_bytes_read_like_files(self):
        files = fixture_files()[::7]
        for name in TABLES:
            for f in files:
                with open(f, "rb") as fh:
                    data = fh.read()
                a = agentlines.read_bytes(name, f, data).read_all()
                b = agentlines.table(name, f).read_all()
                self.assertTrue(a.equals(b), f"{name} {f}")

    def test_paths_as_pathlib_and_lists(self):
        import pathlib

        one = agentlines.runs("tests/fixtures/codex").read_all()
        self.assertTrue(agentlines.runs(pathlib.Path("tests/fixtures/codex")).read_all().equals(one))
        both = agentlines.runs([pathlib.Path("tests/fixtures/codex"), "tests/fixtures/gemini"]).read_all()
        gemini = agentlines.runs(("tests/fixtures/gemini",)).read_all()
        self.assertEqual(both.num_rows, one.num_rows + gemini.num_rows)

    def test_batches_stream(self):
        reader = agentlines.entries("tests/fixtures")
        self.assertIsInstance(reader, pa.RecordBatchReader)
        sizes = [b.num_rows for b in reader]
        self.assertGreater(len(sizes), 3)
        self.assertLessEqual(max(sizes), 2048)

    def test_bad_input(self):
        with self.assertRaisesRegex(ValueError, "no file matches nope/"):
            agentlines.runs("nope/*.jsonl")
        with self.assertRaisesRegex(ValueError, "the tables are entries, runs and tool_calls"):
            agentlines.table("sessions", "tests/fixtures")
        with self.assertRaisesRegex(ValueError, "give a path"):
            agentlines.runs(42)
        with self.assertRaisesRegex(ValueError, "give a path"):
            agentlines.runs(["tests/fixtures/codex", 42])
        rows = agentlines.runs("no/such.jsonl").read_all().to_pylist()
        self.assertEqual(rows[0]["problem"], "cannot read no/such.jsonl: no such file")
        rows = agentlines.read_bytes("runs", "x.jsonl", b"\x00\x01").read_all().to_pylist()
        self.assertIn("binary", rows[0]["problem"])


if __name__ == "__main__":
    unittest.main()
