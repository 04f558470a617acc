"""Dominion's chance outcomes under OpenSpiel (:mod:`games.interop.chance`): every card drawn,
looked at or revealed from the unseen part of a draw pile, the opening hands included; a
card put on top of a pile (Artisan, Bureaucrat, Sentry) is drawn as it lies, and a
reshuffle turns the discard pile into unseen cards. Only OpenSpiel uses it.

The rule machine plays in the engine's chance mode (a wider ``pinfo``,
:data:`games.dominion._engine.CH_WIDTH`): the forced outcomes go in before a move is played,
and a draw past them marks what it needed; the move is then replayed from the position
before it, as :class:`games.interop.chance.Dealer` does for every game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from games.dominion._cards import NC
from games.dominion._engine import (
    CH_NEED,
    CH_POOL,
    CH_Q,
    CH_QLEN,
    CH_QPOS,
    CH_UNSEEN,
    CH_WIDTH,
    DLEN,
    HAND,
)
from games.dominion._state import DominionState, buffer_kernels
from games.interop.chance import Dealer, Forced, NeedChance, adopt
from games.state import State


class ChanceDominion(Forced, DominionState):
    """A Dominion position whose draws from the unseen part of a pile are chance draws
    (``pinfo[p, CH_UNSEEN]`` cards at the bottom of ``p``'s pile, held in card order,
    nobody has seen; the cards above them were put there face up or known)."""

    def _forced(self, run: Callable[[], int]) -> None:
        """Run ``run`` (a machine call) with the forced outcomes; NeedChance when a draw
        needs one more."""
        forced = self.forced[self.at:]
        if len(forced) > CH_WIDTH - CH_Q:
            raise ValueError("too many chance outcomes for one move")
        row = self.pinfo[0]
        row[CH_Q:CH_Q + len(forced)] = forced
        row[CH_QLEN], row[CH_QPOS], row[CH_NEED] = len(forced), 0, 0
        self._settled(run())
        need = int(row[CH_NEED])
        self.at += int(row[CH_QPOS])
        row[CH_QLEN] = row[CH_QPOS] = row[CH_NEED] = 0
        if need < 0:
            raise ValueError("chance outcome is not among the unseen cards")
        if need > 0:
            pool = row[CH_POOL:CH_POOL + NC]
            total = int(pool.sum())
            raise NeedChance([(c, int(pool[c]) / total) for c in range(NC) if pool[c]])

    apply = State.apply  # the protocol's own: every move goes through _apply_code below

    def _apply_code(self, code: int) -> None:
        step = buffer_kernels()[0]
        self._forced(lambda: step(code, self.buf))

    def deal(self) -> None:
        """Draw the opening hands as chance draws."""
        deal = buffer_kernels()[2]
        self._forced(lambda: deal(self.buf))

    @property
    def unseen(self) -> list[int]:
        return [int(k) for k in self.pinfo[:, CH_UNSEEN]]


def _chance_mode(state: DominionState) -> ChanceDominion:
    out = adopt(ChanceDominion, state.clone())
    wide = np.zeros((state.n, CH_WIDTH), dtype=np.int64)
    wide[:, :state.pinfo.shape[1]] = state.pinfo[:, :2]
    out._pack(pinfo=wide)
    out.forced, out.at = [], 0
    return out


class DominionDealer(Dealer):
    @property
    def max_outcomes(self) -> int:  # type: ignore[override]
        return NC

    def outcome_text(self, outcome: int) -> str:
        from games.dominion._cards import CARDS
        return "draw " + CARDS[outcome].key

    def opening(self, seed: int) -> State:
        state = _chance_mode(self.bridge.new_state(seed))
        for p in range(state.n):  # the opening hands go back into the unseen decks
            cards = np.sort(np.concatenate([state.draw[p, :state.pinfo[p, DLEN]],
                                            np.repeat(np.arange(NC), state.zones[p, HAND])]))
            state.draw[p, :len(cards)] = cards
            state.zones[p, HAND] = 0
            state.pinfo[p, DLEN] = state.pinfo[p, CH_UNSEEN] = len(cards)
        return state

    def redeal(self, state: Any) -> None:
        state.deal()

    def resample(self, state: Any, player: int, rng: np.random.Generator) -> State:
        """The view's deal of the opponents' hidden cards; ``player``'s own draw pile as it
        lies (its unseen part is drawn by chance anyway); every opponent's draw pile unseen
        (what ``player`` may have seen put on it is dealt again)."""
        out = state.view(player, rng)
        out.draw[player] = state.draw[player]
        for q in range(state.n):
            out.pinfo[q, CH_UNSEEN] = state.pinfo[q, CH_UNSEEN] if q == player \
                else out.pinfo[q, DLEN]
        out.forced, out.at = [], 0
        return out


#: the game's dealer, found by :func:`games.interop.chance.dealer_for`
DEALER = DominionDealer
