"""Splendor's registry description: bots, options, the batch entry point, the turn-level
state and the invariant check of the contract suite."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.capabilities import Neutral
from games.core import BotSpec, InputError, game_seeds
from games.registry import (
    BotInfo,
    Game,
    GameOptions,
    Outcomes,
    StudyTerms,
    option,
    params_of,
    register,
    seating_for,
    typed,
)
from games.splendor._genetic_params import (
    GENETIC_EXAMPLES,
    GENETIC_PARAMS,
    GENETIC_POSITIONAL,
    GENETIC_SUMMARIES,
)
from games.splendor._kernel import (
    E_BONUS,
    E_CARDS,
    E_LIMIT,
    E_NOBLES,
    E_POINTS,
    E_RESERVED,
    E_TOKENS,
    run_games,
)
from games.splendor._players import PARAMS, POSITIONAL, SUMMARIES, bot_row
from games.splendor._state import SplendorState

_ERRORS = {E_TOKENS: "tokens not conserved", E_LIMIT: "a player above 10 tokens",
           E_CARDS: "cards not all accounted for", E_NOBLES: "nobles duplicated or miscounted",
           E_POINTS: "points differ from cards plus nobles", E_RESERVED: "reserve broken",
           E_BONUS: "bonuses differ from cards bought"}


@dataclass(frozen=True, eq=False)
class SplendorOptions(GameOptions):
    """A match's rules, each option declared once (``SplendorGame.check_options``)."""

    cap: int = option(100, "rounds after which a game stops (reported as capped)", low=1,
                      high=100000)
    refill: str = option("none", "lookahead refills: none (the thesis) or sampled",
                         choices=("none", "sampled"))
    points_to_win: int = option(15, "a rule: prestige points that end the game (at the end "
                                    "of that round)", low=1, high=100, rule=True)
    nobles: int = option(0, "a rule: nobles on the table (0, the default: one more than the "
                            "players)", low=0, high=5, rule=True)


