"""sqlite3, the shell almanac is modelled on: its JSON functions for loads and the first
answer, its prompt, --version and `:memory: .quit` for start-up. (FTS5 search is in fts5.py.)"""

import shutil

from peer import Command, Peer, entries_only, version_of

# Cities, then their stations, over both lists: the wording of a load.
LOAD_EACH = """
SELECT count(*), count(DISTINCT id) FROM (
  SELECT json_extract(s.value, '$.stationId') AS id
    FROM json_each(readfile('{path}'), '$.citiesFrom') AS c, json_each(c.value, '$.stations') AS s
  UNION ALL
  SELECT json_extract(s.value, '$.stationId')
    FROM json_each(readfile('{path}'), '$.citiesTo') AS c, json_each(c.value, '$.stations') AS s);
"""

# One parse of the whole file, usually twice as fast.
LOAD_TREE = "SELECT count(*), count(DISTINCT value) FROM json_tree(readfile('{path}')) WHERE key = 'stationId';"

# The count: it builds nothing, only adds up the lengths of the station arrays.
COUNT_EACH = ("SELECT (SELECT sum(json_array_length(value,'$.stations')) FROM json_each(readfile('{path}'),'$.citiesFrom'))"
              " + (SELECT sum(json_array_length(value,'$.stations')) FROM json_each(readfile('{path}'),'$.citiesTo'));")


class SQLite(Peer):
    name = "sqlite3"

    def versions(self):
        return {"sqlite3": version_of(["sqlite3", "--version"]).split(" ")[0]}

    def loads(self, file):
        return {"sqlite3 json_each": Command(["sqlite3", ":memory:", LOAD_EACH.format(path=file["path"])]),
                "sqlite3 json_tree": Command(["sqlite3", ":memory:", LOAD_TREE.format(path=file["path"])])}

    def counts(self, file):
        return {"sqlite3 json_each count": Command(["sqlite3", ":memory:", COUNT_EACH.format(path=file["path"])], entries_only)}

    def startups(self):
        return {"sqlite3 --version": Command(["sqlite3", "--version"], parse=lambda text: {}),
                "sqlite3 :memory: .quit": Command(["sqlite3", ":memory:", ".quit"], parse=lambda text: {})}

    def prompts(self):
        return {"sqlite3": ([shutil.which("sqlite3")], "sqlite> ")}


PEER = SQLite()
