"""Our Splendor players against the pretrained 2-player AlphaZero of
cestpasphoto/alpha-zero-general, with that repository's engine as referee.

    git clone https://github.com/cestpasphoto/alpha-zero-general /path/to/az
    git -C /path/to/az checkout 5d6d1f129b76659837f6afd6fb082e8da57e5428
    pip install -e ".[alphazero]"
    python benchmarks/splendor_vs_alphazero.py --az /path/to/az --simulations 100 -n 20 \\
        --bots best:splendor-heuristic best:splendor-minimax-heuristic --json out.json

First the position check (``--check-positions``, 1,000 by default; it needs the checkout
but not PyTorch): conversion both ways, scores, legal moves and every common move compared
(games/splendor/alphazero/_check.py). Then ``-n`` games per bot and budget: game i is our
deal i of ``--seed``, our player in seat i % 2; our players choose only among the
referee's moves (games/splendor/alphazero/_chooser.py). Rows give wins, ties and losses of
the finished games with 95% Wilson intervals, unfinished games apart (the referee stops a
game after 124 moves; never counted as a win), each side's CPU time per move in the same
games, and how often the rule differences came up. Bad input (a missing or foreign
checkout, a missing model file, an unknown budget or bot) is one line on stderr, exit 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import registry  # noqa: E402
from games.core import InputError, wilson_interval  # noqa: E402

DEFAULT_BOTS = ["best:splendor-heuristic", "best:splendor-minimax-heuristic", "minimax:3",
                "best:splendor-buyanddeny"]


def budgets(texts: list[str]) -> list[int]:
    """The MCTS simulation budgets, or an InputError naming the first unknown one."""
    out = []
    for text in texts:
        try:
            sims = int(text)
        except ValueError:
            sims = 0
        if sims < 1:
            raise InputError(f"--simulations {text}: unknown budget; give whole numbers of "
                             "MCTS simulations per move, such as 800 100")
        out.append(sims)
    return out


def bot_specs(texts: list[str]) -> dict[str, Any]:
    """Each bot text (a name ``tabletune bots splendor`` lists, or best:STUDY) checked."""
    from tuning._best import train_bot

    game = registry.get("splendor")
    return {t: train_bot(game, t) for t in texts}


def rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson_interval(float(k), n)
    return {"count": k, "rate": k / n if n else float("nan"), "ci95": [lo, hi]}


def summarize(records: list[Any]) -> dict[str, Any]:
    """One row: wins, ties, losses of the finished games (Wilson intervals), the rest."""
    done = [r for r in records if r.result is not None]
    n = len(done)
    wins = sum(r.result == 1.0 for r in done)
    ties = sum(r.result == 0.5 for r in done)
    counts: Counter = Counter()
    for r in records:
        counts.update(r.counts)
    moves = {k: sum(r.moves[k] for r in records) for k in ("ours", "az")}
    secs = {k: sum(r.seconds[k] for r in records) for k in ("ours", "az")}
    return {
        "games": len(records), "finished": n, "unfinished": len(records) - n,
        "wins": rate(wins, n), "ties": rate(ties, n), "losses": rate(n - wins - ties, n),
        "score": (wins + ties / 2) / n if n else float("nan"),
        "wins_by_seat": {str(s): sum(r.result == 1.0 for r in done if r.seat == s)
                         for s in (0, 1)},
        "ours_s_per_move": secs["ours"] / max(moves["ours"], 1),
        "az_s_per_move": secs["az"] / max(moves["az"], 1),
        "moves": moves, "rule_differences": dict(counts),
        "games_with_best_allowed_instead": sum(
            r.counts["ours: best allowed move instead"] > 0 for r in records),
        "mismatches": [f"game {r.index}: {m}" for r in records for m in r.mismatches],
        "points_by_seat": [list(r.points) for r in records],
    }


def pct(r: dict[str, Any]) -> str:
    lo, hi = r["ci95"]
    return f"{r['count']} ({100 * r['rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}])"


def table(rows: list[dict[str, Any]]) -> str:
    out = ["| our player | AlphaZero sims | games | wins | ties | losses | unfinished | "
           "ours per move | AZ per move | best allowed instead (moves / games) |",
           "|---" * 10 + "|"]
    for r in rows:
        s = r["summary"]
        out.append(
            f"| {r['bot']} | {r['simulations']} | {s['games']} | {pct(s['wins'])} | "
            f"{pct(s['ties'])} | {pct(s['losses'])} | {s['unfinished']} | "
            f"{1000 * s['ours_s_per_move']:.2f} ms | {1000 * s['az_s_per_move']:.1f} ms | "
            f"{s['rule_differences'].get('ours: best allowed move instead', 0)} / "
            f"{s['games_with_best_allowed_instead']} |")
    return "\n".join(out)


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--az", required=True, help="a checkout of cestpasphoto/alpha-zero-general")
    ap.add_argument("--model", help="model file (default: the checkout's "
                    "splendor/pretrained_2players.pt)")
    ap.add_argument("--bots", nargs="+", default=DEFAULT_BOTS,
                    help="our players: names from `tabletune bots splendor` or best:STUDY")
    ap.add_argument("--simulations", nargs="+", default=["800", "100"],
                    help="AlphaZero's MCTS simulations per move, one row each")
    ap.add_argument("-n", "--games", type=int, default=20, help="games per bot and budget")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--check-positions", type=int, default=1000,
                    help="positions compared between the engines first (0: none)")
    ap.add_argument("--json", help="write every figure to this file")
    ap.add_argument("--refill", choices=("none", "sampled"), default="none",
                    help="our searches' lookahead refills: none (hidden decks, as the "
                    "rows above) or sampled from the cards a seat has not seen")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="worker processes, each with its own AlphaZero (one core each)")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    from games.splendor.alphazero import _checkout as checkout

    try:
        sims = budgets(args.simulations)
        if args.games < 0 or args.check_positions < 0:
            raise InputError("-n and --check-positions take 0 or more")
        if args.jobs < 1:
            raise InputError(f"--jobs {args.jobs}: give 1 or more worker processes")
        root, weights = checkout.check_checkout(args.az, args.model)
        specs = bot_specs(args.bots)
        referee = checkout.referee(root)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    data: dict[str, Any] = {"az": str(root), "model": str(weights), "seed": args.seed,
                            "refill": args.refill,
                            "commit_measured": checkout.COMMIT, "rows": []}
    if args.check_positions:
        from games.splendor.alphazero._check import EXPECTED, run_check

        clock = time.time()
        result = run_check(referee, args.check_positions, args.seed)
        data["check"] = result.to_dict()
        print(f"position check: {result.positions} positions, {result.moves_played} moves "
              f"played in both engines, {len(result.mismatches)} mismatches "
              f"({time.time() - clock:.0f} s)")
        for key, count in sorted(result.counts.items()):
            print(f"  {count:6d}  {key} ({EXPECTED[key]})")
        for line in result.mismatches[:10]:
            print(f"  mismatch: {line}")
    if args.games:
        play(args, root, weights, sims, specs, data)
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
    mismatched = data.get("check", {}).get("mismatch_count", 0) + sum(
        len(r["summary"]["mismatches"]) for r in data["rows"])
    return 1 if mismatched else 0


_WORKER: dict[str, Any] = {}


def _worker_init(root: str, weights: str, sims: list[int]) -> None:
    """A worker process: the referee and AlphaZero loaded once for the whole run."""
    from games.splendor.alphazero import _checkout as checkout

    az = checkout.load(Path(root), Path(weights), sims)
    checkout.warm(az)
    _WORKER["az"] = az


def _one_game(text: str, n_sims: int, seed: int, index: int, refill: str = "none"
              ) -> tuple[Any, float]:
    """Game ``index`` of our bot ``text`` against AlphaZero at ``n_sims``; (record, s)."""
    from games.splendor.alphazero._match import REFEREE_ROUNDS, play_game

    game = registry.get("splendor")
    spec = bot_specs([text])[text]
    options = game.check_options({"cap": REFEREE_ROUNDS, "refill": refill})
    bot = game.state_player(spec, options, np.random.default_rng([seed, index]))
    clock = time.time()
    return play_game(_WORKER["az"], n_sims, bot, seed, index), time.time() - clock


def play(args: argparse.Namespace, root: Path, weights: Path, sims: list[int],
         specs: dict[str, Any], data: dict[str, Any]) -> None:
    """Every row's games: one process (AlphaZero and our player share its core) per job,
    each loading the model once; game i's record is the same with any number of jobs."""
    from concurrent.futures import ProcessPoolExecutor

    from games.splendor.alphazero import _checkout as checkout

    try:
        checkout.load(root, weights, sims[:1])
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    with ProcessPoolExecutor(args.jobs, initializer=_worker_init,
                             initargs=(str(root), str(weights), sims)) as pool:
        for n_sims in sims:
            for text in specs:
                futures = [pool.submit(_one_game, text, n_sims, args.seed, i, args.refill)
                           for i in range(args.games)]
                records = []
                for i, fut in enumerate(futures):
                    rec, secs = fut.result()
                    records.append(rec)
                    print(f"{text} vs AlphaZero({n_sims}) game {i}, ours in seat "
                          f"{rec.seat}: result {rec.result}, points by seat {rec.points} "
                          f"({secs:.1f} s)", file=sys.stderr)
                data["rows"].append({"bot": text, "simulations": n_sims,
                                     "summary": summarize(records)})
    print(table(data["rows"]))


if __name__ == "__main__":
    sys.exit(main())
