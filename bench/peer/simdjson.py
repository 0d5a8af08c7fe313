"""simdjson (Debian's libsimdjson-dev): the fastest JSON parser there is, on one core. Its
whole process (simdjson_count.cpp: parse, walk, count) is the bar for almanac's first answer."""

import os
import subprocess

from peer import Command, Peer
from measure import fail, log

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "simdjson_count.cpp")


class Simdjson(Peer):
    name = "simdjson"

    def install(self, context):
        if not os.path.exists("/usr/include/simdjson.h"):
            fail("libsimdjson-dev is missing: scripts/install-deps --bench installs it")
        self.binary = os.path.join(context.scratch, "simdjson-count")
        if not os.path.exists(self.binary) or os.path.getmtime(self.binary) < os.path.getmtime(SOURCE):
            command = ["g++", "-O3", "-march=native", "-o", self.binary, SOURCE, "-lsimdjson"]
            log("$ " + " ".join(command))
            subprocess.run(command, check=True)

    def versions(self):
        out = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libsimdjson-dev"], capture_output=True, text=True)
        return {"simdjson": out.stdout.strip() or "?"}

    def loads(self, file):
        return {"simdjson": Command([self.binary, file["path"]])}

    def counts(self, file):
        return {"simdjson": Command([self.binary, file["path"]])}


PEER = Simdjson()
