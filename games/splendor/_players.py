"""Splendor's bots: parameter dataclasses (ranges declared with ``tunable``), the kernel row
each becomes, and small bot objects that play a :class:`SplendorState` move by move.

Bots: ``random``; ``greedy`` (allEval) and ``greedy2`` (allEval2); ``minimax`` (allEval) and
``minimax2`` (allEval2), ``minimax:3`` giving the depth; ``random-search`` (allEval2, as
in the thesis's table), ``random-search:10,1000`` giving depth and k. The online genetic
players (``index-move``, ``exact-move``, ``buy-order``, ``buy-and-deny``) have their
parameters in :mod:`games.splendor._genetic_params` and play through
:mod:`games.splendor._genetic`; their kernel row is Greedy's with their F (for the return
and noble decisions). ``learned`` and ``expert`` search with the learned value at their
leaves (:mod:`games.splendor._learned`, a model file; ``expert:PATH`` names another).

Every searching kernel bot carries ``pay``, the payment policy of the buy it chooses
(:mod:`games.splendor._payment`): ``gold-last`` by default (what these bots always did, so
seeded results are unchanged), ``gold-first`` or ``keep-target``. Its searches look ahead
with gold-last payments. ``random`` and the genetic players pay gold last.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from games.core import tunable
from games.splendor._genetic_params import GENETIC_PARAMS
from games.splendor._heuristics import (
    LEAF_LEARNED,
    LEAF_MODES,
    N_COEF,
    AllEval,
    AllEval2,
    Heuristic,
    named_heuristic,
)
from games.splendor._kernel import (
    CFG_DEEPEN,
    CFG_DEPTH,
    CFG_K,
    CFG_KIND,
    CFG_LEAF,
    CFG_PAY,
    CFG_SAMPLED,
    CFG_SIZE,
    CFG_TT,
    CFG_W,
    K_ALPHABETA,
    K_GREEDY,
    K_MINIMAX,
    K_RANDOM,
    K_RSEARCH,
    decide,
)
from games.splendor._learned import ExpertParams, LearnedParams
from games.splendor._payment import PAY_POLICIES

PAY_DOC = "how a chosen buy is paid: gold-last, gold-first or keep-target"


@dataclass(frozen=True)
class GreedyParams(AllEval):
    """Greedy(F) with F's weights (allEval by default); ``pay``: its payment policy."""

    pay: str = tunable("gold-last", choices=PAY_POLICIES, doc=PAY_DOC)


@dataclass(frozen=True)
class Greedy2Params(AllEval2):
    """Greedy(F) with allEval2 weights by default; ``pay``: its payment policy."""

    pay: str = tunable("gold-last", choices=PAY_POLICIES, doc=PAY_DOC)


@dataclass(frozen=True)
class MinimaxParams(AllEval):
    """Minimax(depth) with F's weights (allEval); ``prune`` off gives plain minimax; ``leaf``
    picks how leaves are scored (see games.splendor._heuristics.leaf); ``tt`` adds the
    transposition table (games.splendor._ttable) and ``deepen`` iterative deepening at the
    root (games.splendor._minimax): same moves, fewer positions searched. Both default to
    ``auto``: on where they pay (searches of AIDS_FROM turns or more, see
    benchmarks/splendor.py)."""

    depth: int = tunable(3, 1, 8, integer=True, doc="turns searched (1 = Greedy)")
    prune: bool = tunable(True, choices=(True, False), doc="alpha-beta pruning")
    leaf: str = tunable("root", choices=LEAF_MODES, doc="leaf value: root, difference, mover")
    tt: bool | str = tunable("auto", choices=("auto", True, False),
                             doc="transposition table (auto: from AIDS_FROM turns deep)")
    deepen: bool | str = tunable("auto", choices=("auto", True, False),
                                 doc="iterative deepening (auto: from AIDS_FROM turns deep)")
    pay: str = tunable("gold-last", choices=PAY_POLICIES, doc=PAY_DOC)


@dataclass(frozen=True)
class Minimax2Params(Greedy2Params):
    """Minimax(depth) with allEval2 weights by default."""

    depth: int = tunable(3, 1, 8, integer=True, doc="turns searched (1 = Greedy)")
    prune: bool = tunable(True, choices=(True, False), doc="alpha-beta pruning")
    leaf: str = tunable("root", choices=LEAF_MODES, doc="leaf value: root, difference, mover")
    tt: bool | str = tunable("auto", choices=("auto", True, False),
                             doc="transposition table (auto: from AIDS_FROM turns deep)")
    deepen: bool | str = tunable("auto", choices=("auto", True, False),
                                 doc="iterative deepening (auto: from AIDS_FROM turns deep)")


