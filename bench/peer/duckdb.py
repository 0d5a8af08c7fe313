"""DuckDB's CLI: read_json for loads, `contains` over pre-lowered titles for search (each
query timed by DuckDB's own profiler), a computed filter on the 10× file, whole process
against whole process (issue 26: almanac ≤ 0.25× DuckDB), and read_csv against almanac's CSV
load (issue 28: the stations flattened to CSV, `stations.csv` beside each scaled file, counted in
a fresh process; almanac's whole run ≤ 0.5× DuckDB's)."""

import json
import os
import shutil
import sys
import sysconfig
import tempfile

from measure import fail, run_process, stats
from measure import last_numbers
from peer import Command, Comparison, Peer, pip_install, version_of

LOAD = """
SELECT count(*), count(DISTINCT s.stationId) FROM (
  SELECT unnest(c.stations) AS s FROM (
    SELECT unnest(citiesFrom || citiesTo) AS c FROM read_json('{path}', maximum_object_size=4000000000)));
"""

TITLES = """
CREATE TABLE titles AS SELECT lower(first(s.stationTitle)) AS t FROM (
  SELECT unnest(c.stations) AS s FROM (
    SELECT unnest(citiesFrom || citiesTo) AS c FROM read_json('{path}', maximum_object_size=4000000000)))
  GROUP BY s.stationId;"""

# Distinct stations whose latitude exceeds their longitude by more than 20 degrees: the same
# question almanac answers with `filter point.latitude - point.longitude > 20; count`.
COMPUTED = """
SELECT count(DISTINCT s.stationId) FROM (
  SELECT unnest(c.stations) AS s FROM (
    SELECT unnest(citiesFrom || citiesTo) AS c FROM read_json('{path}', maximum_object_size=4000000000)))
  WHERE s.point.latitude - s.point.longitude > 20;
"""
COMPUTED_FILTER = "point.latitude - point.longitude > 20"


def last_count(text):
    numbers = last_numbers(text)
    return {"count": numbers[-1]} if numbers else {"output": text.strip()[-200:]}


def binary():
    found = shutil.which("duckdb")
    if found:
        return found
    candidate = os.path.join(sysconfig.get_path("scripts"), "duckdb")
    return candidate if os.path.exists(candidate) else None


class DuckDB(Peer):
    name = "DuckDB"

    def install(self, context):
        if binary() is None:
            pip_install("duckdb-cli")
        if binary() is None:
            fail("duckdb-cli installed but no duckdb binary found")

    def versions(self):
        return {"duckdb": version_of([binary(), "--version"])}

    def loads(self, file):
        return {"DuckDB read_json": Command([binary(), "-list", "-noheader", "-c", LOAD.format(path=file["path"])])}

    def search(self, file, lowered, queries, expected, runs=21, warmups=3):
        """One CLI session over a table of one pre-lowered title per distinct station."""
        folder = tempfile.mkdtemp(prefix="almanac-bench-duckdb-")
        script = [TITLES.format(path=file["path"]), "PRAGMA enable_profiling='json';"]
        profiles = {q: [] for q in queries}
        for number, query in enumerate(queries):
            literal = query.replace("'", "''")
            for attempt in range(warmups + runs):
                profile = os.path.join(folder, f"{number}-{attempt}.json")
                script.append(f"SET profiling_output='{profile}';")
                script.append(f"SELECT '{literal}', count(*) FROM titles WHERE contains(t, '{literal}');")
                if attempt >= warmups:
                    profiles[query].append(profile)
        _, out = run_process([binary(), "-list", "-noheader"], stdin="\n".join(script) + "\n")
        seen = set()
        for line in out.splitlines():
            parts = line.split("|")
            if len(parts) == 2 and parts[0] in expected:
                seen.add(parts[0])
                if int(parts[1]) != expected[parts[0]]:
                    fail(f"DuckDB counted {parts[1]} for {parts[0]}, almanac {expected[parts[0]]}")
        if seen != set(queries):
            fail(f"DuckDB answered no count for {set(queries) - seen}: {out[-500:]}")
        results = {}
        for query in queries:
            samples = []
            for profile in profiles[query]:
                with open(profile) as f:
                    samples.append(json.load(f)["latency"] * 1000)
            results[query] = stats(samples, warmups)
        shutil.rmtree(folder, ignore_errors=True)
        return {"DuckDB contains (pre-lowered)": results}

    def comparisons(self, context):
        return self.computed_comparison(context) + self.csv_comparisons(context)

    def computed_comparison(self, context):
        """A computed filter on the 10× file: almanac loads it, filters by an expression and
        counts; DuckDB reads the same JSON and counts the same stations."""
        file = next((f for f in context.files if f["scale"] == 10), None)
        if file is None:
            return []
        home = tempfile.mkdtemp(prefix="almanac-bench-duckdb-home-")
        environment = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        ours = Command([context.almanac, "--no-rc", "--data", file["directory"], "--format", "csv", "-c", "set pagesize 1",
                        "-c", "use stations", "-c", f"filter {COMPUTED_FILTER}", "-c", "count"], last_count, env=environment)
        theirs = Command([binary(), "-list", "-noheader", "-c", COMPUTED.format(path=file["path"])], last_count)
        return [Comparison("duckdb.computed", f"10×: filter {COMPUTED_FILTER}, count (DuckDB read_json)", ours, theirs,
                           limit=0.25, runs=5)]


    def csv_comparisons(self, context):
        """almanac loading the flattened stations CSV and counting its rows, against DuckDB's
        `SELECT count(*) FROM read_csv(…)`, whole processes, at 10× and larger."""
        home = tempfile.mkdtemp(prefix="almanac-bench-csv-")
        environment = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        races = []
        for file in context.files:
            path = os.path.join(file["directory"], "stations.csv")
            if file["scale"] < 10 or not os.path.exists(path):
                continue
            ours = Command([context.almanac, "--no-rc", "-c", f"load s from {path}", "-c", "use s", "-c", "count"],
                           parse=last_count, env=environment)
            theirs = Command([binary(), "-list", "-noheader", "-c", f"SELECT count(*) FROM read_csv('{path}');"], parse=last_count)
            races.append(Comparison(f"csv-count-x{file['scale']}", f"{file['scale']}× stations as CSV: load and count",
                                    ours, theirs, limit=0.5))
        return races



PEER = DuckDB()
