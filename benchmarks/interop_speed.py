"""What the interop bridge costs: random play through OpenSpiel (``pyspiel`` states of
:mod:`games.interop.openspiel`), through our turn-level State directly, and the game's batch
kernel, on one core.

    python benchmarks/interop_speed.py                       # a few seconds per game
    python benchmarks/interop_speed.py --seconds 10 --json runs/interop-speed.json

Per game: decisions (states) per second and games per second for the OpenSpiel bridge
(legal_actions, one at random, apply_action) and for our State (legal_moves, apply); games per
second for the kernel with a kernel bot (Splendor and the deck-building model: their random
bot; The Game: recovery-fallback, greedy turn, as it has no random bot; Dominion: Big Money).
Kernels are compiled and warmed first; each figure is the best of ``--repeat`` runs of about
``--seconds`` (the machine may be shared: the load average is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import registry  # noqa: E402
from games.capabilities import use  # noqa: E402
from games.interop.bridge import codec_for, codec_games  # noqa: E402

KERNEL_BOTS = {"splendor": ["random", "random"], "deckbuilder": ["random"],
               "thegame": ["recovery-fallback"], "dominion": ["big-money", "big-money"]}


def timed(fn: Any, seconds: float, repeat: int) -> tuple[float, float]:
    """Best (decisions/s, games/s) of ``repeat`` runs of ``fn`` until ``seconds`` pass."""
    best = (0.0, 0.0)
    for _ in range(repeat):
        start, games, steps = time.process_time(), 0, 0
        while time.process_time() - start < seconds:
            steps += fn(games)
            games += 1
        took = time.process_time() - start
        best = max(best, (steps / took, games / took))
    return best


def via_openspiel(game: str) -> Any:
    import pyspiel

    from games.interop import openspiel  # noqa: F401  (registers the games)
    loaded = pyspiel.load_game(f"tabletune_{game}")
    rng = np.random.default_rng(0)

    def one(_: int) -> int:
        state, steps = loaded.new_initial_state(), 0
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps
    return one


def via_state(game: str) -> Any:
    counts = registry.get(game).player_counts
    bridge = codec_for(game)({}, 2 if 2 in counts else min(counts))
    rng = np.random.default_rng(0)

    def one(i: int) -> int:
        state, steps = bridge.new_state(i), 0
        while not state.is_terminal():
            legal = state.legal_moves()
            state.apply(legal[int(rng.integers(len(legal)))])
            steps += 1
        return steps
    return one


def kernel_bots(game: str) -> list[str]:
    """The line-up of the kernel figure: the report's, else the game's contract line-up (a
    game added since)."""
    if game in KERNEL_BOTS:
        return KERNEL_BOTS[game]
    return [b.name for b in use(registry.get(game), "contract").contract_line_up()]


def via_kernel(game: str, seconds: float, repeat: int) -> float:
    g = registry.get(game)
    bots = [g.parse_bot(b) for b in kernel_bots(game)]
    options = g.check_options({})
    g.play(bots, options, 1, 0, 4)  # compile
    best, count = 0.0, 16
    for _ in range(repeat):
        start = time.process_time()
        while True:
            g.play(bots, options, 2, 0, count)
            took = time.process_time() - start
            if took >= seconds / 4:
                break
            count *= 2
            start = time.process_time()
        best = max(best, count / took)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    known = codec_games()  # the report's rows in their order, then any newer game
    ordered = [g for g in ("splendor", "thegame", "deckbuilder", "dominion") if g in known]
    ap.add_argument("--games", nargs="+", default=ordered + [g for g in known if g not in ordered],
                    choices=known)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    rows = []
    for game in args.games:
        via_state(game)(0)
        via_openspiel(game)(0)  # warm: compile the kernels the states call
        bridge = timed(via_openspiel(game), args.seconds, args.repeat)
        state = timed(via_state(game), args.seconds, args.repeat)
        kernel = via_kernel(game, args.seconds, args.repeat)
        rows.append({"game": game, "openspiel_states_s": bridge[0], "openspiel_games_s": bridge[1],
                     "state_states_s": state[0], "state_games_s": state[1],
                     "kernel_games_s": kernel, "kernel_bots": kernel_bots(game)})
        print(f"{game:12s} OpenSpiel {bridge[0]:9.0f} states/s {bridge[1]:8.2f} games/s | "
              f"State {state[0]:9.0f} states/s {state[1]:8.2f} games/s | "
              f"kernel {kernel:10.1f} games/s ({', '.join(kernel_bots(game))})", flush=True)
    print(f"load average {os.getloadavg()}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"rows": rows, "load_average": os.getloadavg(),
                                         "seconds": args.seconds}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
