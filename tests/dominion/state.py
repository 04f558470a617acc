"""Build engine state by hand for card and rule tests (same dtypes as the kernel uses), and
play cards on it with a bot's decision rows."""

from __future__ import annotations

import numpy as np

from games.dominion._buylist import parse_buylist
from games.dominion._cards import INDEX, KEYS, NC, initial_supply
from games.dominion._decisions import decisions_row, play_order
from games.dominion._engine import (
    ACT_STATIC,
    DISCARD,
    DLEN,
    HAND,
    NTS,
    OWNED,
    PLAY,
    RULE_WIDTH,
)
from games.dominion._play import bot_actions, play_card


class State:
    """Arrays of one game: zones, draw pile, player info, piles, turn state, rng."""

    def __init__(self, players: int = 1, kingdom: tuple[str, ...] = ("smithy",),
                 seed: int = 1) -> None:
        supply = initial_supply(max(players, 2), kingdom)
        self.supply0 = supply.copy()
        self.zones = np.zeros((players, 4, NC), dtype=np.int64)
        self.draw = np.zeros((players, 400), dtype=np.int8)
        self.pinfo = np.zeros((players, 2), dtype=np.int64)
        self.piles = np.zeros((2, NC), dtype=np.int64)
        self.piles[0] = supply
        self.ts = np.zeros(NTS, dtype=np.int64)  # actions, buys, coins, Merchants played
        self.ts[:2] = 1
        self.rng = np.array([seed], dtype=np.uint64)

    def _add(self, p: int, zone: int, cards: dict[str, int]) -> None:
        for name, n in cards.items():
            self.zones[p, zone, INDEX[name]] += n
            self.zones[p, OWNED, INDEX[name]] += n

    def hand(self, p: int = 0, **cards: int) -> State:
        self._add(p, HAND, {k.replace("_", "-"): v for k, v in cards.items()})
        return self

    def discard(self, p: int = 0, **cards: int) -> State:
        self._add(p, DISCARD, {k.replace("_", "-"): v for k, v in cards.items()})
        return self

    def deck(self, names: list[str], p: int = 0) -> State:
        """Draw pile listed top first."""
        for i, name in enumerate(reversed(names)):
            self.draw[p, self.pinfo[p, DLEN] + i] = INDEX[name]
            self.zones[p, OWNED, INDEX[name]] += 1
        self.pinfo[p, DLEN] += len(names)
        return self

    def count(self, zone: int, name: str, p: int = 0) -> int:
        return int(self.zones[p, zone, INDEX[name]])

    def hand_size(self, p: int = 0) -> int:
        return int(self.zones[p, HAND].sum())

    def in_play(self, name: str, p: int = 0) -> int:
        return self.count(PLAY, name, p)

    def top(self, n: int, p: int = 0) -> list[str]:
        """The top n cards of p's draw pile, top first."""
        d = int(self.pinfo[p, DLEN])
        return [KEYS[int(c)] for c in self.draw[p, max(0, d - n):d][::-1]]

    def args(self):
        return self.zones, self.draw, self.pinfo, self.piles, self.ts, self.rng

    def bot_rows(self, buylist: str = "", order: tuple[str, ...] = (), **settings: object):
        """Decision row, play order, every seat's rows (all the same), seats, buy rules."""
        dp = decisions_row(settings)
        players = self.zones.shape[0]
        bl = parse_buylist(buylist) if buylist else None
        rules = bl.table() if bl else np.zeros((1, RULE_WIDTH), dtype=np.float64)
        return (dp, play_order(order), np.tile(dp, (players, 1)),
                np.arange(players, dtype=np.int64), rules, len(bl.rules) if bl else 0)

    def play(self, name: str, p: int = 0, buylist: str = "", **settings: object) -> State:
        """Play action card ``name`` from p's hand for one action, with the default decisions
        (or ``settings``) and ``buylist`` for the cards it gains."""
        dp, po, dps, seats, rules, nrule = self.bot_rows(buylist, **settings)
        play_card(p, INDEX[name], ACT_STATIC, dp, po, dps, seats, rules, nrule, *self.args())
        return self

    def play_choosing(self, name: str, *moves: str, p: int = 0) -> State:
        """Play action card ``name`` from p's hand on the rules alone, taking ``moves``
        (``"choose trash"``, ``"trash estate"``) at its decisions, in order."""
        from games.dominion import _rules as rules
        from games.dominion._moves import CODES
        from games.dominion._steps import (
            FIRST_DECISION,
            M_ACTIVE,
            M_CAP,
            M_SIZE,
            M_SP,
            MAX_OPTIONS,
            V_PLAY,
        )
        mach = np.zeros(M_SIZE, dtype=np.int64)
        opts = np.zeros(MAX_OPTIONS, dtype=np.int64)
        mach[M_ACTIVE], mach[M_CAP] = p, 1 << 40

        def to_decision() -> None:  # automatic steps and single options, within the card
            while mach[M_SP]:
                if mach[rules.top(mach)] < FIRST_DECISION:
                    rules.run_auto(mach, *self.args())
                    continue
                n = rules.options(mach, self.zones, self.piles, self.ts, opts)
                if n >= 2:
                    return
                if n == 1:
                    rules.apply(opts[0], mach, *self.args())
                else:
                    mach[M_SP] -= 1

        rules.apply(V_PLAY * NC + INDEX[name], mach, *self.args())
        for text in moves:
            to_decision()
            verb, _, card = text.partition(" ")
            rules.apply(CODES[(verb, card)], mach, *self.args())
        to_decision()
        return self

    def act(self, p: int = 0, buylist: str = "", order: tuple[str, ...] = (),
            mode: int = ACT_STATIC, **settings: object) -> State:
        """Run p's action phase as a bot with these rows."""
        dp, po, dps, seats, rules, nrule = self.bot_rows(buylist, order, **settings)
        bot_actions(p, mode, 4.0, 1.0, dp, po, dps, seats, rules, nrule, *self.args())
        return self
