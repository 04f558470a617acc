"""Benchmark of the Splendor engine on one core: random and Greedy games per second, and
Minimax seconds per move; then the peak memory of a whole match with worker processes.

    python benchmarks/splendor.py                     # defaults below
    python benchmarks/splendor.py --random 100000 --greedy 5000 --positions 30 --depths 4 5 6
    python benchmarks/splendor.py --only-memory --memory-games 100000 --memory-jobs 2
    python benchmarks/splendor.py --json runs/splendor-benchmark.json   # figures as JSON

Kernels are compiled (or loaded from numba's cache) and warmed on a few games first. Game
rates are the best of ``--repeat`` runs (the machine may be shared); Minimax times are per
move on positions reached by Greedy-vs-Greedy play from fixed seeds (median and max), and
the load average is printed so a figure taken on a busy machine can be read for what it is.

Memory: ``tabletune play splendor`` runs as a child process (``--memory-jobs`` workers,
``--memory-games`` games per line-up); the resident memory of its whole process tree
(main process plus workers) is sampled every 50 ms with psutil where it is installed, and
the largest single process with it (without psutil: ``getrusage(RUSAGE_CHILDREN)``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.splendor.game import GAME  # noqa: E402
from games.splendor.kernel import decide  # noqa: E402
from games.splendor.players import bot_row, make_bot  # noqa: E402
from games.splendor.state import SplendorState  # noqa: E402


def games_per_second(bots: list[str], count: int, repeat: int) -> tuple[float, float, float]:
    """(best games/s, mean rounds, capped share) of ``count`` games between ``bots``."""
    specs = [GAME.parse_bot(b) for b in bots]
    GAME.play(specs, {}, 0, 0, 20)  # compile / load and warm
    best = 0.0
    out = None
    for r in range(repeat):
        t = time.perf_counter()
        out = GAME.play(specs, {}, 1 + r, 0, count)
        best = max(best, count / (time.perf_counter() - t))
    assert out is not None
    return best, float(out.turns.mean()), float(out.capped.mean())


def search_positions(count: int, seed: int = 1) -> list[SplendorState]:
    """Positions over the whole game: Greedy vs Greedy for 4..59 turns from fixed deals."""
    rng = np.random.default_rng(seed)
    greedy = make_bot("greedy")
    out = []
    for i in range(count):
        st = SplendorState.new(2, seed, i)
        for _ in range(int(rng.integers(4, 60))):
            if st.is_terminal():
                break
            st.apply(greedy.act(st))
        while not st.is_terminal() and st.phase != "main":
            st.apply(greedy.act(st))
        if not st.is_terminal():
            out.append(st)
    return out


def seconds_per_move(depth: int, positions: list[SplendorState], name: str,
                     prune: bool = True) -> list[float]:
    row = bot_row(name, make_bot(name, {"depth": depth, "prune": prune}).params)
    stream = np.array([1], dtype=np.uint64)
    decide(positions[0].array.copy(), bot_row(name, make_bot(name, {"depth": 2}).params),
           stream)  # compile / load
    times = []
    for st in positions:
        t = time.perf_counter()
        decide(st.array.copy(), row, stream)
        times.append(time.perf_counter() - t)
    return times


def match_memory(bots: str, games: int, jobs: int) -> dict[str, float]:
    """Peak memory (MiB) and wall seconds of one ``tabletune play`` match in a child process:
    the whole tree's peak (sampled; NaN without psutil) and the largest single process."""
    cmd = [sys.executable, "-m", "tuning.cli", "play", "splendor", "--bots", bots, "-n",
           str(games), "--jobs", str(jobs), "--seed", "1", "--json"]
    root = Path(__file__).resolve().parents[1]
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    tree_peak = single = float("nan")
    try:
        import psutil

        tree_peak = single = 0.0
        main = psutil.Process(proc.pid)
        while proc.poll() is None:
            try:
                sizes = [p.memory_info().rss / 2**20
                         for p in (main, *main.children(recursive=True))]
            except psutil.Error:
                sizes = [0.0]
            tree_peak = max(tree_peak, sum(sizes))
            single = max(single, *sizes)
            time.sleep(0.05)
    except ImportError:
        pass
    out, _ = proc.communicate()
    seconds = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed with status {proc.returncode}")
    data = json.loads(out)
    if single != single:  # no psutil: the largest child reaped so far (KiB on Linux)
        single = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"bots": bots, "games": games, "jobs": jobs, "seconds": seconds,
            "games_per_second": data["games_per_second"], "tree_peak_mib": tree_peak,
            "largest_process_mib": single}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=50_000, help="random games to time")
    ap.add_argument("--greedy", type=int, default=3_000, help="Greedy games to time")
    ap.add_argument("--positions", type=int, default=20, help="positions per depth")
    ap.add_argument("--depths", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("--bot", default="minimax", help="minimax (allEval) or minimax2")
    ap.add_argument("--plain", type=int, nargs="*", default=[3, 4],
                    help="depths also timed without alpha-beta")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--memory-games", type=int, default=100_000,
                    help="games of the match whose peak memory is measured (0: skip)")
    ap.add_argument("--memory-jobs", type=int, default=2, help="its worker processes")
    ap.add_argument("--memory-bots", default="random,random;greedy,greedy",
                    help="line-ups measured, ';' between them")
    ap.add_argument("--only-memory", action="store_true", help="skip the speed figures")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    a = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; one core (numba kernels, no threads)")
    figures: dict = {"load_average": os.getloadavg()[0], "memory": []}
    if a.memory_games > 0:
        for bots in a.memory_bots.split(";"):
            m = match_memory(bots, a.memory_games, a.memory_jobs)
            figures["memory"].append(m)
            print(f"memory of a {m['games']:,}-game match {bots} with {m['jobs']} jobs: peak "
                  f"{m['tree_peak_mib']:.0f} MiB for the whole process tree, largest single "
                  f"process {m['largest_process_mib']:.0f} MiB; {m['seconds']:.1f} s "
                  f"({m['games_per_second']:,.0f} games/s)")
    if a.only_memory:
        _write(a.json, figures)
        return
    gps, rounds, capped = games_per_second(["random", "random"], a.random, a.repeat)
    figures["random_games_per_second"] = gps
    print(f"random vs random, 2 players: {gps:,.0f} games/s (target 20,000); "
          f"mean rounds {rounds:.1f}, capped {capped:.2%}; Rust reference 98,000 "
          f"-> ratio {gps / 98_000:.2f}")
    gps, rounds, capped = games_per_second(["greedy", "greedy"], a.greedy, a.repeat)
    figures["greedy_games_per_second"] = gps
    print(f"greedy vs greedy, 2 players: {gps:,.0f} games/s (target 1,000); "
          f"mean rounds {rounds:.1f}, capped {capped:.2%}")
    positions = search_positions(a.positions)
    runs = [(d, True) for d in a.depths] + [(d, False) for d in a.plain]
    for depth, prune in runs:
        times = seconds_per_move(depth, positions, a.bot, prune)
        label = f"{a.bot}({depth})" + ("" if prune else " without alpha-beta")
        figures.setdefault("seconds_per_move", {})[label] = {
            "median": statistics.median(times), "mean": statistics.fmean(times),
            "max": max(times), "positions": len(times)}
        print(f"{label}: median {statistics.median(times):.4f} s/move, "
              f"mean {statistics.fmean(times):.4f}, max {max(times):.4f} s over "
              f"{len(times)} positions" + (" (target <= 1 s)" if depth == 4 and prune else ""))
    _write(a.json, figures)


def _write(path: Path | None, figures: dict) -> None:
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
