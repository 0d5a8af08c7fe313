"""DuckDB's CLI: read_json for loads, `contains` over pre-lowered titles for search (each
query timed by DuckDB's own profiler), the in-memory race (one session that makes a table of the
stations once, then runs the SQL of each of almanac's in-memory questions), a computed filter on
the 10× file, whole process against whole process (issue 26: almanac ≤ 0.25× DuckDB), and
read_csv against almanac's CSV load (issue 28: the stations flattened to CSV, `stations.csv`
beside each scaled file, counted in a fresh process; almanac's whole run ≤ 0.5× DuckDB's)."""

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

# One row per distinct station, as almanac's records are (a station's fields are the same in
# both lists; `directions` is almanac's computed field: the lists it is in). `point` is kept
# whole as well, as almanac's describe profiles an object field whole beside its parts.
STATIONS = """
CREATE TABLE stations AS
SELECT s.stationId AS stationId, any_value(s.stationTitle) AS stationTitle, any_value(s.cityId) AS cityId,
       any_value(s.cityTitle) AS cityTitle, any_value(s.districtTitle) AS districtTitle,
       any_value(s.regionTitle) AS regionTitle, any_value(s.countryTitle) AS countryTitle,
       any_value(s.point) AS point, any_value(s.point.latitude) AS latitude, any_value(s.point.longitude) AS longitude,
       list_sort(list_distinct(list(direction))) AS directions
FROM (SELECT unnest(c.stations) AS s, direction FROM (
        SELECT unnest(citiesFrom) AS c, 'from' AS direction FROM read_json('{path}', maximum_object_size=4000000000)
        UNION ALL
        SELECT unnest(citiesTo) AS c, 'to' AS direction FROM read_json('{path}', maximum_object_size=4000000000)))
GROUP BY s.stationId;"""

# The countries by the Russian name the stations give them, with the two the stations spell
# otherwise (Беларусь, Молдова): what `filter country.region = Europe` crosses, as a JOIN. As
# the other questions, text compares as stored (almanac folds; both files write it one way).
COUNTRY_NAMES = """
CREATE TABLE country_names AS
WITH c AS (SELECT translations.ru AS name, region FROM read_json('{path}'))
SELECT name, region FROM c
UNION ALL SELECT 'Беларусь', region FROM c WHERE name = 'Белоруссия'
UNION ALL SELECT 'Молдова', region FROM c WHERE name = 'Молдавия';"""

# almanac's in-memory questions (almanac-bench's MemoryQueries, by `--repeat` id) as SQL on that
# table, and how to read each answer into almanac's: a count and the numbers that pin it.
# Text compares as stored (almanac folds case and accents; every value here is written one way).
MEMORY_SQL = {
    "group-country": "SELECT count(*) AS n, countryTitle, avg(latitude) FROM stations GROUP BY countryTitle ORDER BY n DESC, countryTitle;",
    "group-aggregates": "SELECT count(*) AS n, regionTitle, count(stationTitle), avg(latitude), min(longitude), max(longitude), "
                        "count(DISTINCT cityTitle) FROM stations GROUP BY regionTitle ORDER BY n DESC, regionTitle;",
    "sort-page": "SELECT latitude, stationId, stationTitle, cityTitle, regionTitle, countryTitle, directions FROM stations "
                 "ORDER BY latitude DESC LIMIT 25;",
    "filter-number": "SELECT count(*) FROM stations WHERE latitude > 55;",
    "filter-equal": "SELECT count(*) FROM stations WHERE countryTitle = 'Россия';",
    "filter-computed-count": "SELECT count(*) FROM stations WHERE latitude - longitude > 20;",
    "filter-link": "SELECT count(*) FROM stations s JOIN country_names n ON s.countryTitle = n.name WHERE n.region = 'Europe';",
    "distinct": "SELECT count(DISTINCT cityTitle) FROM stations WHERE cityTitle <> '';",
    "describe": "SUMMARIZE stations;",
}


