"""First use on a fresh clone: how long listing commands and one match per game take before
numba's on-disk cache holds anything, and how soon each command says something on stderr.

    python benchmarks/first_use.py [--rev HEAD] [--repo .] [--json] [--skip-play]

The script clones ``--rev`` of ``--repo`` into a temporary folder (so no compiled kernel is
cached there) and runs each command once as ``python -m tuning.cli ...`` from a clone (its
own ``games`` and ``tuning`` come first on ``sys.path``), with the interpreter of this
environment. The listing commands share one clone, in order, so each sees a cache as empty
as a new user's (they should compile nothing); each ``play`` gets a clone of its own, so
each is a true first use. Per command it prints the wall seconds, the seconds until the
first line on stderr (a silent command shows ``-``), and the first stderr line. Run it on a
quiet machine: compiling is CPU bound.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass

LISTING: list[list[str]] = [
    ["--help"],
    ["studies"],
    ["bots", "deckbuilder"],
    ["bots", "dominion"],
    ["bots", "splendor"],
    ["bots", "thegame"],
    ["bots", "dominion", "big-money", "--params"],
    ["bots", "splendor", "buy-and-deny"],
    ["bots", "thegame", "recovery-fallback"],
]

PLAYS: list[list[str]] = [
    ["play", "deckbuilder", "-n", "4"],
    ["play", "dominion", "--bots", "big-money,smithy-big-money", "-n", "4"],
    ["play", "splendor", "--bots", "greedy,random", "-n", "4"],
    ["play", "thegame", "-n", "4"],
    ["play", "thegame", "--bots", "best:thegame-penalty-d0,recovery-fallback", "-n", "4"],
    ["play", "splendor", "--bots", "best:splendor-buyanddeny", "-n", "4"],
]


@dataclass
class Timing:
    """One command's wall seconds, seconds to its first stderr line, and that line."""

    command: str
    seconds: float
    cpu_seconds: float
    first_stderr_s: float | None
    first_stderr: str
    status: int


def _run(clone: str, words: list[str]) -> Timing:
    """Run ``tabletune WORDS`` from ``clone``, timing the first stderr line as it arrives."""
    env = dict(os.environ, PYTHONPATH=clone, TABLETUNE_PROGRESS_SECONDS="2")
    env.pop("NUMBA_CACHE_DIR", None)
    cpu = _cpu()
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "tuning.cli", *words], cwd=clone, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    first: list[tuple[float, str]] = []

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            if not first and line.strip():
                first.append((time.perf_counter() - start, line.strip()))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    status = proc.wait()
    seconds = time.perf_counter() - start
    reader.join(timeout=5)
    at, line = first[0] if first else (None, "")
    return Timing(" ".join(["tabletune", *words]), seconds, _cpu() - cpu, at, line[:110],
                  status)


def _cpu() -> float:
    """User + system CPU seconds of the finished children (moves less than wall time on a
    busy machine)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default="HEAD", help="revision to clone (default HEAD)")
    parser.add_argument("--repo", default=os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), help="repository to clone (default: this one)")
    parser.add_argument("--skip-play", action="store_true", help="listing commands only")
    parser.add_argument("--json", action="store_true", help="one JSON document on stdout")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tabletune-first-use-") as folder:
        clone = os.path.join(folder, "clone")
        subprocess.run(["git", "clone", "--quiet", args.repo, clone], check=True)
        subprocess.run(["git", "-C", clone, "checkout", "--quiet", args.rev], check=True)
        rev = subprocess.run(["git", "-C", clone, "rev-parse", "--short", "HEAD"], check=True,
                             capture_output=True, text=True).stdout.strip()
        timings: list[Timing] = []
        for k, words in enumerate(LISTING + ([] if args.skip_play else PLAYS)):
            if k >= len(LISTING):  # a fresh clone: this command's own first use
                here = os.path.join(folder, f"play{k}")
                subprocess.run(["git", "-c", "advice.detachedHead=false", "clone", "--quiet", clone,
                                here], check=True)
            else:
                here = clone
            timings.append(_run(here, words))
            if not args.json:
                t = timings[-1]
                said = "-" if t.first_stderr_s is None else f"{t.first_stderr_s:.1f}"
                print(f"{t.seconds:7.1f} s  cpu {t.cpu_seconds:6.1f} s  first stderr {said:>5} s  "
                      f"{t.command}"
                      f"{'' if t.status == 0 else f'  (exit {t.status})'}", flush=True)
                if t.first_stderr:
                    print(f"{'':10}{t.first_stderr}", flush=True)
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"rev": rev, "cores": os.cpu_count(), "load": load,
                          "timings": [asdict(t) for t in timings]}, indent=2))
    else:
        print(f"rev {rev}, {os.cpu_count()} cores, load average now "
              f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
