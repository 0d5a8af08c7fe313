"""The tables of bench/out/report.md (what BENCHMARKS.md keeps) and the targets they are held to."""

import os

from measure import fmt_mb, fmt_ms, log

QUERIES = ["моск", "bus"]          # the same as almanac-bench's Queries.search
# almanac's search timed by bench/peers before and after the search peers, in their phase.
SAME_PHASE = "almanac `search`, same phase"
# The first answer's targets: (scale from which it applies, at most × simdjson, at least × faster than sqlite3).
# 1×: issue 33's 0.8× simdjson (round two asked 2×).
FIRST_ANSWER_LIMITS = [(1, 0.8, 2.0), (10, 1.25, 3.0)]
SQLITE_COUNT = "sqlite3 json_each count"
# The in-memory race against DuckDB (bench/peers' last phase): almanac-bench's MemoryQueries by
# `--repeat` id, with issue 33's limit on almanac ÷ DuckDB (None: shown, not judged).
MEMORY_PHASE = "almanac, same phase"
MEMORY_QUERIES = ["group-country", "group-aggregates", "sort-page", "filter-number", "filter-equal", "filter-computed-count",
                  "filter-link", "distinct", "describe"]
MEMORY_TITLES = {
    "group-country": ("group by country with an aggregate", "`group countryTitle avg point.latitude`",
                      "`SELECT count(*), countryTitle, avg(latitude) … GROUP BY countryTitle ORDER BY 1 DESC, 2`", 1.5),
    "group-aggregates": ("group with five aggregates", "`group regionTitle count stationTitle, avg point.latitude, min/max "
                         "point.longitude, distinct cityTitle`", "the same `GROUP BY regionTitle` with `count(DISTINCT cityTitle)`", None),
    "sort-page": ("the 25 northernmost (sort + first page)", "`sort point.latitude desc`, rows 1–25",
                  "`… ORDER BY latitude DESC LIMIT 25`", 1.5),
    "filter-number": ("filter + count (number)", "`filter point.latitude > 55`, count", "`SELECT count(*) … WHERE latitude > 55`", 1.5),
    "filter-equal": ("filter + count (text)", "`filter countryTitle = Россия`, count",
                     "`SELECT count(*) … WHERE countryTitle = 'Россия'`", 1.5),
    "filter-computed-count": ("filter + count (computed)", "`filter point.latitude - point.longitude > 20`, count",
                              "`SELECT count(*) … WHERE latitude - longitude > 20`", 1.5),
    "filter-link": ("link-path filter + count", "`filter country.region = Europe`, count (stations → countries)",
                    "`SELECT count(*) … JOIN country_names … WHERE region = 'Europe'`", 1.5),
    "distinct": ("distinct count of a text field", "`describe cityTitle` (distinct)", "`SELECT count(DISTINCT cityTitle) …`", 1.5),
    "describe": ("describe every field vs SUMMARIZE", "`describe`", "`SUMMARIZE stations`", 1.0),
}


def memory_table(memory):
    """The in-memory race as a table: almanac (same phase) against each peer variant."""
    times = memory["times"]
    mine = times[MEMORY_PHASE]
    variants = [v for v in times if v != MEMORY_PHASE]
    lines = [f"### In memory at {memory['scale']}×: each question on records already in memory (median, min in brackets; "
             "almanac timed by `almanac-bench --repeat` right before and after the peers, pooled; ratio = almanac ÷ peer)", "",
             "| question | almanac command | SQL | almanac | almanac CPU | " + " | ".join(variants) + " | ratio | limit |",
             "|---|---|---|---|---|" + "---|" * len(variants) + "---|---|"]
    for q in MEMORY_QUERIES:
        if q not in mine:
            continue
        title, ours, sql, limit = MEMORY_TITLES[q]
        cells = []
        ratios = []
        for v in variants:
            theirs = times[v].get(q)
            cpu = theirs.get("cpu") if theirs else None
            cells.append((f"{fmt_ms(theirs['median'])} ({fmt_ms(theirs['min'])})" + (f", CPU {fmt_ms(cpu['median'])}" if cpu else ""))
                         if theirs else "—")
            if theirs:
                ratios.append(f"{mine[q]['median'] / theirs['median']:.2f}×"
                              + (f" (CPU {mine[q]['cpu']['median'] / cpu['median']:.2f}×)" if cpu else ""))
        lines.append(f"| {title} | {ours} | {sql} | {fmt_ms(mine[q]['median'])} ({fmt_ms(mine[q]['min'])}) | "
                     f"{fmt_ms(mine[q]['cpu']['median'])} | " + " | ".join(cells) + f" | {', '.join(ratios) or '—'} | "
                     + (f"≤ {limit:g}×" if limit else "—") + " |")
    lines.append("")
    return lines


