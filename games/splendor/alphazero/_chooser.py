"""Our players choosing only among the moves the referee allows.

The player plays its whole turn on a copy of our position (main move, tokens returned,
noble chosen). When that turn's effect is one of the referee's legal moves, that move is
played. When it is not (the referee cannot take gems and give some back in one turn, nor
pay gold where coloured tokens would do), the player's best turn among those our engine
and the referee both allow is played instead: each such turn scored as the player scores
its own, by its search (Minimax: the same depth, from the position after the turn, on its
honest view) or by its evaluation F (every other player). With no such turn the referee's
pass is played. Both cases are counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from games.splendor._heuristics import score
from games.splendor._kernel import (
    CFG_DEPTH,
    CFG_KIND,
    CFG_LEAF,
    CFG_W,
    K_ALPHABETA,
    K_MINIMAX,
    workspace,
)
from games.splendor._minimax import _minimax
from games.splendor._rules import O_CUR, O_PHASE, PH_MAIN, SIZE, apply_move
from games.splendor._search import NEG, POS, resolve, view
from games.splendor._state import SplendorState
from games.splendor._ttable import tables
from games.splendor.alphazero._effects import PASS, Effect, is_pass, our_effect, our_turns


@dataclass(frozen=True)
class Choice:
    """The referee's ``action``; ``turn``: our decisions for it (None: the referee's pass
    with no turn of ours); ``preferred``: the player's own first choice was allowed."""

    action: int
    turn: list[int] | None
    preferred: bool


def whole_turn(bot: Any, state: SplendorState) -> tuple[list[int], SplendorState]:
    """The bot's decisions for the turn due, played on a copy, and the position after."""
    copy = state.clone()
    p = copy.current_player()
    out = [bot.act(copy)]
    copy.apply(out[0])
    while (not copy.is_terminal() and copy.current_player() == p
           and copy.array[O_PHASE] != PH_MAIN):
        out.append(bot.act(copy))
        copy.apply(out[-1])
    return out, copy


def _key(effect: Effect) -> Effect:
    return ("tokens", -1, (0,) * 6) if is_pass(effect) else effect


def choose(bot: Any, state: SplendorState, allowed: dict[Effect, int]) -> Choice:
    """The referee move our ``bot`` plays in ``state`` (``allowed``: the referee's legal
    moves by effect, see :func:`games.splendor.alphazero._effects.referee_effects`)."""
    turn, after = whole_turn(bot, state)
    effect = _key(our_effect(state.array, after.array, turn[0]))
    if effect in allowed:
        return Choice(allowed[effect], turn, True)
    turns = [(t, allowed[_key(e)]) for t, e in our_turns(state.array) if _key(e) in allowed]
    if not turns:
        return Choice(PASS, None, False)
    values = [value(bot, state.array, t) for t, _ in turns]
    best = int(np.argmax(values))
    return Choice(turns[best][1], turns[best][0], False)


def value(bot: Any, s: np.ndarray, turn: list[int]) -> float:
    """What ``bot`` thinks of playing ``turn`` in ``s``: its search's value of the position
    after it (Minimax) or F of that position, on the bot's honest view."""
    p = int(s[O_CUR])
    row = bot.row
    w = np.ascontiguousarray(row[CFG_W:])
    child = np.empty(SIZE, dtype=np.int64)
    view(s, p, 0, np.zeros(1, dtype=np.uint64), child)
    for m in turn:
        apply_move(child, m)
    resolve(child, p, w)
    kind = int(row[CFG_KIND])
    if kind not in (K_MINIMAX, K_ALPHABETA):
        return float(score(child, p, w))
    depth = int(row[CFG_DEPTH])
    _, kids, moves, keys, order, _, _ = workspace(depth)
    tkeys, tvals, tinfo, count = tables(0)
    return float(_minimax(child, p, p, depth - 1, NEG, POS, w, int(row[CFG_LEAF]), kids, moves,
                          keys, order, kind == K_ALPHABETA, tkeys, tvals, tinfo, count, False))