@dataclass(frozen=True)
class NoviceParams(GreedyParams):
    """The novice: Greedy(allEval), one turn deep."""


@dataclass(frozen=True)
class IntermediateParams(Minimax2Params):
    """The intermediate: today's best searching player before the learned ones, the
    Minimax(2) whose F the study ``splendor-minimax-heuristic`` fitted (its published best,
    ``reports/splendor-minimax-heuristic/run.json``; a test holds the two together)."""

    depth: int = tunable(2, 1, 8, integer=True, doc="turns searched (1 = Greedy)")
    leaf: str = tunable("difference", choices=LEAF_MODES,
                        doc="leaf value: root, difference, mover")
    win_loss: float = tunable(119.07186326145155, 0.0, 200.0, doc="weight of WinLoss")
    points: float = tunable(0.15688702171943336, 0.0, 10.0, doc="weight of Points")
    nobles: float = tunable(9.601401310560991, 0.0, 10.0, doc="weight of noble progress")
    prestige: float = tunable(9.057232078056904, 0.0, 10.0, doc="weight of cards bought")
    gems: float = tunable(3.5673189003386625, 0.0, 10.0, doc="weight of tokens held")
    buys: float = tunable(0.4612017028430816, 0.0, 10.0, doc="weight of legal buys")
    lead: float = tunable(4.0821835843184795, 0.0, 10.0,
                          doc="weight of the lead over the best opponent")
    best_buy: float = tunable(4.13583843347345, 0.0, 10.0,
                              doc="weight of the best affordable card's points")


@dataclass(frozen=True)
class RandomSearchParams(Greedy2Params):
    """RandomSearch(depth, k) with allEval2 weights by default."""

    depth: int = tunable(10, 1, 40, integer=True, doc="turns per continuation")
    k: int = tunable(1000, 1, 100000, integer=True, log=True, doc="continuations per move")


#: the learned players (games.splendor._learned): their rows read a model file
LEARNED_PARAMS: dict[str, type] = {"learned": LearnedParams, "expert": ExpertParams}
PARAMS: dict[str, type | None] = {
    "random": None, "greedy": GreedyParams, "greedy2": Greedy2Params,
    "minimax": MinimaxParams, "minimax2": Minimax2Params,
    "random-search": RandomSearchParams, **LEARNED_PARAMS,
    "novice": NoviceParams, "intermediate": IntermediateParams,
}
SUMMARIES = {
    "random": "uniformly random legal moves (baseline, fuzzing)",
    "greedy": "Greedy(allEval): best one-turn F, ties Buy > Take 3 > Take 2 > Reserve",
    "greedy2": "Greedy(allEval2)",
    "minimax": "Minimax(depth) with alpha-beta over whole turns (table and deepening from "
               "depth 4), allEval",
    "minimax2": "Minimax(depth) with alpha-beta over whole turns (table and deepening from "
                "depth 4), allEval2",
    "random-search": "RandomSearch(depth, k): k random lines, opponents Greedy, allEval2",
    "learned": "the learned value (self-play) at the leaves of a one-turn search",
    "expert": "the learned value, refitted on its own games, at the leaves of a three-turn "
              "alpha-beta search",
    "novice": "the easiest level: Greedy(allEval)",
    "intermediate": "the middle level: the tuned Minimax(2) of splendor-minimax-heuristic",
}
POSITIONAL = {"minimax": ("depth",), "minimax2": ("depth",),
              "random-search": ("depth", "k"), "learned": ("model",), "expert": ("model",)}


AIDS_FROM = 4  # depth from which ``tt`` and ``deepen`` are on unless set


def _aid_on(value: bool | str, depth: int) -> bool:
    """A search aid's setting: ``auto`` means on from AIDS_FROM turns deep."""
    return depth >= AIDS_FROM if value == "auto" else bool(value)


def weights(params: Heuristic) -> np.ndarray:
    """F's weights of a params instance, in kernel order."""
    return Heuristic.array(params)


