"""Benchmark of the Splendor engine on one core: random and Greedy games per second, and
Minimax seconds and positions per move with and without its search aids; then the peak
memory of a whole match with worker processes.

    python benchmarks/splendor.py                     # defaults below
    python benchmarks/splendor.py --random 100000 --greedy 5000 --positions 30 --depths 4 5 6
    python benchmarks/splendor.py --only-search --depths 3 4 5
    python benchmarks/splendor.py --only-memory --memory-games 100000 --memory-jobs 2
    python benchmarks/splendor.py --json runs/splendor-benchmark.json   # figures as JSON

Kernels are compiled (or loaded from numba's cache) and warmed on a few games first. Game
rates are the best of ``--repeat`` runs (the machine may be shared), and the load average
is printed so a figure taken on a busy machine can be read for what it is.

Minimax: on ``--positions`` positions reached by Greedy-vs-Greedy play from fixed seeds,
each depth is searched by alpha-beta alone, with the transposition table (``tt=1``), with
iterative deepening (``deepen=1``) and with both (the default from depth 4), the variants
taking turns position by position, each position searched ``--search-repeat`` times (the
least time kept); per move: wall and CPU seconds (median, p90, max, mean; CPU time is what
the search itself used, steadier on a shared machine), positions generated and table
hits. Every variant must pick the same move (checked). ``--plain`` depths also
time plain minimax. From depth 4, ``--match-games`` whole games against Greedy are timed
per variant too (the batch kernel, which makes one table per match, not one per move).

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

from games.core import BotSpec  # noqa: E402
from games.splendor._kernel import decide_counted  # noqa: E402
from games.splendor._players import bot_row, make_bot  # noqa: E402
from games.splendor._state import SplendorState  # noqa: E402
from games.splendor._ttable import C_HITS, C_NODES, N_COUNTERS  # noqa: E402
from games.splendor.game import GAME  # noqa: E402

# (label suffix, parameters) of the Minimax variants timed at every depth
VARIANTS = (("alpha-beta", {"tt": False, "deepen": False}),
            ("alpha-beta + table", {"tt": True, "deepen": False}),
            ("alpha-beta + deepening", {"tt": False, "deepen": True}),
            ("alpha-beta + table + deepening", {"tt": True, "deepen": True}))


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


def search_costs(depth: int, positions: list[SplendorState], name: str,
                 variants: list[tuple[str, dict]], repeat: int) -> dict[str, dict[str, float]]:
    """Per-move costs of each variant of bot ``name`` at ``depth`` over ``positions``: wall
    and CPU seconds (median, p90, max, mean; each position's time the least of ``repeat``
    searches), mean positions generated and table hits. The variants take turns on each
    position (rotating who goes first)."""
    rows = [bot_row(name, make_bot(name, {"depth": depth, **values}).params)
            for _, values in variants]
    stream = np.array([1], dtype=np.uint64)
    scratch = np.zeros(N_COUNTERS, dtype=np.int64)
    for row in rows:  # compile / load
        decide_counted(positions[0].array.copy(), row, stream, scratch)
    wall: list[list[float]] = [[] for _ in rows]
    cpu: list[list[float]] = [[] for _ in rows]
    counts = [np.zeros(N_COUNTERS, dtype=np.int64) for _ in rows]
    for k, st in enumerate(positions):
        picks = {}
        best_wall = [float("inf")] * len(rows)
        best_cpu = [float("inf")] * len(rows)
        for r in range(repeat):
            for j in range(len(rows)):
                v = (j + k + r) % len(rows)
                seen = counts[v] if r == 0 else np.zeros(N_COUNTERS, dtype=np.int64)
                t, c = time.perf_counter(), time.process_time()
                picks[v] = int(decide_counted(st.array.copy(), rows[v], stream, seen))
                best_cpu[v] = min(best_cpu[v], time.process_time() - c)
                best_wall[v] = min(best_wall[v], time.perf_counter() - t)
        for v in range(len(rows)):
            wall[v].append(best_wall[v])
            cpu[v].append(best_cpu[v])
        if len(set(picks.values())) != 1:
            raise SystemExit(f"depth {depth}: the variants chose different moves {picks}")
    out = {}
    for (label, _), w, c, n in zip(variants, wall, cpu, counts, strict=True):
        out[f"{name}({depth}) {label}"] = {
            "depth": depth, "median": statistics.median(w), "p90": _p90(w), "max": max(w),
            "mean": statistics.fmean(w), "cpu_median": statistics.median(c),
            "cpu_p90": _p90(c), "cpu_mean": statistics.fmean(c), "repeat": repeat,
            "nodes_per_move": int(n[C_NODES]) / len(positions),
            "table_hits_per_move": int(n[C_HITS]) / len(positions),
            "positions": len(positions)}
    return out


def match_costs(depth: int, games: int, name: str,
                variants: list[tuple[str, dict]]) -> dict[str, dict[str, float]]:
    """Seconds (wall and CPU) of ``games`` games of bot ``name`` at ``depth`` against Greedy
    (seed 1, seats rotated) for each variant: the batch kernel, one table per match. The
    variants play the same moves, so the games must come out identical (checked)."""
    out = {}
    first = None
    for label, values in variants:
        specs = [BotSpec(name, {"depth": depth, **values}), BotSpec("greedy")]
        GAME.play(specs, {}, 0, 0, 1)  # compile / load
        t, c = time.perf_counter(), time.process_time()
        res = GAME.play(specs, {}, 1, 0, games)
        cpu = time.process_time() - c
        wall = time.perf_counter() - t
        if first is None:
            first = res
        elif not (np.array_equal(first.score, res.score)
                  and np.array_equal(first.turns, res.turns)):
            raise SystemExit(f"{name}({depth}) {label}: the games differ from the first variant")
        out[f"{name}({depth}) vs greedy {label}"] = {
            "depth": depth, "games": games, "seconds": wall, "cpu_seconds": cpu,
            "mean_rounds": float(res.turns.mean())}
    return out


def _p90(values: list[float]) -> float:
    return float(np.quantile(values, 0.9))


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
    ap.add_argument("--positions", type=int, default=120, help="positions per depth")
    ap.add_argument("--depths", type=int, nargs="*", default=[3, 4, 5])
    ap.add_argument("--bot", default="minimax", help="minimax (allEval) or minimax2")
    ap.add_argument("--plain", type=int, nargs="*", default=[3, 4],
                    help="depths also timed without alpha-beta (and without aids)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each game rate (best)")
    ap.add_argument("--match-games", type=int, default=60,
                    help="games against Greedy timed per variant at depths 4 and up (0: skip)")
    ap.add_argument("--search-repeat", type=int, default=3,
                    help="searches of each position per variant (least time)")
    ap.add_argument("--memory-games", type=int, default=100_000,
                    help="games of the match whose peak memory is measured (0: skip)")
    ap.add_argument("--memory-jobs", type=int, default=2, help="its worker processes")
    ap.add_argument("--memory-bots", default="random,random;greedy,greedy",
                    help="line-ups measured, ';' between them")
    ap.add_argument("--only-memory", action="store_true", help="skip the speed figures")
    ap.add_argument("--only-search", action="store_true",
                    help="only the Minimax figures (no game rates, no memory)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    a = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; one core (numba kernels, no threads)")
    figures: dict = {"load_average": os.getloadavg()[0], "memory": []}
    if a.memory_games > 0 and not a.only_search:
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
    if not a.only_search:
        game_rates(a, figures)
    positions = search_positions(a.positions)
    figures["search_positions"] = len(positions)
    print(f"Minimax per move over {len(positions)} positions (Greedy vs Greedy, seed 1; "
          f"least of {a.search_repeat} searches each); wall s median / p90, CPU s median / "
          "p90 / mean, positions generated, table hits:")
    for depth in a.depths:
        variants = list(VARIANTS)
        if depth in a.plain:
            variants.append(("plain minimax", {"prune": False, "tt": False, "deepen": False}))
        costs = search_costs(depth, positions, a.bot, variants, a.search_repeat)
        figures.setdefault("seconds_per_move", {}).update(costs)
        for label, t in costs.items():
            print(f"  {label}: {t['median']:.4f} / {t['p90']:.4f} s, CPU {t['cpu_median']:.4f} "
                  f"/ {t['cpu_p90']:.4f} / {t['cpu_mean']:.4f} s (max {t['max']:.3f} s), "
                  f"{t['nodes_per_move']:,.0f} positions, {t['table_hits_per_move']:,.0f} hits"
                  + (" (target median <= 1 s)" if depth == 4 else ""))
        if a.match_games > 0 and depth >= 4:
            games = match_costs(depth, a.match_games, a.bot, list(VARIANTS))
            figures.setdefault("match_seconds", {}).update(games)
            for label, g in games.items():
                print(f"  {label}: {g['games']} games in {g['seconds']:.2f} s wall, "
                      f"{g['cpu_seconds']:.2f} s CPU (mean rounds {g['mean_rounds']:.1f})")
    _write(a.json, figures)


def game_rates(a: argparse.Namespace, figures: dict) -> None:
    """Random and Greedy games per second (2 players, one core) into ``figures``."""
    gps, rounds, capped = games_per_second(["random", "random"], a.random, a.repeat)
    figures["random_games_per_second"] = gps
    print(f"random vs random, 2 players: {gps:,.0f} games/s (target 20,000); "
          f"mean rounds {rounds:.1f}, capped {capped:.2%}; Rust reference 98,000 "
          f"-> ratio {gps / 98_000:.2f}")
    gps, rounds, capped = games_per_second(["greedy", "greedy"], a.greedy, a.repeat)
    figures["greedy_games_per_second"] = gps
    print(f"greedy vs greedy, 2 players: {gps:,.0f} games/s (target 1,000); "
          f"mean rounds {rounds:.1f}, capped {capped:.2%}")


def _write(path: Path | None, figures: dict) -> None:
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(figures, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
