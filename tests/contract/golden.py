"""Write the pinned trace of a registered game for the contract suite.

    python tests/contract/golden.py GAME [GAME ...]

A trace is a few seeded games of the game's contract line-up: their outcomes, scores, turns
and capped flags. Regenerate one only when a rules change is meant to change games, and say
so in the commit.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
import conftest  # noqa: E402,F401  (registers the toy game)

from games import registry  # noqa: E402
from games.capabilities import use  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"
SEED, GAMES = 2024, 6


def write(name: str) -> Path:
    game = registry.get(name)
    contract = use(game, "contract")
    bots = contract.contract_line_up()
    opts = game.check_options(contract.test_options)
    out = game.play(bots, opts, SEED, 0, GAMES)
    texts = [b.genome or (b.name + (":" + ",".join(f"{k}={v}" for k, v in b.params.items())
                                    if b.params else "")) for b in bots]
    data = {"game": name, "bots": texts, "options": dict(contract.test_options), "seed": SEED,
            "games": GAMES, "outcome": out.outcome.tolist(), "score": out.score.tolist(),
            "turns": out.turns.tolist(), "capped": out.capped.tolist()}
    GOLDEN.mkdir(exist_ok=True)
    path = GOLDEN / f"{name}.json"
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


if __name__ == "__main__":
    for arg in sys.argv[1:] or registry.names():
        print(write(arg))