def bot_row(name: str, params: Any, sampled: bool = False) -> np.ndarray:
    """The kernel's configuration row of bot ``name`` with ``params`` (None for random)."""
    row = np.zeros(CFG_SIZE, dtype=np.float64)
    row[CFG_SAMPLED] = float(sampled)
    if name == "random":
        row[CFG_KIND] = K_RANDOM
        row[CFG_W:CFG_W + N_COEF] = Heuristic().array()
        return row
    if name in GENETIC_PARAMS:  # the row of its return and noble decisions: Greedy's
        row[CFG_KIND] = K_GREEDY
        row[CFG_W:CFG_W + N_COEF] = named_heuristic(params.heuristic).array()
        return row
    if name in LEARNED_PARAMS:
        from games.splendor._learned import default_model, load_model

        model = load_model(params.model or default_model(name))
        return learned_row(model.weights, params.depth, params.pay, sampled)
    row[CFG_W:CFG_W + N_COEF] = weights(params)
    row[CFG_PAY] = PAY_POLICIES.index(params.pay)
    if name in ("greedy", "greedy2", "novice"):
        row[CFG_KIND] = K_GREEDY
    elif name in ("minimax", "minimax2", "intermediate"):
        row[CFG_KIND] = K_ALPHABETA if params.prune else K_MINIMAX
        row[CFG_DEPTH] = params.depth
        row[CFG_LEAF] = LEAF_MODES.index(params.leaf)
        row[CFG_TT] = float(_aid_on(params.tt, params.depth))
        row[CFG_DEEPEN] = float(_aid_on(params.deepen, params.depth))
    elif name == "random-search":
        row[CFG_KIND] = K_RSEARCH
        row[CFG_DEPTH] = params.depth
        row[CFG_K] = params.k
    else:
        raise ValueError(f"unknown Splendor bot {name!r}")
    return row


def learned_row(value: np.ndarray, depth: int = 1, pay: str = "gold-last",
                sampled: bool = False) -> np.ndarray:
    """The kernel row of a learned player with the learned value's weights ``value``
    (:data:`games.splendor._features.NV`): alpha-beta over ``depth`` whole turns, leaves
    scored by the value, returns and nobles by allEval's F."""
    row = np.zeros(CFG_SIZE, dtype=np.float64)
    row[CFG_SAMPLED] = float(sampled)
    row[CFG_KIND] = K_ALPHABETA
    row[CFG_DEPTH] = depth
    row[CFG_LEAF] = LEAF_LEARNED
    row[CFG_TT] = float(_aid_on("auto", depth))
    row[CFG_DEEPEN] = float(_aid_on("auto", depth))
    row[CFG_PAY] = PAY_POLICIES.index(pay)
    row[CFG_W:CFG_W + N_COEF] = AllEval().array()
    row[CFG_W + N_COEF:] = value
    return row


class Bot:
    """A bot that plays a :class:`games.splendor._state.SplendorState` one decision at a time.

    It searches only the honest view of the position (see :mod:`games.splendor._search`);
    its random numbers come from the injected generator.
    """

    def __init__(self, name: str, params: Any = None, sampled: bool = False,
                 rng: np.random.Generator | None = None) -> None:
        self.name = name
        self.params = params
        self.row = bot_row(name, params, sampled)
        seed = (rng or np.random.default_rng(0)).integers(0, 2**63, dtype=np.uint64)
        self._stream = np.array([seed], dtype=np.uint64)

    def act(self, state: Any) -> int:
        """The bot's decision for the phase due in ``state`` (a legal move code)."""
        if state.is_terminal():
            raise ValueError("the game is over")
        return int(decide(state.array, self.row, self._stream))


def make_bot(name: str, values: dict[str, Any] | None = None, sampled: bool = False,
             rng: np.random.Generator | None = None) -> Any:
    """A bot by name with parameter values checked against their ranges (a kernel bot, or
    an online genetic player: :class:`games.splendor._genetic.GeneticBot`)."""
    from games.core import make_params

    if name in GENETIC_PARAMS:
        from games.splendor._genetic import GeneticBot

        params = make_params(GENETIC_PARAMS[name], values or {})
        return GeneticBot(name, params, bot_row(name, params, sampled), sampled, rng)
    ptype = PARAMS[name]
    params = None if ptype is None else make_params(ptype, values or {})
    return Bot(name, params, sampled, rng)
