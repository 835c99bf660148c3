"""`make bench` (analytics part): the tables inside DuckDB and Spark against the CLI, on the
same files in the same run, and DuckDB's own `read_json` on the same big log.

    target/pyenv/bin/python bench/analytics.py [--runs N] [--no-write]

1. A ~100 MB Claude Code session log (the shared corpus's Claude session files, repeated,
   each copy's message and request ids made its own): `agentlines_runs` (the right totals)
   against `read_json` summing `message.usage` over every assistant line (what naive SQL
   does; the wrong totals, shown beside the right ones), and `agentlines stats`.
2. Throughput per core over a folder of session files (`target/bench-stats`, made by
   bench/stats.mjs or here): the CLI, `agentlines_runs` in DuckDB and `mapInArrow` in Spark
   local mode, each with one and two workers.
3. A 10 GB glob (100 links to the big log): time and peak memory of `agentlines_runs`.
4. On paper, from those rates: what a 1 TB archive takes on N cores and N machines.

Writes the tables into docs/tables.md and a summary into docs/bench.md (both between
`bench:analytics` markers). Not a test: nothing fails on a slow number.
"""

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
CLI = ROOT / "target/release/agentlines"
EXT = ROOT / "target/duckdb/agentlines.duckdb_extension"
WORK = ROOT / "target/bench-analytics"
RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
WRITE = "--no-write" not in sys.argv


def corpus():
    for c in (ROOT.parent / "shared/corpus", ROOT / "../shared/corpus"):
        if c.is_dir():
            return c
    return None


def sources(c):
    files = sorted((c / "claude-session-jsonl").glob("*.jsonl")) + sorted((c / "bench").glob("claude-session*.jsonl"))
    # The one file read differently on purpose (docs/costs.md), as in bench/stats.mjs.
    return [f for f in files if "happy-duplicate-assistant-response" not in f.name]


def own_ids(text, i):
    return text.replace('"id":"msg_', f'"id":"msg_c{i}_').replace('"requestId":"req_', f'"requestId":"req_c{i}_')


def big_log(c):
    path = WORK / "claude-100mb.jsonl"
    if path.exists():
        return path
    WORK.mkdir(parents=True, exist_ok=True)
    texts = [f.read_text() for f in sources(c)]
    size, i = 0, 0
    with open(path, "w") as out:
        while size < 100 << 20:
            for t in texts:
                t = own_ids(t, i)
                out.write(t if t.endswith("\n") else t + "\n")
                size += len(t.encode())
            i += 1
    return path


def folder(c):
    """bench/stats.mjs's folder when it is there, else the same made here (40 copies)."""
    d = ROOT / "target/bench-stats/projects"
    if d.is_dir():
        return d
    for i in range(40):
        p = d / f"p{i}"
        p.mkdir(parents=True, exist_ok=True)
        for f in sources(c):
            (p / f.name).write_text(own_ids(f.read_text(), i))
    return d


def timed(fn):
    """Median, min and max seconds of RUNS calls (one warm-up first), and the last answer."""
    fn()
    ts, out = [], None
    for _ in range(RUNS):
        t = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), min(ts), max(ts), out


def duck(threads):
    import duckdb

    con = duckdb.connect(config={"allow_unsigned_extensions": "true", "threads": str(threads)})
    con.execute("SET enable_progress_bar = false")
    con.execute(f"LOAD '{EXT}'")
    return con


def mb(path):
    if path.is_dir():
        return sum(f.stat().st_size for f in path.rglob("*.jsonl")) / (1 << 20)
    return path.stat().st_size / (1 << 20)


def fmt(t, size):
    med, lo, hi, _ = t
    return f"{med * 1000:.0f} ms ({lo * 1000:.0f}–{hi * 1000:.0f})", f"{size / med:.0f} MiB/s"


def naive_sql(con, path):
    return con.execute(
        "SELECT sum(message.usage.input_tokens), sum(message.usage.output_tokens),"
        " sum(message.usage.cache_read_input_tokens), sum(message.usage.cache_creation_input_tokens)"
        f" FROM read_json('{path}', format = 'newline_delimited', ignore_errors = true,"
        " columns = {type: 'VARCHAR', message: 'STRUCT(usage STRUCT(input_tokens BIGINT, output_tokens BIGINT,"
        " cache_read_input_tokens BIGINT, cache_creation_input_tokens BIGINT))'})"
        " WHERE type = 'assistant'"
    ).fetchall()[0]


def ours_sql(con, path):
    return con.execute(
        "SELECT sum(input_tokens), sum(output_tokens), sum(cache_read_tokens), sum(cache_write_tokens),"
        f" sum(cost_usd + estimated_cost_usd) FROM agentlines_runs('{path}')"
    ).fetchall()[0]


def cli_stats(path, jobs=1):
    r = subprocess.run([str(CLI), "stats", "--json", "-j", str(jobs), str(path)], capture_output=True, text=True, check=True)
    t = json.loads(r.stdout)["total"]["tokens"]
    return t["input"], t["output"], t["cacheRead"], t["cacheWrite"]


