"""Start-up time of the command line: wall seconds of short commands against ``python -c pass``.

    python benchmarks/cli_startup.py [--repeats 15] [--json]

Each command runs ``--repeats`` times, interleaved with the others so that a busy moment of
a shared machine touches them all alike; the figure is the median wall time, and the ratio
to ``python -c pass`` of the same run says what the command line adds to the interpreter's
own start. CPU seconds (user + system, of the command and its children) are printed too:
on a busy shared machine they move less than wall time. One untimed run of each first fills
the numba cache and the OS file cache. The target: ``tabletune --help`` and ``tabletune
studies`` within 0.3 s (they import no game), and a command that plays one game imports that
game alone.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "tabletune --help": ["tabletune", "--help"],
    "tabletune studies": ["tabletune", "studies"],
    "tabletune solve deckbuilder --turns 40": ["tabletune", "solve", "deckbuilder",
                                               "--turns", "40"],
}


def _command(words: list[str]) -> list[str]:
    """The console script of this interpreter's environment, or ``python -m tuning.cli``."""
    if words[0] != "tabletune":
        return words
    script = os.path.join(os.path.dirname(sys.executable), "tabletune")
    if os.path.isfile(script) or shutil.which("tabletune"):
        return [script if os.path.isfile(script) else "tabletune", *words[1:]]
    return [sys.executable, "-m", "tuning.cli", *words[1:]]


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _wall(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run."""
    cpu, start = _cpu(), time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.strip()}")
    return seconds, _cpu() - cpu


def measure(repeats: int) -> dict[str, dict[str, float]]:
    """Median and best wall seconds of every command, the median's ratio to Python's, and
    the median CPU seconds."""
    cmds = {name: _command(words) for name, words in COMMANDS.items()}
    for cmd in cmds.values():  # warm-up: numba cache, file cache
        _wall(cmd)
    times: dict[str, list[float]] = {name: [] for name in cmds}
    cpus: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(repeats):
        for name, cmd in cmds.items():
            wall, cpu = _wall(cmd)
            times[name].append(wall)
            cpus[name].append(cpu)
    base = statistics.median(times["python -c pass"])
    return {name: {"median_s": statistics.median(t), "best_s": min(t),
                   "ratio": statistics.median(t) / base,
                   "cpu_s": statistics.median(cpus[name])} for name, t in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args()
    before = os.getloadavg()[0]
    rows = measure(args.repeats)
    load = os.getloadavg()[0]
    # without bytecode files every run compiles the project's own modules again
    pyc = "off (PYTHONDONTWRITEBYTECODE)" if os.environ.get("PYTHONDONTWRITEBYTECODE") \
        else "on"
    if args.json:
        print(json.dumps({"repeats": args.repeats, "load_average": load,
                          "load_average_before": before, "bytecode_cache": pyc,
                          "commands": rows}, indent=2))
        return
    print(f"median of {args.repeats} runs each; load average {before:.1f} before, "
          f"{load:.1f} after, on {os.cpu_count()} cores; bytecode cache {pyc}")
    print(f"{'command':42s} {'median s':>9s} {'best s':>8s} {'x python':>9s} {'cpu s':>7s}")
    for name, row in rows.items():
        print(f"{name:42s} {row['median_s']:9.3f} {row['best_s']:8.3f} {row['ratio']:9.2f} "
              f"{row['cpu_s']:7.3f}")


if __name__ == "__main__":
    main()