class SplendorGame(Game):
    """Splendor for 2-4 players (Reed thesis): outcome 1/0/-1 per seat, score = points,
    turns = rounds played, capped = the round cap (or an all-pass standstill) ended it."""

    name = "splendor"
    summary = "Splendor: gems, development cards and nobles, 2-4 players"
    player_counts = (2, 3, 4)
    objectives = ("win_rate", "mean_score")
    options_type = SplendorOptions
    default_opponents = ("greedy",)
    reproductions = {"splendor": "games.splendor.reproduce.thesis",
                     "splendor-genetic": "games.splendor.reproduce.genetic"}

    def bots(self) -> dict[str, BotInfo]:
        kernel = {name: BotInfo(name, SUMMARIES[name], ptype, POSITIONAL.get(name, ()))
                  for name, ptype in PARAMS.items()}
        genetic = {name: BotInfo(name, GENETIC_SUMMARIES[name], ptype,
                                 GENETIC_POSITIONAL[name], example=GENETIC_EXAMPLES[name])
                   for name, ptype in GENETIC_PARAMS.items()}
        return {**kernel, **genetic}

    def baselines(self, options: SplendorOptions,
                  study: StudyTerms = StudyTerms()) -> dict[str, BotSpec]:
        return {"greedy": BotSpec("greedy")}

    def rows(self, bots: Sequence[BotSpec], options: Mapping[str, Any]) -> np.ndarray:
        """The kernel rows of a line-up (specs checked here)."""
        sampled = typed(self, options).refill == "sampled"
        return np.stack([bot_row(b.name, params_of(self, self.check_bot(b)), sampled)
                         for b in bots])

    def warm_up(self) -> None:
        """Every bot's kernels (the default warm-up), and the equal-time BuyAndDeny's
        compiled seeds-only move."""
        Neutral(self).warm_up()
        bots = [self.parse_bot("buy-and-deny:depth=3,population=13,evaluations=13,"
                               "start=greedy+reuse,seeds=12"), self.parse_bot("minimax:3")]
        self.play(bots, self.check_options({}), 0, 0, 1)

    def releases_gil(self, bots: Sequence[BotSpec], options: SplendorOptions) -> bool:
        # kernel bots play inside kernel.play_batch; genetic ones ask DEAP every move
        return not any(b.name in GENETIC_PARAMS for b in bots)

    def play(self, bots: Sequence[BotSpec], options: Mapping[str, Any], seed: int, start: int,
             count: int, *, rotate: bool = True) -> Outcomes:
        opts: SplendorOptions = typed(self, options)
        players = self.seats(len(bots), opts)
        seating = seating_for(start, count, len(bots), players, rotate)
        rows = self.rows(bots, opts)
        if any(b.name in GENETIC_PARAMS for b in bots):  # DEAP every move: the Python loop
            from games.splendor._online import play_online

            out = play_online(game_seeds(seed, count, start), seating, [b.name for b in bots],
                              [params_of(self, b) for b in bots], rows, opts.cap,
                              opts.refill == "sampled", win=opts.points_to_win,
                              nobles=opts.nobles)
        else:
            out = run_games(game_seeds(seed, count, start), seating, rows, opts.cap,
                            win=opts.points_to_win, nobles=opts.nobles)
        return Outcomes(start, seating, out["outcome"], out["score"], out["turns"],
                        out["capped"].astype(bool))

    rollout_bot = "greedy"
    has_trainer = True  # the learned player (tabletune train)

    def trainer(self) -> Any:
        """The learned player's trainer (:mod:`games.splendor.learning.trainer`)."""
        from games.splendor.learning import trainer
        return trainer

    def state_player(self, spec: BotSpec, options: Mapping[str, Any],
                     rng: np.random.Generator) -> Any:
        """A kernel or genetic bot deciding on a SplendorState (players.make_bot)."""
        from games.splendor._players import make_bot
        sampled = typed(self, options).refill == "sampled"
        return make_bot(spec.name, dict(spec.params), sampled, rng)

    def new_state(self, options: Mapping[str, Any], seed: int, players: int) -> SplendorState:
        opts: SplendorOptions = typed(self, options)
        if players not in self.player_counts:
            raise InputError(f"splendor is played by 2, 3 or 4 players, got {players}")
        return SplendorState.new(players, seed, 0, opts.cap, opts.points_to_win, opts.nobles)

    def watch(self, bots: Sequence[BotSpec], options: SplendorOptions, seed: int,
              index: int) -> str:
        """Game ``index`` of the run replayed through the turn-level state: each position
        (board, tokens, reserves, nobles) and each decision with the F it scored."""
        from games.splendor._trace import trace_game

        if index < 0:
            raise InputError(f"game index must be 0 or more, got {index}")
        return trace_game(list(bots), options, seed, index).render()

    def invariants(self, options: Mapping[str, Any], seed: int, count: int) -> None:
        """Random games for 2, 3 and 4 players (a third each), every invariant checked after
        every turn inside the kernel."""
        opts: SplendorOptions = typed(self, options)
        rows = self.rows([BotSpec("random")] * 4, opts)
        done = 0
        for i, players in enumerate((2, 3, 4)):
            n = count // 3 + (1 if i < count % 3 else 0)
            seating = seating_for(done, n, players)
            out = run_games(game_seeds(seed, n, done), seating, rows[:players], opts.cap,
                            check=True, win=opts.points_to_win, nobles=opts.nobles)
            bad = np.flatnonzero(out["errors"])
            if bad.size:
                code = int(out["errors"][bad[0]])
                why = ", ".join(t for bit, t in _ERRORS.items() if code & bit)
                raise AssertionError(f"splendor game {done + int(bad[0])} ({players} players, "
                                     f"seed {seed}): {why}")
            assert (out["score"] >= 0).all() and (out["turns"] > 0).all()
            done += n


GAME = register(SplendorGame())