def spark_rate(path, workers, parse=True):
    """Seconds of a Spark local[workers] job summing the runs table over `path` (session
    start not counted), in a process of its own; `parse=False`: the same job handing each
    file's bytes to the Python worker and reading none (what Spark itself costs)."""
    code = f"""
import os, sys, time
os.environ["PYSPARK_PYTHON"] = sys.executable
os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
from pyspark.sql import SparkSession
from pyspark.sql.pandas.types import from_arrow_schema
import agentlines
spark = (SparkSession.builder.master("local[{workers}]").config("spark.ui.enabled", "false")
         .config("spark.ui.showConsoleProgress", "false").config("spark.driver.bindAddress", "127.0.0.1")
         .getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
def runs_of(batches):
    import agentlines
    for b in batches:
        for p, c in zip(b.column("path").to_pylist(), b.column("content").to_pylist()):
            if {parse}:
                yield from agentlines.read_bytes("runs", p, c)
schema = from_arrow_schema(agentlines.schema("runs"))
def job():
    df = spark.read.format("binaryFile").option("recursiveFileLookup", "true").load("{path}")
    return df.select("path", "content").mapInArrow(runs_of, schema).groupBy().sum("output_tokens").collect()[0][0]
job()
ts = []
for _ in range({RUNS}):
    t = time.perf_counter(); out = job(); ts.append(time.perf_counter() - t)
ts.sort()
print(ts[len(ts) // 2], ts[0], ts[-1], out)
spark.stop()
"""
    r = subprocess.run([PY, "-c", code], capture_output=True, text=True, check=True)
    med, lo, hi, out = r.stdout.split()[-4:]
    return float(med), float(lo), float(hi), 0 if out == "None" else int(out)


def peak_rss_mb(code):
    """Runs `code` in a fresh Python; what it printed and its own peak resident memory."""
    code += "\nimport resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    r = subprocess.run([PY, "-c", code], capture_output=True, text=True, check=True)
    out, rss = r.stdout.strip().rsplit("\n", 1)
    return out, int(rss) / 1024


