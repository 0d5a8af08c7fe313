"""Time to a usable prompt: a tool started alone in a pseudo-terminal, as a person opens it,
until its prompt text is on the screen."""

import os
import pty
import re
import select
import signal
import statistics
import time

from measure import fail, fmt_ms, log, stats

ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|[\x01\x02]")


def time_to_prompt(command, prompt, environment, timeout=10.0):
    """Milliseconds from spawning `command` on a pseudo-terminal until `prompt` is on screen."""
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execve(command[0], command, environment)
        finally:
            os._exit(127)
    seen = b""
    elapsed = None
    try:
        while time.perf_counter() - started < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if prompt.encode() in ANSI.sub(b"", seen):
                elapsed = (time.perf_counter() - started) * 1000
                break
    finally:
        try:
            os.write(fd, b"\x04")
            time.sleep(0.02)
        except OSError:
            pass
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    if elapsed is None:
        fail(f"no '{prompt}' from {' '.join(command)} within {timeout} s; it printed:\n"
             + ANSI.sub(b"", seen).decode(errors="replace")[-1000:])
    return elapsed


def measure_prompts(cases, environment, runs=10):
    """cases: {name: (argv, prompt text, extra environment)}, timed in alternation."""
    samples = {name: [] for name in cases}
    for attempt in range(1 + runs):
        for name, (argv, prompt, extra) in cases.items():
            elapsed = time_to_prompt(argv, prompt, {**environment, **extra})
            if attempt > 0:
                samples[name].append(elapsed)
    results = {}
    for name, values in samples.items():
        results[name] = stats(values, 1)
        log(f"  prompt {name:<26} {fmt_ms(statistics.median(values)):>9}  min {fmt_ms(min(values)):>9}  ×{runs}")
    return results