# Issue 15's limits for the commands of the results and pictures issues at 100×, by the id of
# almanac-bench's step: checked here whenever almanac-bench measures the step and does not
# judge it itself (its own targets come first).
COMMAND_LIMITS = {"group.aggregate": ("group with an aggregate", 100), "describe": ("describe", 300),
                  "histogram": ("histogram", 100), "map": ("map of every station", 100)}


def step(scale_result, step_id):
    for s in scale_result["steps"]:
        if s["id"] == step_id:
            return s
    return None


def ratio(peer, ours):
    if peer is None or ours is None or ours == 0:
        return "—"
    return f"{peer / ours:.1f}×"


def process_table(title, scales, peers, key, note=""):
    """A table of whole-process races (loads or first answers): a row per tool, a column per scale."""
    lines = [f"### {title}", ""]
    if note:
        lines += [note, ""]
    files = [s["file"] for s in scales]
    lines += ["| tool | " + " | ".join(f"{f['scale']}× ({f['bytes'] / 1e6:.1f} MB)" for f in files) + " |",
              "|---|" + "---|" * len(files)]
    names = []
    for f in files:
        for name in peers["scales"][str(f["scale"])][key]:
            if name not in names:
                names.append(name)
    for name in names:
        cells = []
        for f in files:
            race = peers["scales"][str(f["scale"])][key]
            if name not in race:
                cells.append("—")
                continue
            mine, theirs = race["almanac"]["wall"]["median"], race[name]["wall"]["median"]
            cell = (f"{fmt_ms(theirs)} (min {fmt_ms(race[name]['wall']['min'])}), peak {fmt_mb(race[name]['peakRSS'])}, "
                    f"{race[name]['faults']:,.0f} faults, CPU {fmt_ms(race[name]['user'] + race[name]['system'])} "
                    f"(sys {fmt_ms(race[name]['system'])})")
            if name != "almanac":
                cell += f" — **{ratio(theirs, mine)}**"
            cells.append(cell)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def markdown_tables(almanac, peers):
    scales = almanac["scales"]
    lines = process_table("First answer: `almanac --data DIR -c 'use stations' -c count` against whole processes that count the stations "
                          "(median wall time, min, peak RSS, page faults, CPU time user + system; ratio = peer ÷ almanac)",
                          scales, peers, "counts",
                          "simdjson parses the whole file and walks every station (bench/peer/simdjson_count.cpp); sqlite3's "
                          "count adds up the lengths of the station arrays (`json_each`, builds nothing).")
    lines += process_table("Load: whole file to queryable records, fresh process (median wall time, min, peak RSS, page faults, CPU; ratio = peer ÷ almanac median)",
                           scales, peers, "loads")
    lines.append("In-process load times (almanac-bench, warm, median): " + ", ".join(
        f"{s['file']['scale']}× {fmt_ms(step(s, 'load')['stats']['median'])} ({step(s, 'load')['mbPerSecond']:.0f} MB/s)"
        for s in scales) + ".")
    lines.append("")
    lines.append("### Search: distinct stations whose stationTitle, lowercased, contains the text (median per query, min in brackets; ratio = peer ÷ almanac `search` timed in the same phase, medians)")
    lines.append("")
    lines += ["| tool | " + " | ".join(f"{s['file']['scale']}× `{q}`" for s in scales for q in QUERIES) + " |",
              "|---|" + "---|" * (len(scales) * len(QUERIES))]

    def row(name, getter):
        cells = []
        for s in scales:
            p = peers["scales"][str(s["file"]["scale"])]
            for q in QUERIES:
                mine = p["search"].get(SAME_PHASE, {}).get(q, step(s, f"search:{q}")["stats"])["median"]
                theirs = getter(s, p, q)
                if theirs is None:
                    cells.append("—")
                    continue
                text = f"{fmt_ms(theirs['median'])} ({fmt_ms(theirs['min'])})"
                cells.append(text if name.startswith("almanac") else f"{text} — **{ratio(theirs['median'], mine)}**")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")

    row("almanac `search` (all names, folded)", lambda s, p, q: step(s, f"search:{q}")["stats"])
    row("almanac `filter stationTitle ~`", lambda s, p, q: step(s, f"filter:contains:{q}")["stats"])
    variants = []
    for s in scales:
        for variant in peers["scales"][str(s["file"]["scale"])]["search"]:
            if variant not in variants:
                variants.append(variant)
    for variant in variants:
        row(variant, lambda s, p, q, v=variant: p["search"].get(v, {}).get(q))
    row("Swift contains, pre-lowered", lambda s, p, q: step(s, f"swift.prelowered:{q}")["stats"])
    row("Swift lowercased().contains", lambda s, p, q: step(s, f"swift.lowercased:{q}")["stats"])
    lines.append("")
    builds = []
    for s in scales:
        search = peers["scales"][str(s["file"]["scale"])]["search"]
        peers_builds = ", ".join(f"{v} {fmt_ms(r['build']['median'])}" for v, r in search.items() if "build" in r)
        builds.append(f"{s['file']['scale']}× almanac name index {fmt_ms(step(s, 'nameIndex')['stats']['median'])}"
                      + (f", {peers_builds}" if peers_builds else ""))
    lines += ["Index builds before the first query: " + "; ".join(builds) + ".", ""]
    counts = "; ".join(f"{s['file']['scale']}× " + ", ".join(
        f"`{q}` {s['counts'][f'title:{q}']:,} in stationTitle ({s['counts'][f'search:{q}']:,} with cityTitle)" for q in QUERIES)
        for s in scales)
    lines += [f"Matches (equal for every tool before timing): {counts}.", ""]
    if peers.get("startups") or peers.get("prompts"):
        lines += ["### Start-up: `--version`, `-c quit` against `:memory: .quit`, and the time to a usable prompt in a pseudo-terminal (median, min; same run, in alternation)", "",
                  "| what | median | min |", "|---|---|---|"]
        for name, value in {**peers.get("startups", {}), **peers.get("prompts", {})}.items():
            wall = value.get("wall", value)
            extra = f", {value['faults']:,.0f} faults" if "faults" in value else ""
            lines.append(f"| {name} | {fmt_ms(wall['median'])}{extra} | {fmt_ms(wall['min'])} |")
        lines.append("")
    if peers.get("comparisons"):
        lines += ["### Other races the peers bring (wall: median, min; CPU: user + system, median; ratio = almanac ÷ peer)", "",
                  "| race | answer | almanac | peer | ratio | almanac CPU | peer CPU |", "|---|---|---|---|---|---|---|"]
        for c in peers["comparisons"]:
            ours, theirs = c["ours"]["wall"], c["theirs"]["wall"]
            cpu = [side.get("user", 0) + side.get("system", 0) for side in (c["ours"], c["theirs"])]
            lines.append(f"| {c['title']} | {c['answer']} | {fmt_ms(ours['median'])} ({fmt_ms(ours['min'])}) | "
                         f"{fmt_ms(theirs['median'])} ({fmt_ms(theirs['min'])}) | {ours['median'] / theirs['median']:.2f}× | "
                         f"{fmt_ms(cpu[0])} | {fmt_ms(cpu[1])} |")
        lines.append("")
    return "\n".join(lines)