def main():
    c = corpus()
    if c is None:
        print("analytics bench: no shared corpus beside the tree; skipped")
        return
    big = big_log(c)
    big_mb = mb(big)
    rows = []

    # 1. The big log: right totals as fast as the wrong ones?
    con = duck(1)
    naive = timed(lambda: naive_sql(con, big))
    ours = timed(lambda: ours_sql(con, big))
    cli = timed(lambda: cli_stats(big))
    right, wrong = ours[3], naive[3]
    ratio = naive[0] / ours[0]

    # 2. Throughput over a folder, one and two workers.
    d = folder(c)
    d_mb = mb(d)
    glob = f"{d}/**/*.jsonl"
    scale = []
    for w in (1, 2):
        cw = duck(w)
        scale.append(("DuckDB `agentlines_runs`", w, timed(lambda: cw.execute(f"SELECT sum(output_tokens) FROM agentlines_runs('{glob}')").fetchall())))
    for w in (1, 2):
        scale.append(("CLI `agentlines stats`", w, timed(lambda: cli_stats(d, w))))
    for w in (1, 2):
        scale.append(("Spark `mapInArrow` (local)", w, spark_rate(d, w)))
    scale.append(("Spark, bytes to Python only (no reading)", 1, spark_rate(d, 1, parse=False)))

    # 3. A 10 GB glob: time and memory.
    links = WORK / "10gb"
    links.mkdir(exist_ok=True)
    for i in range(100):
        link = links / f"copy{i:03}.jsonl"
        if not link.exists():
            link.symlink_to(big)
    ten_gb = mb(big) * 100 / 1024
    t = time.perf_counter()
    out, rss = peak_rss_mb(
        "import duckdb\n"
        "con = duckdb.connect(config={'allow_unsigned_extensions': 'true'})\n"
        "con.execute('SET enable_progress_bar = false')\n"
        f"con.execute(\"LOAD '{EXT}'\")\n"
        f"print(con.execute(\"SELECT count(*), sum(output_tokens) FROM agentlines_runs('{links}/*.jsonl')\").fetchall())"
    )
    ten_s = time.perf_counter() - t

    # The report.
    lines = [
        f"Machine: {os.cpu_count()} cores; DuckDB 2.0.1 (PyPI), PySpark 4.3.0 local mode, Java "
        f"{subprocess.run(['java', '-version'], capture_output=True, text=True).stderr.split()[2].strip(chr(34))}; "
        f"median of {RUNS} runs (min–max) after one warm-up, same run for every row.",
        "",
        f"**A {big_mb:.0f} MiB Claude Code session log, one thread** (`bench/analytics.py`):",
        "",
        "| query | time | rate | input | output | cache read | cache write |",
        "|---|---|---|---|---|---|---|",
        "| DuckDB `read_json`, `sum(message.usage.*)` over assistant lines (wrong) | "
        + " | ".join(fmt(naive, big_mb)) + " | " + " | ".join(f"{v:,}" for v in wrong) + " |",
        "| DuckDB `agentlines_runs` (right) | " + " | ".join(fmt(ours, big_mb)) + " | "
        + " | ".join(f"{v:,}" for v in (right[0], right[1], right[2], right[3])) + " |",
        "| `agentlines stats` (CLI) | " + " | ".join(fmt(cli, big_mb)) + " | " + " | ".join(f"{v:,}" for v in cli[3]) + " |",
        "",
        f"`agentlines_runs` takes {1 / ratio:.2f}× the time `read_json` takes for the wrong totals "
        f"(naive input {wrong[0] / max(right[0], 1):.2f}×, cache reads {wrong[2] / max(right[2], 1):.2f}×, cache writes "
        f"{wrong[3] / max(right[3], 1):.2f}× the right ones; right cost ≈ ${right[4]:,.2f}).",
        "",
        f"**{d_mb:.0f} MiB of session files ({sum(1 for _ in d.rglob('*.jsonl'))} files), one and two workers:**",
        "",
        "| engine | workers | time | rate | per core |",
        "|---|---|---|---|---|",
    ]
    rates = {}
    for name, w, t in scale:
        rate = d_mb / t[0]
        rates[(name, w)] = rate
        lines.append(f"| {name} | {w} | {t[0] * 1000:.0f} ms ({t[1] * 1000:.0f}–{t[2] * 1000:.0f}) | {rate:.0f} MiB/s | {rate / w:.0f} MiB/s |")
    lines += [
        "",
        "Spark's rows exclude its start (about 5 s for a session). Most of a Spark row is Spark's own: handing each"
        " file's bytes to a Python worker (the last row: the same job, reading nothing).",
        "",
        f"**A {ten_gb:.1f} GiB glob** (100 links to the big log), `agentlines_runs` on every core: "
        f"{ten_s:.0f} s ({ten_gb * 1024 / ten_s:.0f} MiB/s), peak memory of the whole Python + DuckDB process {rss:.0f} MiB.",
        "",
    ]
    per_core = rates[("DuckDB `agentlines_runs`", 1)]
    spark_core = rates[("Spark `mapInArrow` (local)", 1)]
    tb = 1 << 20  # MiB in a TiB
    lines += [
        "**On paper, 1 TiB of logs** at the measured per-core rates (reading only: a cluster's storage and",
        "scheduling add to it):",
        "",
        "| cores | DuckDB on one machine | Spark on 16-core machines |",
        "|---|---|---|",
    ]
    for cores in (16, 64, 256, 1024):
        dd = hours(tb / (per_core * cores)) if cores <= 64 else "—"
        machines = cores // 16
        lines.append(f"| {cores} | {dd} | {hours(tb / (spark_core * cores))} on {machines} machine{'s' if machines > 1 else ''} |")
    md = "\n".join(lines)
    d1, d2 = rates[("DuckDB `agentlines_runs`", 1)], rates[("DuckDB `agentlines_runs`", 2)]
    s1, s2 = rates[("Spark `mapInArrow` (local)", 1)], rates[("Spark `mapInArrow` (local)", 2)]
    summary = "\n".join([
        f"- A {big_mb:.0f} MiB Claude log on one thread: `agentlines_runs` {ours[0] * 1000:.0f} ms (right totals), "
        f"DuckDB's `read_json` summing `message.usage` {naive[0] * 1000:.0f} ms (wrong totals): {1 / ratio:.2f}× its time.",
        f"- Per core over {d_mb:.0f} MiB of session files: DuckDB {d1:.0f} MiB/s, the CLI "
        f"{rates[('CLI `agentlines stats`', 1)]:.0f}, Spark {s1:.0f}; two workers: DuckDB {d2 / d1:.2f}×, Spark {s2 / s1:.2f}×."
        f" A {ten_gb:.1f} GiB glob: {ten_s:.0f} s, peak memory {rss:.0f} MiB. 1 TiB on 16 cores, on paper: DuckDB "
        f"{hours(tb / (d1 * 16))}, Spark {hours(tb / (s1 * 16))} ([tables.md](tables.md#speed) has the tables).",
    ])
    print(md)
    if WRITE:
        write_block(ROOT / "docs/tables.md", "analytics", md)
        write_block(ROOT / "docs/bench.md", "analytics", summary)


def hours(seconds):
    """`1 h 05 min`, or `12 min`."""
    m = round(seconds / 60)
    return f"{m // 60} h {m % 60:02} min" if m >= 60 else f"{max(m, 1)} min"


def write_block(doc, name, md):
    """Puts `md` between the `bench:NAME` markers of `doc` (bench/doc.mjs's format)."""
    text = doc.read_text()
    begin, end = f"<!-- bench:{name}:begin -->", f"<!-- bench:{name}:end -->"
    block = f"{begin}\n{md.strip()}\n{end}"
    a, b = text.find(begin), text.find(end)
    text = text[:a] + block + text[b + len(end):] if a >= 0 and b > a else text.rstrip() + "\n\n" + block + "\n"
    doc.write_text(text)


if __name__ == "__main__":
    main()
