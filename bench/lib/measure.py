"""Running processes and timing them: what every peer and the runner share."""

import os
import statistics
import subprocess
import sys
import time


def log(text=""):
    print(text, flush=True)


def fail(message):
    sys.exit(f"bench/peers: {message}")


def run_measured(command, stdin=None, env=None, usage_out=None):
    """Runs a command to completion: (wall ms, its own peak RSS in bytes, stdout text).
    Fails the run when it exits non-zero. `usage_out`, a dict, gets the child's page faults
    and CPU times (wait4's rusage): counts that a busy machine distorts less than wall time."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                               stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL)
    if stdin is not None:
        process.stdin.write(stdin.encode())
        process.stdin.close()
    out = process.stdout.read()
    err = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = (time.perf_counter() - started) * 1000
    code = os.waitstatus_to_exitcode(status)
    if usage_out is not None:
        usage_out.update(faults=usage.ru_minflt + usage.ru_majflt, user=usage.ru_utime * 1000, system=usage.ru_stime * 1000)
    if code != 0:
        fail(f"{' '.join(command[:3])} … exited {code}: {err.decode(errors='replace')[-2000:]}")
    return wall, usage.ru_maxrss * 1024, out.decode(errors="replace")


def run_process(command, stdin=None, env=None):
    """(wall ms, stdout text)."""
    wall, _, out = run_measured(command, stdin=stdin, env=env)
    return wall, out


def stats(samples, warmups=0):
    return {"runs": [round(s, 4) for s in samples], "warmups": warmups, "median": round(statistics.median(samples), 4),
            "min": round(min(samples), 4), "max": round(max(samples), 4)}


def time_query(function, expected, runs=21, warmups=3, what=""):
    """Times an in-process query whose answer must be `expected` every time."""
    for _ in range(warmups):
        if function() != expected:
            fail(f"{what} counted {function()}, almanac {expected}")
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        count = function()
        samples.append((time.perf_counter() - started) * 1000)
        if count != expected:
            fail(f"{what} counted {count}, almanac {expected}")
    return stats(samples, warmups)


def fmt_ms(value):
    if value is None:
        return "—"
    if value >= 10000:
        return f"{value / 1000:.1f} s"
    if value >= 100:
        return f"{value:.0f} ms"
    if value >= 10:
        return f"{value:.1f} ms"
    if value >= 1:
        return f"{value:.2f} ms"
    return f"{value:.3f} ms"


def fmt_mb(value):
    return f"{value / 1e6:.0f} MB" if value >= 1e7 else f"{value / 1e6:.1f} MB"


def last_numbers(text):
    """The integers on the last non-empty line of `text` (thousands separators allowed)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return []
    import re
    return [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", lines[-1])]