def almanac_tables(almanac):
    """almanac alone, in-process: every step at every scale, then memory and Ctrl-C."""
    scales = almanac["scales"]
    lines = ["### almanac alone, in-process (median, min in brackets; `almanac-bench`)", ""]
    lines += ["| step | " + " | ".join(f"{s['file']['scale']}×" for s in scales) + " |", "|---|" + "---|" * len(scales)]
    for first in scales[0]["steps"]:
        cells = []
        for s in scales:
            found = step(s, first["id"])
            if found is None:
                cells.append("—")
                continue
            cell = f"{fmt_ms(found['stats']['median'])} ({fmt_ms(found['stats']['min'])})"
            if found.get("mbPerSecond"):
                cell += f", {found['mbPerSecond']:.0f} MB/s"
            if found.get("count") is not None and not first["id"].startswith(("load", "decoder", "names", "nameIndex", "sort", "swift")):
                cell += f", n={found['count']:,}"
            cells.append(cell)
        lines.append(f"| {first['title']} | " + " | ".join(cells) + " |")
    lines += ["", "### Memory of a load in a fresh process (`almanac-bench --load-once` / `--decode-once`)", "",
              "| scale | file | almanac RSS after load | ÷ file | after malloc_trim | peak (VmHWM) | ÷ file | JSONDecoder RSS after load | JSONDecoder peak |",
              "|---|---|---|---|---|---|---|---|---|"]
    for s in scales:
        loads = {l["tool"]: l for l in s["processLoads"]}
        mine, theirs = loads.get("almanac"), loads.get("JSONDecoder")
        size = s["file"]["bytes"]
        lines.append(f"| {s['file']['scale']}× | {fmt_mb(size)} | {fmt_mb(mine['resident'])} | {mine['resident'] / size:.2f}× | "
                     f"{fmt_mb(mine['residentTrimmed'])} | {fmt_mb(mine['peak'])} | {mine['peak'] / size:.2f}× | "
                     f"{fmt_mb(theirs['resident'])} | {fmt_mb(theirs['peak'])} |")
    lines.append("")
    lines.append("Parsed document: " + "; ".join(
        f"{s['file']['scale']}× {s['documentNodes']:,} nodes ({fmt_mb(s['documentNodes'] * 8)}) + {fmt_mb(s['documentArenaBytes'])} arena"
        for s in scales) + ".")
    lines.append("")
    for s in [s for s in scales if s["cancellation"]]:
        lines += [f"### Ctrl-C at {s['file']['scale']}×: latency from the cancel request to the operation's return",
                  "", "| operation | its usual time | cancel at 20 % | at 50 % | at 80 % | worst |", "|---|---|---|---|---|---|"]
        for result in s["cancellation"]:
            def trial(t):
                if t["finishedBeforeCancel"]:
                    return "already done"
                return fmt_ms(t["latency"]) + ("" if t["stoppedByCancellation"] else " (ran to the end)")
            worst = max(t["latency"] for t in result["trials"])
            lines.append(f"| {result['title']} | {fmt_ms(result['duration'])} | " + " | ".join(trial(t) for t in result["trials"])
                         + f" | {fmt_ms(worst)} |")
        lines.append("")
    return "\n".join(lines)


