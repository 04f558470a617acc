"""The thesis's board-scoring terms and their weighted sum F, seen from one seat.

Terms: WinLoss (1 won / -1 lost / 0 open or shared, read once someone has 15 points or the
game is over), Points, Nobles (requirement units met towards every noble still free or
taken by this seat: one card can count for several nobles), Prestige (cards bought), Gems
(tokens held, gold included), Buys (cards this seat could buy now), Lead (own points minus
the best opponent's) and Turn (turns simulated since the search began). One term is ours,
not the thesis's (weight 0 in allEval and allEval2, so the thesis's players are unchanged):
BestBuy, the points of the best card this seat can buy now; at the leaf of a two-turn
search, where the searching seat moves next, it is what that next turn could add.
F = (sum of weight * term) * discount ** Turn. ``allEval`` and ``allEval2`` are the thesis's
two weightings; the weights are what Optuna fits.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
from numba import njit

from games.core import tunable
from games.splendor._cards import NOBLE_REQ, POINTS
from games.splendor._rules import (
    O_BOARD,
    O_BON,
    O_DONE,
    O_FINAL,
    O_NCARD,
    O_NOB,
    O_NOBOWN,
    O_NP,
    O_PTS,
    O_RES,
    O_SIM,
    O_TOK,
    can_afford,
    seat_result,
)

NEG_INF = -1.0e300
(C_WIN, C_POINTS, C_NOBLES, C_PRESTIGE, C_GEMS, C_BUYS, C_LEAD, C_TURN, C_DISCOUNT,
 C_BEST_BUY) = range(10)
N_COEF = 10


@dataclass(frozen=True)
class Heuristic:
    """Weights of F (defaults: allEval). Fields declared with their tuning ranges."""

    win_loss: float = tunable(100.0, 0.0, 200.0, doc="weight of WinLoss")
    points: float = tunable(2.0, 0.0, 10.0, doc="weight of Points")
    nobles: float = tunable(2.0, 0.0, 10.0, doc="weight of noble progress")
    prestige: float = tunable(1.0, 0.0, 10.0, doc="weight of cards bought")
    gems: float = tunable(1.0, 0.0, 10.0, doc="weight of tokens held")
    buys: float = tunable(0.0, 0.0, 10.0, doc="weight of legal buys")
    lead: float = tunable(0.0, 0.0, 10.0, doc="weight of the lead over the best opponent")
    turn: float = tunable(0.0, -10.0, 10.0, doc="weight of turns simulated")
    discount: float = tunable(1.0, 0.5, 1.0, doc="F is multiplied by discount ** turns")
    best_buy: float = tunable(0.0, 0.0, 10.0,
                              doc="weight of the best affordable card's points (not a thesis term)")

    def array(self) -> np.ndarray:
        """The weights in kernel order (C_* indices)."""
        return np.array([getattr(self, f.name) for f in dataclasses.fields(Heuristic)],
                        dtype=np.float64)


@dataclass(frozen=True)
class AllEval(Heuristic):
    """allEval = 100 WinLoss + 2 Points + 2 Nobles + Prestige + Gems (the defaults)."""


@dataclass(frozen=True)
class AllEval2(Heuristic):
    """allEval2 = (100 WinLoss + 1.5 Points + 2.5 Nobles + Prestige + Gems) * 0.9^Turns."""

    points: float = tunable(1.5, 0.0, 10.0, doc="weight of Points")
    nobles: float = tunable(2.5, 0.0, 10.0, doc="weight of noble progress")
    discount: float = tunable(0.9, 0.5, 1.0, doc="F is multiplied by discount ** turns")


ALL_EVAL = AllEval()
ALL_EVAL2 = AllEval2()
#: Greedy's coefficients fitted by the ``splendor-heuristic`` study (its best trial, 75.2%
#: against Greedy(allEval) over 20,000 fresh games; reports/splendor-heuristic)
SPLENDOR_HEURISTIC = Heuristic(win_loss=97.2763, points=1.1486, nobles=9.4361,
                               prestige=9.1067, gems=3.0784, buys=1.4645, lead=4.6577,
                               turn=5.7507, discount=0.9502)
HEURISTICS = {"alleval": ALL_EVAL, "alleval2": ALL_EVAL2,
              "splendor-heuristic": SPLENDOR_HEURISTIC}


def named_heuristic(name: str) -> Heuristic:
    """F's weights by name: ``alleval``, ``alleval2`` or a study's fitted coefficients."""
    return HEURISTICS[name]


@njit(cache=True)
def win_loss(s: np.ndarray, p: int) -> int:
    """1 / -1 when seat ``p`` would win / lose if the game ended now and someone has 15
    points (or the game is over); 0 otherwise or when first place is shared."""
    if not (s[O_FINAL] or s[O_DONE]):
        return 0
    return seat_result(s, p)


@njit(cache=True)
def noble_progress(s: np.ndarray, p: int) -> int:
    total = 0
    for k in range(5):
        nob = s[O_NOB + k]
        if nob < 0:
            continue
        own = s[O_NOBOWN + k]
        if own >= 0 and own != p:
            continue
        for c in range(5):
            total += min(s[O_BON + 5 * p + c], NOBLE_REQ[nob, c])
    return total


@njit(cache=True)
def legal_buys(s: np.ndarray, p: int) -> int:
    n = 0
    for i in range(12):
        card = s[O_BOARD + i]
        if card >= 0 and can_afford(s, p, card):
            n += 1
    for j in range(3):
        card = s[O_RES + 3 * p + j]
        if card >= 0 and can_afford(s, p, card):
            n += 1
    return n


@njit(cache=True)
def best_buy(s: np.ndarray, p: int) -> int:
    """The points of the most valuable card (face-up or reserved) seat ``p`` can buy now."""
    best = 0
    for i in range(15):
        card = s[O_BOARD + i] if i < 12 else s[O_RES + 3 * p + i - 12]
        if card >= 0 and POINTS[card] > best and can_afford(s, p, card):
            best = POINTS[card]
    return best


@njit(cache=True)
def score(s: np.ndarray, p: int, w: np.ndarray) -> float:
    """F of the position for seat ``p`` with weights ``w`` (C_* order)."""
    v = 0.0
    if w[C_WIN] != 0.0:
        v += w[C_WIN] * win_loss(s, p)
    v += w[C_POINTS] * s[O_PTS + p]
    if w[C_NOBLES] != 0.0:
        v += w[C_NOBLES] * noble_progress(s, p)
    v += w[C_PRESTIGE] * s[O_NCARD + p]
    if w[C_GEMS] != 0.0:
        base = O_TOK + 6 * p
        v += w[C_GEMS] * (s[base] + s[base + 1] + s[base + 2] + s[base + 3] + s[base + 4]
                          + s[base + 5])
    if w[C_BUYS] != 0.0:
        v += w[C_BUYS] * legal_buys(s, p)
    if w[C_LEAD] != 0.0:
        other = -1000
        for q in range(s[O_NP]):
            if q != p and s[O_PTS + q] > other:
                other = s[O_PTS + q]
        v += w[C_LEAD] * (s[O_PTS + p] - other)
    if w[C_BEST_BUY] != 0.0:
        v += w[C_BEST_BUY] * best_buy(s, p)
    turns = s[O_SIM]
    v += w[C_TURN] * turns
    if w[C_DISCOUNT] != 1.0:
        v *= w[C_DISCOUNT] ** turns
    return v


LEAF_ROOT, LEAF_DIFFERENCE, LEAF_MOVER = 0, 1, 2
LEAF_MODES = ("root", "difference", "mover")
#: a learned player's leaves: the learned value of :mod:`games.splendor._features` (not one
#: of F's modes: only the learned bots use it)
LEAF_LEARNED = 3


@njit(cache=True)
def leaf(s: np.ndarray, root: int, mover: int, w: np.ndarray, mode: int) -> float:
    """A search leaf's value for seat ``root``; ``mover`` made the move that reached it.

    ``root`` (LEAF_ROOT): F of the root seat, every other seat minimising it. ``difference``:
    F of the root seat minus the best F among the others. ``mover``: F of the seat that moved
    last, counted positive when that is the root seat and negative otherwise (one reading of
    the thesis's Figure 4.1, where the opponent's moves score negative).
    """
    if mode == LEAF_ROOT:
        return score(s, root, w)
    if mode == LEAF_MOVER:
        v = score(s, mover, w)
        return v if mover == root else -v
    other = NEG_INF
    for q in range(s[O_NP]):
        if q != root:
            f = score(s, q, w)
            if f > other:
                other = f
    return score(s, root, w) - other


def terms(s: np.ndarray, p: int) -> dict[str, int]:
    """Every term for seat ``p`` (for traces and tests)."""
    tok = int(s[O_TOK + 6 * p:O_TOK + 6 * p + 6].sum())
    others = [int(s[O_PTS + q]) for q in range(int(s[O_NP])) if q != p]
    return {"win_loss": int(win_loss(s, p)), "points": int(s[O_PTS + p]),
            "nobles": int(noble_progress(s, p)), "prestige": int(s[O_NCARD + p]),
            "gems": tok, "buys": int(legal_buys(s, p)),
            "lead": int(s[O_PTS + p]) - max(others), "turn": int(s[O_SIM]),
            "best_buy": int(best_buy(s, p))}
