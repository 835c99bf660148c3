"""Spark in local mode (two workers) over the fixtures with `mapInArrow`, the way a cluster
runs it over object storage: totals equal the CLI's (docs/tables.md, README Analytics)."""

import os
import sys
import unittest

from common import ROOT, fixture_files, stats


class SparkTables(unittest.TestCase):
    def test_spark_totals_equal_the_cli(self):
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        from pyspark.sql import SparkSession
        from pyspark.sql.pandas.types import from_arrow_schema
        import agentlines

        root = str(ROOT)

        def runs_of(batches):
            """mapInArrow's function (defined here: Spark ships it to its workers by value):
            each input row is one file, `binaryFile`'s path and bytes; out come that file's
            runs rows as Arrow record batches."""
            import agentlines

            for b in batches:
                for path, content in zip(b.column("path").to_pylist(), b.column("content").to_pylist()):
                    name = os.path.relpath(path.removeprefix("file:"), root)
                    yield from agentlines.read_bytes("runs", name, content)

        spark = (SparkSession.builder.master("local[2]").appName("agentlines-test")
                 .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").config("spark.driver.host", "127.0.0.1")
                 .config("spark.sql.session.timeZone", "UTC").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        try:
            schema = from_arrow_schema(agentlines.schema("runs"))
            files = (spark.read.format("binaryFile").option("recursiveFileLookup", "true")
                     .option("pathGlobFilter", "*.jsonl").load(str(ROOT / "tests/fixtures")))
            runs = files.select("path", "content").mapInArrow(runs_of, schema)
            got = {r["file"]: r for r in runs.collect()}
        finally:
            spark.stop()
        want_files = [f for f in fixture_files() if f.endswith(".jsonl")]
        self.assertEqual(sorted(got), sorted(want_files))
        out = cost = 0
        for f in want_files:
            s = stats(f)
            if s is None:
                continue
            out += s["tokens"]["output"]
            cost += s["costUsd"]
            self.assertEqual(got[f]["output_tokens"], s["tokens"]["output"], f)
            self.assertEqual(got[f]["entries"], s["entries"], f)
        self.assertAlmostEqual(sum(r["cost_usd"] + r["estimated_cost_usd"] for r in got.values()), cost, places=6)
        self.assertEqual(sum(r["output_tokens"] for r in got.values()), out)
        self.assertGreater(out, 100000)


if __name__ == "__main__":
    unittest.main()