def cpu(result):
    """User + system time of a whole process (median of each), from wait4."""
    return result["user"] + result["system"]


def cpu_ratio(mine, theirs):
    """The same comparison in CPU time, which a loaded machine disturbs far less than wall
    time (almanac's second thread then waits for a core that the one-threaded peers never
    need): the figure to trust when the load average is high."""
    return f"; CPU {cpu(mine) / cpu(theirs):.2f}× ({fmt_ms(cpu(mine))} vs {fmt_ms(cpu(theirs))})"


# Start-up against sqlite3 (issue 33): printing the version, and a session that runs `quit`.
STARTUP_LIMIT = 1.5
STARTUP_PAIRS = [("almanac --version", "sqlite3 --version"), ("almanac -c quit", "sqlite3 :memory: .quit")]


def targets(almanac, peers):
    checks = [dict(t) for t in almanac["targets"]]
    scales = {s["file"]["scale"]: s for s in almanac["scales"]}
    largest = max(scales)

    def add(target, measured, passed, scale):
        checks.append({"target": target, "measured": measured, "pass": bool(passed), "scale": scale})

    # First answer against simdjson and sqlite3, each scale.
    for scale in sorted(scales):
        counts = peers["scales"][str(scale)].get("counts", {})
        if "almanac" not in counts:
            continue
        limit, faster = [(at_most, at_least) for (start, at_most, at_least) in FIRST_ANSWER_LIMITS if scale >= start][-1]
        mine = counts["almanac"]["wall"]["median"]
        if "simdjson" in counts:
            theirs = counts["simdjson"]["wall"]["median"]
            add(f"first answer ≤ {limit:g}× simdjson's whole process", f"{mine / theirs:.2f}× ({fmt_ms(mine)} vs {fmt_ms(theirs)})"
                + cpu_ratio(counts["almanac"], counts["simdjson"]), mine <= limit * theirs, scale)
        if SQLITE_COUNT in counts:
            theirs = counts[SQLITE_COUNT]["wall"]["median"]
            add(f"first answer ≥ {faster:g}× faster than sqlite3's json_each count", f"{theirs / mine:.1f}× ({fmt_ms(theirs)} vs {fmt_ms(mine)})"
                + f"; CPU {cpu(counts[SQLITE_COUNT]) / cpu(counts['almanac']):.1f}×", theirs >= faster * mine, scale)
    load = step(scales[largest], "load")
    if largest >= 100 and load:
        add("in-process load ≥ 1 GB/s", f"{load['mbPerSecond']:.0f} MB/s ({fmt_ms(load['stats']['median'])})", load["mbPerSecond"] >= 1000, largest)
    # Memory of the largest load.
    loads = {l["tool"]: l for l in scales[largest]["processLoads"]}
    size = scales[largest]["file"]["bytes"]
    if largest >= 100:
        add("peak RSS of a load ≤ 1.25× the file", f"{loads['almanac']['peak'] / size:.2f}× ({fmt_mb(loads['almanac']['peak'])})",
            loads["almanac"]["peak"] <= 1.25 * size, largest)
        add("RSS after a load ≤ 0.75× the file", f"{loads['almanac']['resident'] / size:.2f}× ({fmt_mb(loads['almanac']['resident'])})",
            loads["almanac"]["resident"] <= 0.75 * size, largest)
    # Start-up against sqlite3.
    startups, prompts = peers.get("startups", {}), peers.get("prompts", {})
    for ours, theirs_name in STARTUP_PAIRS:
        if ours in startups and theirs_name in startups:
            mine, theirs = startups[ours]["wall"]["median"], startups[theirs_name]["wall"]["median"]
            add(f"{ours} ≤ {STARTUP_LIMIT:g}× {theirs_name}", f"{mine / theirs:.2f}× ({fmt_ms(mine)} vs {fmt_ms(theirs)})"
                + cpu_ratio(startups[ours], startups[theirs_name]), mine <= STARTUP_LIMIT * theirs, 1)
    if "sqlite3" in prompts:
        theirs = prompts["sqlite3"]["median"]
        for name, value in prompts.items():
            if name.startswith("almanac"):
                mine = value["median"]
                add(f"time to a usable prompt ({name}) ≤ 3× sqlite3's", f"{mine / theirs:.2f}× ({fmt_ms(mine)} vs {fmt_ms(theirs)})",
                    mine <= 3 * theirs, largest)
    # Loads against sqlite3 and JSONDecoder (the first round's targets).
    for scale in sorted(scales):
        if scale < 10:
            continue
        loads = peers["scales"][str(scale)]["loads"]
        mine = loads["almanac"]["wall"]["median"]
        if "sqlite3 json_each" in loads:
            r = loads["sqlite3 json_each"]["wall"]["median"] / mine
            add("load ≥ 3× faster than sqlite3 json_each (fresh processes)",
                f"{r:.1f}×; CPU {cpu(loads['sqlite3 json_each']) / cpu(loads['almanac']):.1f}×", r >= 3, scale)
        if "Swift JSONDecoder" in loads:
            r = loads["Swift JSONDecoder"]["wall"]["median"] / mine
            add("load ≥ 5× faster than JSONDecoder (fresh processes)", f"{r:.1f}×", r >= 5, scale)
    # Search at the largest scale: no slower than FTS5; ≥ 5× faster than Python's best scan.
    s = scales[largest]
    search = peers["scales"][str(largest)]["search"]
    python = [v for name, v in search.items() if name.startswith("Python")]
    for q in QUERIES:
        # almanac's search timed between the peers' (bench/peers), when the run has it.
        mine = search.get(SAME_PHASE, {}).get(q, step(s, f"search:{q}")["stats"])["median"]
        if "SQLite FTS5 trigram MATCH" in search:
            fts = search["SQLite FTS5 trigram MATCH"][q]["median"]
            add(f"search {q} no slower than SQLite FTS5 trigram", f"{mine / fts:.2f}× FTS5's time ({fmt_ms(mine)} vs {fmt_ms(fts)})",
                mine <= fts, largest)
        if python:
            best = min(v[q]["median"] for v in python)
            add(f"search {q} ≥ 5× faster than Python's best pre-lowered scan", f"{best / mine:.1f}× ({fmt_ms(best)} vs {fmt_ms(mine)})",
                best >= 5 * mine, largest)
    if "SQLite FTS5 trigram MATCH" in search:
        build = step(s, "nameIndex")["stats"]["median"]
        first = build + step(s, "search:моск")["stats"]["median"]
        fts_build = search["SQLite FTS5 trigram MATCH"]["build"]["median"]
        add("first search does not hold the prompt for seconds as FTS5's build does (< 1 s)",
            f"{fmt_ms(first)} (index {fmt_ms(build)}; FTS5 build {fmt_ms(fts_build)})", first < 1000, largest)
    if largest >= 100:
        judged = " ".join(t["target"] for t in almanac["targets"])
        for step_id, (title, limit) in COMMAND_LIMITS.items():
            found = step(scales[largest], step_id)
            if found and title not in judged:
                value = found["stats"]["median"]
                add(f"{title} ≤ {limit} ms", fmt_ms(value), value <= limit, largest)
    memory = peers.get("memory")
    if memory and "DuckDB in memory" in memory["times"]:
        mine, theirs = memory["times"][MEMORY_PHASE], memory["times"]["DuckDB in memory"]
        for q in MEMORY_QUERIES:
            title, _, _, limit = MEMORY_TITLES[q]
            if limit and q in mine and q in theirs:
                r = mine[q]["median"] / theirs[q]["median"]
                add(f"in memory: {title} ≤ {limit:g}× DuckDB's", f"{r:.2f}× ({fmt_ms(mine[q]['median'])} vs {fmt_ms(theirs[q]['median'])})",
                    r <= limit, memory["scale"])
    for c in peers.get("comparisons", []):
        if c.get("limit"):
            mine, theirs = c["ours"]["wall"]["median"], c["theirs"]["wall"]["median"]
            add(f"{c['title']}: almanac ≤ {c['limit']:g}× the peer", f"{mine / theirs:.2f}×", mine <= c["limit"] * theirs, 0)
    return checks


