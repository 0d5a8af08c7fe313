"""psql, PostgreSQL's own shell, on the 2,000,000-row table of the tests (Tests/PostgresCluster/
Fixtures.swift): count, search, filter and the first page, each run by almanac on the attached
table and by psql sending the very statements almanac sent. Both are whole processes that
connect, ask and print, so the difference is almanac's overhead over the database: its start,
libpq's load, reading the table's catalog, and drawing the answer (the issue's goal: at most 10%
plus 2 ms).

The statements are not written here: a throwaway cluster (Tests/Fixtures/pg_cluster.sh, started
on first use and stopped when this process ends) logs every statement, and those almanac sent
for a command — after the ones it sent to attach the table — are what psql runs, each
parameter written in as a literal."""

import glob
import os
import re
import shutil
import subprocess
import tempfile
import time

from measure import fail, log
from peer import Command, Comparison, Peer, version_of

ROWS = 2_000_000
TABLE = f"""
CREATE UNLOGGED TABLE big AS SELECT i AS id, 'item ' || i AS name, i % 1000 AS bucket,
    (i::bigint * 7919) % 1000003 AS score, CASE WHEN i % 10 = 0 THEN NULL ELSE 'c' || (i % 50) END AS category,
    jsonb_build_object('n', i % 100, 'tags', jsonb_build_array('t' || (i % 3))) AS info
FROM generate_series(1, {ROWS}) AS i;
ALTER TABLE big ADD PRIMARY KEY (id);
VACUUM ANALYZE big;
"""

# (id, title, almanac's commands after `use big`, what both answer)
RACES = [
    ("pg-count", f"count the {ROWS:,}-row table", ["count"], "count"),
    ("pg-search", "search item 1999999 (names, folded, ILIKE)", ["search item 1999999"], "rows"),
    ("pg-filter", "filter bucket = 7 (2,000 rows: count, first 1,000 listed)", ["filter bucket = 7"], "rows"),
    ("pg-page", "the first page of the table (count, 1,000 rows listed)", ["page"], "rows"),
]

LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[\d+\] (\w+):  ", re.M)


class Cluster:
    """pg_cluster.sh on a free port; it stops the server when its standard input closes."""

    def __init__(self, root):
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.process = subprocess.Popen(["/bin/sh", os.path.join(root, "Tests", "Fixtures", "pg_cluster.sh"), str(self.port)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("ready "):
            fail(f"the PostgreSQL cluster did not start: {self.process.stderr.read()[-2000:]}")
        self.log = os.path.join(line[len("ready "):], "data", "server.log")
        self.psql(["-d", "postgres", "-c", "CREATE DATABASE bench"])
        log(f"  generating the {ROWS:,}-row table …")
        self.psql([a for statement in TABLE.split(";") if statement.strip() for a in ("-c", statement)])
        self.psql(["-c", "ALTER SYSTEM SET log_statement = 'all'", "-c", "SELECT pg_reload_conf()"])
        time.sleep(0.5)

    def argv(self):
        return ["psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]

    def psql(self, arguments):
        subprocess.run(self.argv() + ["-d", "bench"] + arguments if "-d" not in arguments else self.argv() + arguments,
                       check=True, capture_output=True)

    def url(self):
        return f"postgresql://postgres@127.0.0.1:{self.port}/bench?table=big"

    def statements_during(self, run):
        """The statements the server ran while `run()` ran, parameters written in."""
        with open(self.log, encoding="utf-8", errors="replace") as f:
            f.seek(0, os.SEEK_END)
            start = f.tell()
        run()
        time.sleep(0.3)
        with open(self.log, encoding="utf-8", errors="replace") as f:
            f.seek(start)
            text = f.read()
        entries = []
        marks = list(LOG_LINE.finditer(text))
        for index, mark in enumerate(marks):
            body = text[mark.end():marks[index + 1].start() if index + 1 < len(marks) else len(text)].rstrip("\n")
            entries.append((mark.group(1), body))
        statements = []
        for kind, body in entries:
            if kind == "LOG" and (body.startswith("statement: ") or re.match(r"execute \S+: ", body)):
                statements.append(re.sub(r"^(statement|execute \S+): ", "", body))
            elif kind == "DETAIL" and body.startswith("parameters: ") and statements:
                values = dict(re.findall(r"\$(\d+) = (NULL|'(?:[^']|'')*')", body))
                statements[-1] = re.sub(r"\$(\d+)(?!\d)", lambda m: values.get(m.group(1), m.group(0)), statements[-1])
        return statements


def almanac_answer(kind):
    def parse(text):
        lines = [line for line in text.splitlines() if line.strip()]
        if kind == "count":
            return {"count": int(lines[-1])} if lines and lines[-1].isdigit() else {"output": text[-200:]}
        return {"rows": max(0, len(lines) - 1)}  # csv: a header, then the rows
    return parse


def psql_answer(kind):
    def parse(text):
        lines = [line for line in text.splitlines() if line.strip()]
        if kind == "count":
            return {"count": int(lines[-1])} if lines and lines[-1].isdigit() else {"output": text[-200:]}
        return {"rows": sum(1 for line in lines if line.startswith("{"))}
    return parse


class Psql(Peer):
    name = "psql"

    def install(self, context):
        if not shutil.which("psql") or not glob.glob("/usr/lib/postgresql/*/bin/postgres"):
            subprocess.run([os.path.join(context.root, "scripts", "install-deps")], check=True)

    def versions(self):
        return {"psql": version_of(["psql", "--version"]).split(" ")[-1]}

    def comparisons(self, context):
        cluster = Cluster(context.root)
        self.cluster = cluster  # kept alive (and the server with it) until this process ends
        home = tempfile.mkdtemp(prefix="almanac-bench-pg-")
        environment = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        attach = ["load big from " + cluster.url(), "use big"]

        def almanac(commands):
            argv = [context.almanac, "--no-rc", "--format", "csv"]
            for command in attach + commands:
                argv += ["-c", command]
            return Command(argv, env=environment)

        def ran(command):
            return lambda: subprocess.run(command.argv, env=command.env, capture_output=True, check=True)

        attaching = cluster.statements_during(ran(almanac([])))
        races = []
        for race_id, title, commands, kind in RACES:
            ours = almanac(commands)
            sent = cluster.statements_during(ran(ours))
            if sent[:len(attaching)] != attaching:
                fail(f"{title}: almanac attached the table with other statements than before:\n{sent[:len(attaching)]}")
            asked = sent[len(attaching):]
            if not asked:
                fail(f"{title}: almanac sent no statement for {commands}")
            log(f"  {title}: " + " ; ".join(s[:160] for s in asked))
            theirs = Command(cluster.argv() + ["-d", "bench"] + [a for s in asked for a in ("-c", s)], psql_answer(kind))
            ours.parse = almanac_answer(kind)
            races.append(Comparison(race_id, f"PostgreSQL, {title}", ours, theirs, runs=7))
        return races


PEER = Psql()
