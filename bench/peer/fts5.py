"""SQLite FTS5 with the trigram tokenizer over the pre-lowered station titles: the index a
database would build for `contains` search. Timed in this process through Python's sqlite3."""

import sqlite3
import time

from measure import stats, time_query
from peer import Peer


class FTS5(Peer):
    name = "SQLite FTS5"

    def versions(self):
        return {"python sqlite3 (FTS5)": sqlite3.sqlite_version}

    def search(self, file, lowered, queries, expected):
        builds = []
        connection = None
        for _ in range(3 if len(lowered) < 100_000 else 1):
            if connection:
                connection.close()
            connection = sqlite3.connect(":memory:")
            started = time.perf_counter()
            connection.execute("CREATE VIRTUAL TABLE t USING fts5(title, tokenize='trigram')")
            connection.executemany("INSERT INTO t(title) VALUES (?)", ((t,) for t in lowered))
            connection.commit()
            builds.append((time.perf_counter() - started) * 1000)
        results = {"build": stats(builds)}
        for query in queries:
            phrase = '"' + query.replace('"', '""') + '"'
            results[query] = time_query(
                lambda: connection.execute("SELECT count(*) FROM t WHERE t MATCH ?", (phrase,)).fetchone()[0],
                expected[query], what=f"FTS5 {query}")
        connection.close()
        return {"SQLite FTS5 trigram MATCH": results}


PEER = FTS5()