def write_report(almanac, peers, out):
    peers["targets"] = targets(almanac, peers)
    machine = almanac["machine"]
    heading = (f"Run of {peers['date']} ({peers['mode']}), {machine['processors']} × {machine['cpuModel']}, "
               f"{machine['memoryBytes'] / 2**30:.1f} GiB RAM, {machine['kernel']}; load average "
               f"{almanac.get('loadAverageBefore', '?')} before almanac-bench, {almanac.get('loadAverageAfter', '?')} after, "
               f"{peers.get('loadAverageProcesses', '?')} before the whole-process races; "
               f"source tree {peers.get('tree', '?')}. "
               "Tools: " + ", ".join(f"{k} {v}" for k, v in peers["versions"].items()) + ".")
    target_lines = ["| target | scale | measured | |", "|---|---|---|---|"] + [
        f"| {t['target']} | {t['scale']}× | {t['measured']} | {'PASS' if t['pass'] else 'MISS'} |" for t in peers["targets"]]
    memory = "\n".join(memory_table(peers["memory"])) + "\n" if peers.get("memory") else ""
    report = (heading + "\n\n" + markdown_tables(almanac, peers) + "\n" + memory + almanac_tables(almanac)
              + "\n### Targets\n\n" + "\n".join(target_lines) + "\n")
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(report)
    log("\n" + report)
    log(f"wrote {os.path.join(out, 'report.md')}, peers.json and almanac.json")
