"""The online genetic players as bots: each main move builds the plan problem over the
honest view of the position (see :func:`games.splendor._search.view`: hidden decks and
opponents' blind reserves never reach the search) and runs one DEAP evolution
(:mod:`games.splendor._evolve`) seeded from the bot's injected generator.

Return and noble decisions are the greedy ones of the other search players (its F).
A BuyOrder / BuyAndDeny move whose evolution is one generation of seeds only is made in one
compiled call instead (:mod:`games.splendor._seeded`: the same choice, without the Python).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from games.splendor._genetic_params import GeneticParams
from games.splendor._goal_seeds import goal_rows, rank_goals
from games.splendor._heuristics import N_COEF, named_heuristic
from games.splendor._kernel import CFG_W, decide
from games.splendor._plans import (
    ENC_INDEX,
    ENC_ORDER,
    ENC_REPAIR,
    ENC_SKIP,
    GOAL_GREEDY,
    SKIP_SLACK,
    evaluate_plans,
    exact_alphabet,
    new_table,
    order_goals,
    own_turns,
    table_size,
)
from games.splendor._rules import MAX_LEGAL, O_CUR, O_NP, O_PHASE, PH_MAIN, SIZE, legal_main
from games.splendor._search import view
from games.splendor._seeded import seeded_choice

ENCODINGS = {"index-move": ENC_INDEX, "buy-order": ENC_ORDER, "buy-and-deny": ENC_ORDER}


def encoding(name: str, params: GeneticParams) -> int:
    if name == "exact-move":
        return ENC_REPAIR if params.illegal == "repair" else ENC_SKIP
    return ENCODINGS[name]


def order_seeds(cards: np.ndarray, kinds: np.ndarray, length: int,
                previous: list[tuple[int, int]] | None) -> tuple[list[int], ...]:
    """First-generation chromosomes of ``start=greedy``: Greedy from the first turn (the
    Greedy goal, index ``length - 1``, first) and, given ``previous`` (the last move's best
    plan as (card, kind) goals), that plan's goals still open in its order, then the new
    goals in goal order."""
    greedy_first = [length - 1, *range(length - 1)]
    if previous is None:
        return (greedy_first,)
    index = {goal: g for g, goal in enumerate(zip(cards[:length].tolist(),
                                                  kinds[:length].tolist(), strict=True))}
    kept = [index[goal] for goal in previous if goal in index]
    seen = set(kept)
    reused = kept + [g for g in range(length) if g not in seen]
    return (greedy_first,) if reused == greedy_first else (greedy_first, reused)


def with_goal_seeds(seeds: tuple, count: int, root: np.ndarray, cards: np.ndarray,
                    kinds: np.ndarray, length: int, w: np.ndarray, keys: np.ndarray,
                    answers: np.ndarray, used: np.ndarray) -> tuple[list[int], ...]:
    """``seeds`` followed by the plans pursuing the ``count`` best-ranked goals, then
    Greedy (:mod:`games.splendor._goal_seeds`); a plan already seeded is not repeated."""
    order = np.empty(length, dtype=np.int64)
    n = int(rank_goals(root, cards, kinds, length, w, keys, answers, used, order))
    greedy_goal = length - 1 if length and kinds[length - 1] == GOAL_GREEDY else -1
    out = list(seeds)
    out += [plan for plan in goal_rows(order[:min(n, count)], length, greedy_goal).tolist()
            if plan not in seeds]
    return tuple(out)


def make_problem(name: str, params: GeneticParams, root: np.ndarray, w: np.ndarray,
                 stream: np.ndarray, previous: list[tuple[int, int]] | None = None) -> Any:
    """The plan problem of bot ``name`` at ``root`` (already the mover's view);
    ``previous``: the last move's best plan as goals (for ``start=greedy+reuse``)."""
    from games.splendor._evolve import Problem

    enc = encoding(name, params)
    p = int(root[O_CUR])
    own = int(own_turns(params.depth, int(root[O_NP])))
    cards = np.zeros(28, dtype=np.int64)
    kinds = np.zeros(28, dtype=np.int64)
    ak = np.zeros(64, dtype=np.int64)
    av = np.zeros(64, dtype=np.int64)
    seeds: tuple = ()
    if enc == ENC_ORDER:
        length = int(order_goals(root, p, name == "buy-and-deny", cards, kinds))
        if getattr(params, "start", "random") != "random":
            cards[length], kinds[length] = -1, GOAL_GREEDY
            length += 1
            seeds = order_seeds(cards, kinds, length, previous)
        alphabet = length
    elif enc == ENC_INDEX:
        length, alphabet = own, MAX_LEGAL
    else:
        alphabet = int(exact_alphabet(root, p, ak, av))
        length = own * (SKIP_SLACK if enc == ENC_SKIP else 1)
    ak, av = ak[:alphabet], av[:alphabet]
    wplan = plan_weights(w, params)
    keys, answers = new_table(params.evaluations * params.depth)  # shared by the move
    used = np.zeros(1, dtype=np.int64)
    if enc == ENC_ORDER and getattr(params, "seeds", 0):
        seeds = with_goal_seeds(seeds, params.seeds, root, cards, kinds, length, w, keys,
                                answers, used)

    def evaluate(genes: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        n = genes.shape[0]
        fit = np.empty(n, dtype=np.float64)
        first = np.empty(n, dtype=np.int64)
        read = np.empty(n, dtype=np.int64)
        evaluate_plans(root, genes, enc, params.depth, cards, kinds, ak, av, wplan, stream,
                       keys, answers, used, fit, first, read)
        return fit, first, read

    goals = tuple(zip(cards[:length].tolist(), kinds[:length].tolist(), strict=True)) \
        if enc == ENC_ORDER else ()
    return Problem(length, max(alphabet, 1), enc == ENC_ORDER, evaluate, enc == ENC_REPAIR,
                   seeds, goals)


class GeneticBot:
    """An online genetic player for the turn-level state (``act``) and the match loop
    (``choose`` on a raw position). ``recorder``, when a list, receives each move's
    :class:`games.splendor._evolve.MoveStats` (with diversity and operator yield when
    ``detail``, by default when a recorder is given here)."""

    def __init__(self, name: str, params: GeneticParams, row: np.ndarray, sampled: bool = False,
                 rng: np.random.Generator | None = None, recorder: list | None = None,
                 detail: bool | None = None) -> None:
        self.name = name
        self.params = params
        self.row = row  # Greedy's kernel row with this bot's F: return and noble decisions
        self.w = np.ascontiguousarray(row[CFG_W:CFG_W + N_COEF])  # F's weights
        self.sampled = sampled
        self.rng = rng or np.random.default_rng(0)
        self.recorder = recorder
        self.detail = recorder is not None if detail is None else detail
        self._sub = np.array([0], dtype=np.uint64)
        self._previous: dict[int, list[tuple[int, int]]] = {}  # seat -> last best plan
        self._seeded = self._seeded_setup()
        # seat -> (that plan, its cards, its kinds) as the compiled move left it
        self._previous_rows: dict[int, tuple[list, np.ndarray, np.ndarray]] = {}

    def choose(self, s: np.ndarray) -> int:
        """The main move for the player to move in ``s`` (the true position)."""
        from games.splendor._evolve import evolve

        legal = np.empty(MAX_LEGAL, dtype=np.int64)
        if legal_main(s, legal) == 1:
            return int(legal[0])
        # two draws in one: Generator.integers(0, 2**63) is the next raw 64-bit word >> 1
        # (Lemire's method at this range; tests/splendor/test_genetic_moves pins the moves)
        raw = self.rng.bit_generator.random_raw(2) >> np.uint64(1)
        stream = raw[:1]
        seed = int(raw[1])
        root = np.empty(SIZE, dtype=np.int64)
        view(s, int(s[O_CUR]), int(self.sampled), stream, root)
        seat = int(s[O_CUR])
        reuse = getattr(self.params, "start", "random") == "greedy+reuse"
        if self._seeded is not None:
            m = self._seeded_move(root, seat, reuse, stream)
            if m >= 0:
                return m
        problem = make_problem(self.name, self.params, root, self.w, stream,
                               self._previous.get(seat) if reuse else None)
        best, stats = evolve(problem, self.params, seed, self.detail)
        if reuse:
            self._previous[seat] = [problem.goals[g] for g in best]
        if self.recorder is not None:
            self.recorder.append(stats)
        return int(best.first)

    def _seeded_setup(self) -> dict[str, Any] | None:
        """What the compiled one-generation-of-seeds move needs, fixed for the game
        (:mod:`games.splendor._seeded`); None where the evolution is not one generation of a
        seeded permutation problem, or where a recorder wants the evolution's statistics."""
        p = self.params
        start = getattr(p, "start", "random")
        count = getattr(p, "seeds", 0)
        if (encoding(self.name, p) != ENC_ORDER or p.generations != 1
                or self.recorder is not None or (start == "random" and not count)):
            return None
        wplan = plan_weights(self.w, p)
        return {"deny": self.name == "buy-and-deny", "greedy": start != "random",
                "count": int(count), "wplan": wplan,
                "size": table_size(p.evaluations * p.depth),
                "cards": np.zeros(28, dtype=np.int64), "kinds": np.zeros(28, dtype=np.int64),
                "best": np.zeros(28, dtype=np.int64), "none": np.zeros(0, dtype=np.int64)}

    def _seeded_move(self, root: np.ndarray, seat: int, reuse: bool,
                     stream: np.ndarray) -> int:
        """The move of one generation of seeds only, compiled; -1 when the position has
        fewer seeds than the population (the general path fills it with random plans)."""
        c = self._seeded
        previous = self._previous.get(seat) if reuse else None
        if previous is None:
            pc = pk = c["none"]
        else:
            plan, pc, pk = self._previous_rows.get(seat, (None, None, None))
            if plan is not previous:  # the general path chose it: read it into arrays
                pc = np.array([g[0] for g in previous], dtype=np.int64)
                pk = np.array([g[1] for g in previous], dtype=np.int64)
        p = self.params
        _n, m, length = seeded_choice(root, c["deny"], c["greedy"], previous is not None, pc,
                                      pk, c["count"], p.population, p.depth, self.w,
                                      c["wplan"], stream, c["size"], c["cards"], c["kinds"],
                                      c["best"])
        if m >= 0 and reuse:
            best = c["best"][:length]
            pc, pk = c["cards"][best], c["kinds"][best]
            plan = list(zip(pc.tolist(), pk.tolist(), strict=True))
            self._previous[seat] = plan
            self._previous_rows[seat] = (plan, pc, pk)
        return int(m)

    def decide(self, s: np.ndarray) -> int:
        """The decision due in ``s``: a main move by evolution, the rest greedily with F."""
        if s[O_PHASE] == PH_MAIN:
            return self.choose(s)
        return int(decide(s, self.row, self._sub))

    def act(self, state: Any) -> int:
        """The bot's decision for the phase due in ``state`` (a legal move code)."""
        if state.is_terminal():
            raise ValueError("the game is over")
        return self.decide(state.array)


def weights_of(params: GeneticParams) -> np.ndarray:
    """F's weights of a genetic player (by the heuristic's name)."""
    return named_heuristic(params.heuristic).array()


def plan_weights(w: np.ndarray, params: GeneticParams) -> np.ndarray:
    """The weights a plan simulation reads: F's, followed by the F of the Greedy that plays
    the other seats when the player's ``opponent`` names another one."""
    opponent = getattr(params, "opponent", "same")
    return w if opponent == "same" else np.concatenate([w, weights_named(opponent)])


@cache
def weights_named(name: str) -> np.ndarray:
    """A named F's weights, built once (read-only: every move shares them)."""
    w = named_heuristic(name).array()
    w.flags.writeable = False
    return w
