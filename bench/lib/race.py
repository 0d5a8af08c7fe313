"""Whole processes side by side: every tool once per round, so a minute's drift touches them
all alike; each answer checked before any time is kept."""

import statistics

from measure import fail, fmt_mb, fmt_ms, log, run_measured, stats


def check(name, answer, expected):
    if "output" in answer:
        fail(f"{name} printed no answer: {answer['output']!r}")
    for key, value in answer.items():
        if key in expected and value != expected[key]:
            fail(f"{name} answered {key} = {value:,}, expected {expected[key]:,} ({expected})")


def race(commands, expected, runs, warmups, label):
    """{name: Command} → {name: {wall, peakRSS, faults, user, system}}, each answer equal to
    `expected` (the counts it reports; a parser that reports none is not checked)."""
    samples = {name: {"wall": [], "peak": [], "faults": [], "user": [], "system": []} for name in commands}
    for attempt in range(warmups + runs):
        for name, command in commands.items():
            usage = {}
            wall, peak, out = run_measured(command.argv, stdin=command.stdin, env=command.env, usage_out=usage)
            check(name, command.parse(out), expected)
            if attempt >= warmups:
                kept = samples[name]
                kept["wall"].append(wall)
                kept["peak"].append(peak)
                for key in ("faults", "user", "system"):
                    kept[key].append(usage[key])
    results = {}
    for name, kept in samples.items():
        results[name] = {"wall": stats(kept["wall"], warmups), "peakRSS": max(kept["peak"]),
                         "faults": statistics.median(kept["faults"]), "user": statistics.median(kept["user"]),
                         "system": statistics.median(kept["system"])}
        log(f"  {label:<6} {name:<26} {fmt_ms(statistics.median(kept['wall'])):>9}  min {fmt_ms(min(kept['wall'])):>9}  ×{runs}"
            f"  peak RSS {fmt_mb(max(kept['peak'])):>7}  faults {statistics.median(kept['faults']):>8,.0f}"
            f"  user {fmt_ms(results[name]['user']):>9}  sys {fmt_ms(results[name]['system']):>9}")
    return results


def compare(comparison):
    """A peer's own race: both sides' answers equal, then both timed in alternation."""
    from peer import Command  # noqa: F401  (for the type)
    ours = comparison.ours.parse(run_measured(comparison.ours.argv, stdin=comparison.ours.stdin, env=comparison.ours.env)[2])
    theirs = comparison.theirs.parse(run_measured(comparison.theirs.argv, stdin=comparison.theirs.stdin,
                                                  env=comparison.theirs.env)[2])
    if ours != theirs or "output" in ours:
        fail(f"{comparison.title}: almanac answered {ours}, the peer {theirs}")
    timed = race({"almanac": comparison.ours, "peer": comparison.theirs}, ours, comparison.runs, 1, comparison.id)
    return {"id": comparison.id, "title": comparison.title, "limit": comparison.limit, "answer": ours,
            "ours": timed["almanac"], "theirs": timed["peer"]}