def memory_answer(query_id, rows, total):
    """DuckDB's rows (lists of text fields, the number that pins them first) as almanac's
    answer {count, detail}: groups and their sizes, the page's latitudes, fields profiled."""
    if query_id in ("group-country", "group-aggregates"):
        counts = [float(row[0]) for row in rows]
        return {"count": len(rows), "detail": counts if query_id == "group-country" else counts[:50]}
    if query_id == "sort-page":
        return {"count": total, "detail": [float(row[0]) for row in rows]}
    if query_id == "describe":
        return {"count": len(rows), "detail": []}
    return {"count": int(rows[0][0]) if rows else -1, "detail": []}

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


def latencies(profiles):
    """Milliseconds per query from DuckDB's JSON profiles (its profiler's `latency`)."""
    samples = []
    for profile in profiles:
        with open(profile) as f:
            samples.append(json.load(f)["latency"] * 1000)
    return samples


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
        results = {query: stats(latencies(profiles[query]), warmups) for query in queries}
        shutil.rmtree(folder, ignore_errors=True)
        return {"DuckDB contains (pre-lowered)": results}

    def in_memory(self, file, answers, runs=15, warmups=3):
        """{variant: {query id: stats}}: each of almanac's in-memory questions as SQL on a table
        made once in one CLI session, timed by the profiler (wall) and `.timer` (CPU: user +
        system, which a loaded machine stretches less); each answer must be almanac's."""
        folder = tempfile.mkdtemp(prefix="almanac-bench-duckdb-")
        countries = os.path.join(os.path.dirname(file["path"]), "countries.json")
        script = [STATIONS.format(path=file["path"]), COUNTRY_NAMES.format(path=countries), "SELECT '@rows', count(*) FROM stations;",
                  "PRAGMA enable_profiling='json';",
                  ".timer on"]
        profiles = {q: [] for q in answers}
        for query_id in answers:
            for attempt in range(warmups + runs):
                profile = os.path.join(folder, f"{query_id}-{attempt}.json")
                script.append(f"SET profiling_output='{profile}';")
                script.append(f"SELECT '@query', '{query_id}', {attempt};")
                script.append(MEMORY_SQL[query_id])
                if attempt >= warmups:
                    profiles[query_id].append(profile)
        _, out = run_process([binary(), "-list", "-noheader"], stdin="\n".join(script) + "\n")
        # After each marker: the marker's own Run Time line, the query's rows, the query's Run Time.
        total, current, rows, cpu, timers = None, None, {}, {q: [] for q in answers}, 0
        for line in out.splitlines():
            if line.startswith("@rows|"):
                total = int(line.split("|")[1])
            elif line.startswith("@query|"):
                _, query_id, attempt = line.split("|")
                current, timers = (query_id, int(attempt)), 0
                if current[1] == 0:
                    rows[query_id] = []
            elif line.startswith("Run Time") and current is not None:
                timers += 1
                if timers == 2:
                    parts = line.split()
                    if current[1] >= warmups:
                        cpu[current[0]].append((float(parts[parts.index("user") + 1]) + float(parts[parts.index("sys") + 1])) * 1000)
                    current = None
            elif current is not None and current[1] == 0 and timers == 1:
                rows[current[0]].append(line.split("|"))
        for query_id, expected in answers.items():
            found = memory_answer(query_id, rows.get(query_id, []), total)
            if found["count"] != expected["count"] or len(found["detail"]) != len(expected["detail"]) \
                    or any(abs(a - b) > 1e-9 * max(1.0, abs(b)) for a, b in zip(found["detail"], expected["detail"])):
                fail(f"DuckDB answered {query_id} with {found}, almanac {expected}")
        results = {query_id: {**stats(latencies(profiles[query_id]), warmups), "cpu": stats(cpu[query_id]) if cpu[query_id] else None}
                   for query_id in answers}
        shutil.rmtree(folder, ignore_errors=True)
        return {"DuckDB in memory": results}

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
