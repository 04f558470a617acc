"""The rule machine (games.dominion.rules, with the bots' choices in games.dominion.policy)
plays the same games as the engine's kernel: same seeds, same line-ups, same results, game
for game, over random kingdoms of the base set, random strategy texts (buy lists, play orders,
every decision setting), the random, scored and learned players, 2-4 players and solo."""

from __future__ import annotations

import numpy as np
import pytest

import games.dominion.match as match
from games import registry
from games.dominion.cards import BASE_SET_KEYS, CARDS, INDEX
from games.dominion.decisions import DECISIONS
from games.dominion.kernel import run_batch
from games.dominion.options import GameConfig
from games.dominion.play import run_games

GAME = registry.get("dominion")
FIELDS = ("outcome", "vp", "turns", "plies", "capped", "features", "meta")


def _bot(text: str):
    return GAME.check_bot(GAME.parse_bot(text))


def _both(monkeypatch, texts, seed, count, kingdom, players=None, config=None, rec=0):
    bots = [_bot(t) for t in texts]
    out = []
    for kernel in (run_batch, run_games):
        monkeypatch.setattr(match, "run_batch", kernel)
        out.append(match._play_games(bots, seed, 0, count, kingdom, players, config=config,
                                     record_rows=rec))
    return out


def _strategy(r: np.random.Generator, kingdom: list[str]) -> str:
    """A random strategy text over ``kingdom``: buys, a play order and decision settings."""
    picks = r.choice(kingdom, size=int(r.integers(2, 6)), replace=False)
    parts = [f"province@money>{int(r.integers(10, 20))}", "duchy@gains<=4", "gold"]
    parts += [f"{c}:{int(r.integers(1, 4))}" for c in picks] + ["silver"]
    text = " | ".join(parts)
    actions = [c for c in kingdom if CARDS[INDEX[c]].action]
    if actions and r.random() < 0.7:
        text += " | play: " + " > ".join(r.permutation(actions)[:int(r.integers(1, 4))])
    sets = [f"{name}={int(r.integers(int(s.low), int(s.high) + 1))}"
            for name, s in DECISIONS.items() if r.random() < 0.5]
    return text + (" | set: " + ", ".join(sets) if sets else "")


@pytest.mark.parametrize("block", range(4))
def test_random_line_ups_play_the_same_games(monkeypatch, block):
    for k in range(12):
        r = np.random.default_rng(100 * block + k)
        kingdom = [str(c) for c in r.choice(BASE_SET_KEYS, size=10, replace=False)]
        players = int(r.integers(2, 5))
        texts = [_strategy(r, kingdom) if r.random() < 0.7 else
                 ("random", "heuristic", "big-money")[int(r.integers(3))]
                 for _ in range(players)]
        a, b = _both(monkeypatch, texts, 1000 + k, 40, tuple(kingdom), players)
        for field in FIELDS:
            assert np.array_equal(getattr(a, field), getattr(b, field)), (kingdom, texts, field)


@pytest.mark.parametrize("texts,kingdom,players,config", [
    (["learned:reports/dominion-learned/model.npz", "big-money"], None, None, None),
    (["learned:reports/dominion-baseset/learned-attack/model.npz", "double-witch"], "attack",
     None, None),
    (["smithy-big-money"], None, 1, GameConfig(solo_provinces=4)),
    (["workshop-gardens", "big-money"], ("workshop", "gardens", "village", "smithy", "market",
                                         "festival", "laboratory", "cellar", "moat", "witch"),
     None, GameConfig(end_rule="provinces", tiebreak=False, cap=20)),
])
def test_learned_solo_and_other_rules_play_the_same_games(monkeypatch, texts, kingdom, players,
                                                          config):
    a, b = _both(monkeypatch, texts, 7, 300, kingdom, players, config, rec=400)
    for field in FIELDS:
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
