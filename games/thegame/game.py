"""The Game's registry description: one player family at a cooperative table of 1-5."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from games import registry
from games.capabilities import Neutral
from games.core import BotSpec, InputError
from games.thegame._gap_greedy import GAP_GREEDY, SUMMARY, GapGreedyParams
from games.thegame._players import PLAYERS
from games.thegame._rules import N_PILES
from games.thegame._simulate import play_block
from games.thegame._state import BACKWARDS_STEP


def _even_piles(piles: int) -> int:
    if int(piles) % 2:
        raise InputError(f"piles must be even (half ascending, half descending), got {piles}")
    return int(piles)


@dataclass(frozen=True, eq=False)
class TheGameOptions(registry.GameOptions):
    """The table's rules, each option declared once (``TheGame.check_options`` returns one)."""

    depth: int = registry.option(0, "search depth d (0 = greedy turn)", low=0, high=4,
                                 flag="--depth")
    players: int = registry.option(1, "players at the table (1-5), all of the same family",
                                   low=1, high=5)
    expert: bool = registry.option(False, "lay at least 3 cards a turn", rule=True)
    short_turn: bool = registry.option(
        True, "the seed's end-of-game convention; --strict-end: a turn that falls short lays "
        "nothing (changes cards left, never a win)", flag="--short-turn/--strict-end")
    hand_size: int = registry.option(
        0, "a rule: cards in each hand (0, the rules: 8 solo, 7 with two players, 6 with "
        "three to five)", low=0, high=8, rule=True)
    piles: int = registry.option(
        N_PILES, "a rule: piles on the table, even, 2-8 (half ascend from 1, half descend "
        "from 100); other than 4, gap-greedy alone plays", low=2, high=8, check=_even_piles,
        rule=True)
    backwards: int = registry.option(
        BACKWARDS_STEP, "a rule: the backwards trick's step (0: no trick); other than 10, "
        "gap-greedy alone plays", low=0, high=30, rule=True)


class TheGame(registry.Game):
    """The Game (Benndorf): the table wins when every card is laid."""

    name = "thegame"
    summary = ("The Game (Benndorf): value-function players with depth-d search, 1-5 players; "
               "any piles and backwards trick with gap-greedy")
    player_counts = (1,)
    objectives = ("win_rate", "cards_left", "under_10")
    options_type = TheGameOptions
    default_games = 100_000
    default_bots = ("recovery-fallback",)
    cli_aliases = {"--player": "--bots", "-d": "--depth"}
    reproductions = {"thegame": "games.thegame.reproduce.tables",
                     "thegame-d2-weights": "games.thegame.reproduce.d2_weights"}

    def bots(self) -> dict[str, registry.BotInfo]:
        out = {name: registry.BotInfo(name, spec.summary, spec.params_type)
               for name, spec in PLAYERS.items()}
        out[GAP_GREEDY] = registry.BotInfo(GAP_GREEDY, SUMMARY, GapGreedyParams)
        return out

    def releases_gil(self, bots: Sequence[BotSpec], options: TheGameOptions) -> bool:
        return True  # every player and search depth runs inside engine.play_batch

    def play(self, bots: Sequence[BotSpec], options: Mapping[str, Any], seed: int, start: int,
             count: int, *, rotate: bool = True) -> registry.Outcomes:
        (bot,) = bots
        opts: TheGameOptions = registry.typed(self, options)
        batch = play_block(bot.name, dict(bot.params), opts.depth, int(seed), int(start),
                           int(count), players=opts.players, expert=opts.expert,
                           short_turn=opts.short_turn, hand_size=opts.hand_size,
                           piles=opts.piles, step=opts.backwards)
        left = batch.cards_left
        outcome = np.where(left == 0, 1, -1).astype(np.int8)[:, None]
        return registry.Outcomes(start, np.zeros((count, 1), dtype=np.int64), outcome,
                                 left.astype(np.float64)[:, None], batch.turns,
                                 np.zeros(count, dtype=np.bool_),
                                 extra={"backwards": batch.backwards})

    def objective_values(self, outcomes: registry.Outcomes, bot: int, objective: str,
                         options: TheGameOptions) -> np.ndarray:
        left = outcomes.score[:, 0]
        if objective == "cards_left":
            return left.astype(float)
        if objective == "under_10":
            return (left < 10).astype(float)
        if objective == "win_rate":
            return (left == 0).astype(float)
        return Neutral(self).objective_values(outcomes, bot, objective, options)

    def direction(self, objective: str) -> str:
        return "minimize" if objective == "cards_left" else "maximize"

    def tally(self, outcomes: registry.Outcomes, options: TheGameOptions
              ) -> dict[str, np.ndarray]:
        left = outcomes.score[:, 0]
        won = left == 0
        out = {"under_10": (left < 10).astype(float), "won": won.astype(float)}
        if "backwards" in outcomes.extra:  # counted by the engine (not by State-level play)
            out["backwards_when_won"] = np.where(won, outcomes.extra["backwards"], 0.0)
        return out

    def summarize_tally(self, means: Mapping[str, tuple[float, tuple[float, float]]]
                        ) -> dict[str, Any]:
        won = means["won"][0]
        backwards = means.get("backwards_when_won")
        return {"under_10_rate": means["under_10"][0],
                "backwards_tricks_of_winners": (backwards[0] / won
                                                if won > 0 and backwards else None)}

    def baselines(self, options: TheGameOptions,
                  study: registry.StudyTerms = registry.StudyTerms()) -> dict[str, BotSpec]:
        """The seed's players with their published parameters."""
        return {"recovery-fallback (seed parameters)": BotSpec("recovery-fallback"),
                "recovery-distance (seed parameters)": BotSpec("recovery-distance")}

    def new_state(self, options: Mapping[str, Any], seed: int, players: int) -> Any:
        """The turn-level API (games.thegame._state): game ``seed`` of the engine's deals."""
        from games.core import game_seeds
        from games.thegame._state import TheGameState
        opts: TheGameOptions = registry.typed(self, options)
        return TheGameState(int(game_seeds(seed, 1)[0]), opts.players, opts.expert,
                            opts.hand_size, opts.piles, opts.backwards)

    def invariants(self, options: Mapping[str, Any], seed: int, count: int) -> None:
        """Cards left lie in 0..98 and a won game has none left."""
        out = self.play([BotSpec("recovery-distance")], self.check_options(options), seed, 0,
                        count)
        left = out.score[:, 0]
        assert np.all((left >= 0) & (left <= 98))
        assert np.all((out.outcome[:, 0] == 1) == (left == 0))


GAME = registry.register(TheGame())
