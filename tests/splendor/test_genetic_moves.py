"""The online genetic players choose the same moves as the recorded ones: a faster
evolution (compiled set-up, DEAP's operators called without a toolbox, a plain best-plan
record instead of DEAP's deep-copying hall of fame) must not change a single choice for the
same chromosome and seed, so published figures still reproduce.

``data/genetic_moves.json`` was written by this module's ``record`` with the evolution as
DEAP's toolbox and HallOfFame ran it (``python -m tests.splendor.test_genetic_moves``);
the goal-seed settings were added with the evolution of Python plans, before one generation
of seeds only was compiled. Rewrite it only for a change meant to alter the players' choices.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from games.splendor._players import make_bot
from games.splendor.game import GAME
from tests.splendor.test_search import positions

DATA = Path(__file__).with_name("data") / "genetic_moves.json"
#: (bot, players, positions): one bot plays every position in turn, so ``greedy+reuse``
#: carries its previous plan and the generator advances as in a game
SETTINGS = [
    ("buy-and-deny:depth=5,population=2,evaluations=4,tournament=1,"
     "operators=crossover+restricted,cxpb=0.7932,mutpb=0.4444,indpb=0.4765,"
     "heuristic=splendor-heuristic,start=greedy+reuse", 2, 300),
    ("buy-and-deny:4,4,4,start=greedy,heuristic=splendor-heuristic", 2, 300),
    ("buy-and-deny:depth=6,population=12,evaluations=60,start=greedy+reuse", 3, 60),
    ("buy-and-deny:6,12,60", 2, 60),
    ("buy-order:depth=6,population=8,evaluations=40,operators=mutation,tournament=2", 2, 60),
    ("buy-order:depth=6,population=8,evaluations=40,operators=crossover", 2, 60),
    ("index-move:6,8,40", 2, 40),
    ("exact-move:depth=6,population=8,evaluations=40,illegal=repair", 2, 40),
    # goal seeds: one generation of seeds only (the compiled choice; a position with too
    # few distinct goal moves fills up with random plans), and seeds before an evolution
    ("buy-and-deny:depth=3,population=13,evaluations=13,start=greedy+reuse,seeds=12,"
     "heuristic=splendor-heuristic", 2, 300),
    ("buy-and-deny:depth=4,population=6,evaluations=6,start=greedy,seeds=5,opponent=alleval",
     3, 60),
    ("buy-order:depth=3,population=5,evaluations=5,start=greedy+reuse,seeds=8", 2, 60),
    ("buy-and-deny:depth=3,population=7,evaluations=14,start=greedy,seeds=6", 2, 60),
]


def moves_of(text: str, players: int, count: int) -> list[int]:
    """The moves one bot ``text`` (generator seed 3) chooses over ``count`` positions."""
    spec = GAME.parse_bot(text)
    bot = make_bot(spec.name, dict(spec.params), rng=np.random.default_rng(3))
    return [int(bot.act(st)) for st in positions(count, players, seed=11)]


def record() -> None:
    """Write the recorded choices (see the module text)."""
    out = {f"{t}|{n}|{c}": moves_of(t, n, c) for t, n, c in SETTINGS}
    DATA.write_text(json.dumps(out, indent=0) + "\n", encoding="utf-8")


@pytest.mark.parametrize("text, players, count", SETTINGS)
def test_choices_are_the_recorded_ones(text, players, count):
    expected = json.loads(DATA.read_text(encoding="utf-8"))[f"{text}|{players}|{count}"]
    assert moves_of(text, players, count) == expected


if __name__ == "__main__":
    record()
