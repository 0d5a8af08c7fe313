"""What a peer is, and how the runner finds them: every file in bench/peer/ defines
`PEER = SomePeer()`; nothing else needs to change to add one.

A peer implements any of the measurements below and leaves the rest. Every command's answer
is compared with almanac's before its time is shown (see `Command.parse`)."""

import dataclasses
import importlib.util
import os
import subprocess
import sys

from measure import fail, last_numbers, log

PEER_FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "peer")


def entries_distinct(text):
    """`ENTRIES DISTINCT` on the last line: station entries and distinct stationIds."""
    numbers = last_numbers(text)
    if len(numbers) < 2:
        return {"output": text.strip()[-200:]}
    return {"entries": numbers[0], "distinct": numbers[1]}


def entries_only(text):
    numbers = last_numbers(text)
    return {"entries": numbers[0]} if numbers else {"output": text.strip()[-200:]}


@dataclasses.dataclass
class Command:
    """A whole process: its arguments, and how to read its answer from standard output into
    named counts (`entries`, `distinct`, or whatever a comparison checks)."""
    argv: list
    parse: object = entries_distinct
    env: dict = None
    stdin: str = None


@dataclasses.dataclass
class Comparison:
    """Any whole-process race a peer brings along with almanac's side of it: both answers,
    read by their parsers, must be equal before the times are shown. `ours ≤ limit × theirs`
    is the target when a limit is given."""
    id: str
    title: str
    ours: Command
    theirs: Command
    limit: float = None
    runs: int = 5


@dataclasses.dataclass
class Context:
    """What a peer may need: where almanac's binaries and the scaled files are, and a folder
    of its own for anything it builds."""
    root: str
    almanac: str
    bench: str
    scratch: str
    files: list  # almanac-bench's file descriptions: path, directory, scale, bytes, counts


class Peer:
    name = "?"

    def install(self, context):
        """Installs or builds what is missing (apt-get, pip, a compiler)."""

    def versions(self):
        """{tool: version text} for the report's heading."""
        return {}

    def loads(self, file):
        """{name: Command}: the whole file to records in a fresh process, printing
        `ENTRIES DISTINCT` (station entries and distinct stations)."""
        return {}

    def counts(self, file):
        """{name: Command}: the first answer, as a whole process counting the stations of the
        file (entries, distinct, or both), raced against `almanac -c 'use stations' -c count`."""
        return {}

    def startups(self):
        """{name: Command}: the quickest whole run of the tool (`--version`)."""
        return {}

    def prompts(self):
        """{name: (argv, prompt text)}: the tool opened in a pseudo-terminal until its prompt shows."""
        return {}

    def search(self, file, lowered_titles, queries, expected):
        """{variant: {query: stats, optionally "build": stats}}: distinct stations whose
        pre-lowered stationTitle contains each query, timed in this process."""
        return {}

    def in_memory(self, file, answers):
        """{variant: {query id: stats}}: almanac's in-memory questions (almanac-bench's
        MemoryQueries, by `--repeat` id; `answers` holds almanac's answer to each, which the
        peer's must equal) on the same records already in the tool's memory, timed in-process."""
        return {}

    def comparisons(self, context):
        """[Comparison]: races of the peer's own choosing, with almanac's side."""
        return []


def discover(only=None):
    """Every PEER in bench/peer/*.py, in file-name order (`only`: names of files to keep)."""
    peers = []
    for entry in sorted(os.listdir(PEER_FOLDER)):
        if not entry.endswith(".py") or entry.startswith("_"):
            continue
        stem = entry[:-3]
        if only and stem not in only:
            continue
        spec = importlib.util.spec_from_file_location(f"bench_peer_{stem}", os.path.join(PEER_FOLDER, entry))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        peer = getattr(module, "PEER", None)
        if peer is None:
            fail(f"bench/peer/{entry} defines no PEER")
        peers.append(peer)
    return peers


# ---------------------------------------------------------------------------------------------
# For the peers' install() and versions() (Debian's packages come from scripts/install-deps --bench)

def pip_install(*packages):
    log(f"installing {' '.join(packages)} with pip …")
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", *packages], check=True)


def version_of(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"
