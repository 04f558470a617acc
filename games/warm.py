"""Compile every registered game's kernels once, in parallel, before many processes need them.

numba compiles a kernel on its first call in each process unless its on-disk cache already
holds it; on a fresh checkout the largest kernels take minutes. Processes started together
(pytest-xdist workers, a pool's first blocks) would each compile the same kernels at the same
time. Warming first, one game per process and the slowest first, pays each compile once:

    python -m games.warm                 # every registered game, two processes
    python -m games.warm --jobs 4 thegame splendor
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from games import registry
from games.capabilities import part, use


def order(names: Sequence[str]) -> list[str]:
    """``names`` with the slowest compilers first, so the pool ends together: each game's
    package says what its first compile takes (``FIRST_USE_SECONDS``, the ``compiling``
    capability of :mod:`games.capabilities`); a game that says nothing, or is not
    registered, goes after them, in the given order."""
    known = set(registry.names())

    def seconds(name: str) -> float:
        if name not in known:
            return 0.0
        return float(part(registry.get(name), "compiling", "FIRST_USE_SECONDS") or 0.0)

    return sorted(names, key=lambda name: -seconds(name))


def warm_one(name: str) -> float:
    """Warm one game in this process; returns the seconds it took."""
    start = time.perf_counter()
    use(registry.get(name), "kernels").warm_up()
    return time.perf_counter() - start


def warm_all(names: Sequence[str] | None = None, jobs: int = 2,
             on_done: Callable[[str, float], None] | None = None) -> dict[str, float]:
    """Warm ``names`` (default: every registered game), each in a fresh Python process,
    ``jobs`` at a time; returns seconds per game. A game whose warm-up fails is reported on
    stderr and left to compile where it is used: warming never stops the caller. ``on_done``
    hears each game as it finishes (name, seconds)."""
    games = order(list(names) if names else registry.names())

    def run(name: str) -> tuple[str, float]:
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "games.warm", "--in-process", name],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            print(f"warm-up of {name} failed: {last}", file=sys.stderr)
        seconds = time.perf_counter() - start
        if on_done is not None:
            on_done(name, seconds)
        return name, seconds

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        return dict(pool.map(run, games))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.warm", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("games", nargs="*", help="games to warm (default: all registered)")
    parser.add_argument("--jobs", type=int, default=2, help="processes at a time (default 2)")
    parser.add_argument("--in-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    unknown = sorted(set(args.games) - set(registry.names()))
    if unknown:
        print(f"error: unknown game {unknown[0]!r} (choose from "
              f"{', '.join(registry.names())})", file=sys.stderr)
        return 2
    if args.in_process:
        for name in args.games:
            warm_one(name)
        return 0
    names = order(list(args.games) if args.games else registry.names())
    print(f"compiling the numba kernels of {', '.join(names)}, {max(1, args.jobs)} at a time "
          "(on a fresh clone about a minute on 2 cores; seconds when they are cached)", flush=True)
    warm_all(names, args.jobs, lambda name, seconds: print(f"{name}: {seconds:.1f} s",
                                                           flush=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
