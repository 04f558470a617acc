"""Watch one game move by move: :func:`trace_game` replays game ``index`` of a run exactly as
the batch kernel plays it (same deal, same seats, same random stream) through the
turn-level state, recording the board, the tokens, each decision and its score.

The score of a decision is the mover's own F (its heuristic weights; allEval for the random
player) of the position it leaves, seen from the mover's seat, as a search would score it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from games import registry
from games.core import BotSpec, game_seeds
from games.registry import seating_for
from games.splendor._heuristics import score
from games.splendor._kernel import BOT_STREAM, CFG_W, decide
from games.splendor._online import genetic_bots
from games.splendor._state import SplendorState


@dataclass
class Step:
    """One decision: who took it, what it was, the F it scored and the position before it."""

    round: int
    seat: int
    bot: str
    phase: str
    move: int
    text: str
    score: float
    points: list[int]
    tokens: list[list[int]]
    bank: list[int]
    board: list[list[int]]
    before: str  # the position before the decision, as SplendorState.describe() prints it


@dataclass
class GameTrace:
    """A whole traced game and its result (same fields as a row of Outcomes)."""

    seating: list[str]
    steps: list[Step] = field(default_factory=list)
    outcome: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    rounds: int = 0
    capped: bool = False
    final: str = ""

    def render(self, boards: bool = True) -> str:
        """The game as text: each position (when ``boards``) and each decision."""
        lines = [f"seats: {', '.join(self.seating)}"]
        for st in self.steps:
            if boards and st.phase == "main":
                lines.append(st.before)
            lines.append(f"  -> seat {st.seat} ({st.bot}) {st.text}   F = {st.score:.2f}")
        lines.append(self.final)
        lines.append(f"points {self.points}, outcome {self.outcome}, rounds {self.rounds}"
                     + (" (capped)" if self.capped else ""))
        return "\n".join(lines)


def trace_game(bots: Sequence[BotSpec | str], options: Mapping[str, Any] | None = None,
               seed: int = 0, index: int = 0, rotate: bool = True) -> GameTrace:
    """Play game ``index`` of the run with root ``seed`` between ``bots`` (specs or texts
    such as ``minimax:3``) and record every decision. The game's description comes from the
    registry (as every caller finds it), so this module and the description that calls it
    from ``watch`` do not import each other."""
    game: Any = registry.get("splendor")  # a SplendorGame: rows() is its own
    specs = [game.parse_bot(b) if isinstance(b, str) else game.check_bot(b) for b in bots]
    opts = registry.typed(game, options or {})
    players = game.seats(len(specs), opts)
    seat_bot = seating_for(index, 1, len(specs), players, rotate)[0]
    rows = game.rows(specs, opts)
    st = SplendorState.new(players, seed, index, opts.cap, opts.points_to_win, opts.nobles)
    seed_u = np.uint64(game_seeds(seed, 1, index)[0])
    stream = np.array([seed_u ^ BOT_STREAM], dtype=np.uint64)
    trace = GameTrace([specs[b].label for b in seat_bot])
    genetic = genetic_bots(int(seed_u), [b.name for b in specs],
                           [registry.params_of(game, b) for b in specs], rows,
                           opts.refill == "sampled")
    while not st.is_terminal():
        seat = st.current_player()
        row = rows[seat_bot[seat]]
        bot = genetic.get(int(seat_bot[seat]))
        before = st.describe()
        snapshot = (st.points(), [st.tokens(p) for p in range(players)], st.bank(), st.board())
        phase = st.phase
        rnd = st.rounds
        move = bot.decide(st.array) if bot else int(decide(st.array, row, stream))
        text = st.move_to_string(move)
        st.apply(move)
        value = float(score(st.array, seat, np.ascontiguousarray(row[CFG_W:])))
        trace.steps.append(Step(rnd, seat, trace.seating[seat], phase, move, text, value,
                                *snapshot, before))
    trace.outcome = [int(round(2 * r - 1)) for r in st.returns()]
    trace.points = st.points()
    trace.rounds = st.rounds
    trace.capped = st.capped
    trace.final = st.describe()
    return trace
