"""What each Dominion card does, as numbers: the traits the ``general`` feature layout of the
learned player counts (:mod:`games.dominion._features`), so one model plays any kingdom.

The card table gives +Cards, +Actions, +Buys and +$; the base set's own effects add what the
table cannot say (Library draws to 7, Witch gives Curses, Chapel trashes, Workshop gains).
Only the cards' printed rules are used: nothing here reads a game's hidden state.
"""

from __future__ import annotations

import numpy as np

from games.dominion._cards import CARDS, INDEX

#: effective +Cards of cards whose draw is an effect of their own
_DRAW = {"library": 3, "steward": 2}
#: effective +$ of cards whose coins are an effect of their own
_COINS = {"moneylender": 2, "merchant": 1}
_CURSERS = ("witch",)
_TRASHERS = ("chapel", "moneylender", "remodel", "mine", "sentry", "steward")
_GAINERS = ("workshop", "artisan", "remodel", "mine", "bureaucrat", "bandit")


def _column(default: list[int], extra: dict[str, int]) -> np.ndarray:
    col = np.array(default, dtype=np.int64)
    for key, v in extra.items():
        col[INDEX[key]] = v
    return col


def _flags(keys: tuple[str, ...]) -> np.ndarray:
    col = np.zeros(len(CARDS), dtype=np.bool_)
    for key in keys:
        col[INDEX[key]] = True
    return col


DRAW = _column([c.cards if c.action else 0 for c in CARDS], _DRAW)
ACTIONS = np.array([c.actions if c.action else 0 for c in CARDS], dtype=np.int64)
COINS = _column([c.coins if c.action else 0 for c in CARDS], _COINS)
BUYS = np.array([c.buys if c.action else 0 for c in CARDS], dtype=np.int64)
ATTACK = np.array([c.attack for c in CARDS], dtype=np.bool_)
CURSER = _flags(_CURSERS)
TRASHER = _flags(_TRASHERS)
GAINER = _flags(_GAINERS)
#: Victory cards whose points depend on the deck (Gardens)
VARIABLE_VP = np.array([c.victory_type and c.vp == 0 for c in CARDS], dtype=np.bool_)
#: kingdom cards costing $5 or more
DEAR = np.array([c.kingdom and c.cost >= 5 for c in CARDS], dtype=np.bool_)
