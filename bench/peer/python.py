"""Python: json and orjson loads in a fresh interpreter, and the best of three plain scans
over pre-lowered titles for search."""

import sys

from measure import time_query
from peer import Command, Peer, pip_install

LOAD = r"""
import sys, {module} as j
with open(sys.argv[1], 'rb') as f:
    d = j.loads(f.read())
ids = [s['stationId'] for key in ('citiesFrom', 'citiesTo') for c in d[key] for s in c['stations']]
print(len(ids), len(set(ids)))
"""


class Python(Peer):
    name = "Python"

    def install(self, context):
        try:
            import orjson  # noqa: F401
        except ImportError:
            pip_install("orjson")

    def versions(self):
        import orjson
        return {"python": sys.version.split()[0], "orjson": orjson.__version__}

    def loads(self, file):
        return {"Python orjson": Command([sys.executable, "-c", LOAD.format(module="orjson"), file["path"]]),
                "Python json": Command([sys.executable, "-c", LOAD.format(module="json"), file["path"]])}

    def search(self, file, lowered, queries, expected):
        joined = "\n".join(lowered)
        variants = {"Python `sum(q in t)`": {}, "Python list comprehension": {}, "Python joined str.find": {}}
        for query in queries:
            def generator():
                return sum(1 for t in lowered if query in t)

            def comprehension():
                return len([t for t in lowered if query in t])

            def joined_find():
                # One C-speed find over all titles, jumping to the next line after each hit.
                count, position = 0, joined.find(query)
                while position != -1:
                    count += 1
                    end = joined.find("\n", position)
                    if end == -1:
                        break
                    position = joined.find(query, end)
                return count

            for (variant, function) in zip(variants, (generator, comprehension, joined_find)):
                variants[variant][query] = time_query(function, expected[query], what=f"{variant} {query}")
        return variants


PEER = Python()
