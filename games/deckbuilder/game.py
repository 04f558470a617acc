"""The deck-building model's registry description: a solo game with an exact value."""

from __future__ import annotations

import multiprocessing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from games import registry
from games.capabilities import Neutral
from games.core import BotSpec, InputError
from games.deckbuilder._api import (
    check_end_chance,
    exact_value,
    optimal_value,
    resolve,
    solve_summary,
)
from games.deckbuilder._api import simulate as simulate_scores
from games.deckbuilder._model import make_card_set
from games.deckbuilder._rules import BuyRule
from games.deckbuilder._strategies import DESCRIPTIONS, FlatMCParams, HeuristicParams


def _start_text(value: Any) -> Any:
    if isinstance(value, dict):
        return ",".join(f"{k}={v}" for k, v in sorted(value.items()))
    return value


def _cards_text(value: Any) -> Any:
    return ",".join(str(c) for c in value) if isinstance(value, list | tuple) else value


@lru_cache(maxsize=8)
def _card_set_of(cards: Any, start: Any, hand_size: int) -> Any:
    return make_card_set(cards, start, hand_size)


@dataclass(frozen=True, eq=False)
class DeckbuilderOptions(registry.GameOptions):
    """The model's game, each option declared once (``DeckbuilderGame.check_options``)."""

    turns: int = registry.option(31, "game length T (turns)", low=1, high=10_000,
                                 flag="--turns", excludes=("end_chance",))
    end_chance: float | None = registry.option(
        None, "end chance after every turn (geometric end)", kind=float,
        check=check_end_chance)
    cards: Any = registry.option(None, "card set, e.g. copper:t1:c0,silver:t2:c3,estate:v1:c2",
                                 kind=object, check=_cards_text)
    start: Any = registry.option(None, "starting deck, e.g. copper=7,estate=3", kind=object,
                                 check=_start_text)
    hand_size: int = registry.option(5, "cards drawn each turn", low=1, high=100)


def card_set(options: Mapping[str, Any]) -> Any:
    """The card set the options describe (the thesis set by default), cached per process."""
    opts: DeckbuilderOptions = registry.typed(GAME, options)
    return _card_set_of(_cards_text(opts.cards), _start_text(opts.start), opts.hand_size)


def _one_thread_in_workers() -> None:
    """A worker process already runs one task per core: keep numba's parallel kernels to
    one thread there instead of oversubscribing the machine."""
    if multiprocessing.parent_process() is not None:
        import numba
        numba.set_num_threads(1)


class DeckbuilderGame(registry.Game):
    """Single-player deck building: buy at most one card a turn, score the deck's points."""

    name = "deckbuilder"
    summary = "Deck-building model (Leiden thesis): solo, exact DP optimum, buy rules"
    player_counts = (1,)
    objectives = ("fraction_of_optimum", "mean_score")
    options_type = DeckbuilderOptions
    default_bots = ("picky",)
    has_winner = False
    test_options = {"turns": 12}
    reproductions = {"deckbuilder": "games.deckbuilder.reproduce"}
    cli_aliases = {"--strategy": "--bots", "-t": "--turns",
                   "--hand": "--hand-size", "-a": "--end-chance"}

    def bots(self) -> dict[str, registry.BotInfo]:
        types = {"heuristic": HeuristicParams, "flatmc": FlatMCParams}
        return {name: registry.BotInfo(name, desc, types.get(name))
                for name, desc in DESCRIPTIONS.items()}

    def parse_bot(self, text: str) -> BotSpec:
        """A strategy name (``heuristic:province_left=22``) or a buy rule with ``@``."""
        if "@" in text:
            return self.check_bot(BotSpec(text.strip(), genome=text.strip()))
        return self.check_bot(registry.parse_bot_text(text, self.bots()))

    def check_bot(self, spec: BotSpec) -> BotSpec:
        if spec.genome is not None:
            BuyRule.parse(spec.genome)  # syntax; card names are checked against a card set
            return spec
        resolve(spec.name, dict(spec.params))
        return spec

    def check_options(self, options: Mapping[str, Any]) -> DeckbuilderOptions:
        out = super().check_options(options)
        try:
            card_set(out)
        except (TypeError, ValueError) as exc:
            raise InputError(f"game: bad card set ({exc})") from None
        return out

    def _strategy(self, bot: BotSpec) -> Any:
        return resolve(bot.genome if bot.genome is not None else bot.name,
                       None if bot.genome is not None else dict(bot.params))

    def play(self, bots: Sequence[BotSpec], options: Mapping[str, Any], seed: int, start: int,
             count: int, *, rotate: bool = True) -> registry.Outcomes:
        (bot,) = bots
        opts: DeckbuilderOptions = registry.typed(self, options)
        turns = opts.turns
        scores = np.asarray(simulate_scores(self._strategy(bot), turns, count, seed, start,
                                            card_set(opts), None,
                                            end_chance=opts.end_chance),
                            dtype=np.float64)
        return registry.Outcomes(start, np.zeros((count, 1), dtype=np.int64),
                                 np.zeros((count, 1), dtype=np.int8), scores[:, None],
                                 np.full(count, turns, dtype=np.int64),
                                 np.zeros(count, dtype=np.bool_))

    def optimum(self, options: Mapping[str, Any]) -> float:
        """The DP-optimal expected score of the options' game (fixed length only)."""
        opts: DeckbuilderOptions = registry.typed(self, options)
        return float(optimal_value(opts.turns, card_set(opts)))

    def objective_values(self, outcomes: registry.Outcomes, bot: int, objective: str,
                         options: DeckbuilderOptions) -> np.ndarray:
        scores = outcomes.score[:, 0]
        if objective == "fraction_of_optimum":
            return scores / self.optimum(options)
        return Neutral(self).objective_values(outcomes, bot, objective, options)

    def exact(self, bot: BotSpec, options: DeckbuilderOptions, objective: str
              ) -> float | None:
        """Exact value of a rule-based strategy (flat Monte Carlo samples: None)."""
        strat = self._strategy(bot)
        if strat.kind == "flatmc":
            return None
        opts = options
        self.check_study(opts, objective)
        _one_thread_in_workers()
        value = float(exact_value(strat, opts.turns, card_set(opts),
                                  end_chance=opts.end_chance))
        if objective == "fraction_of_optimum":
            return value / self.optimum(opts)
        return value

    def check_study(self, options: DeckbuilderOptions, objective: str) -> None:
        if objective == "fraction_of_optimum" and options.end_chance is not None:
            raise InputError("game.end_chance: fraction_of_optimum needs a fixed game length; "
                             "use objective = \"mean_score\" with an end chance")

    def baselines(self, options: DeckbuilderOptions,
                  study: registry.StudyTerms = registry.StudyTerms()) -> dict[str, BotSpec]:
        """The thesis strategies and the untuned heuristic rule, all exactly evaluated."""
        out = {"heuristic, default parameters": BotSpec("heuristic")}
        for name in ("picky", "expensive", "greedy", "random"):
            out[name] = BotSpec(name)
        return out

    solve_options = (
        registry.Option("tol", float, 1e-6, "geometric end: target error bound", low=0.0),
        registry.Option("max_size", int, 120,
                        "geometric end: largest number of added cards solved", low=1,
                        high=100_000),
    )

    def solve(self, options: DeckbuilderOptions, strategies: Sequence[str],
              extra: Mapping[str, Any]) -> dict[str, Any]:
        opts = options
        return solve_summary(opts.turns, card_set(opts), list(strategies),
                             opts.end_chance, extra.get("tol", 1e-6),
                             extra.get("max_size", 120), extra.get("notify"))

    def new_state(self, options: Mapping[str, Any], seed: int, players: int) -> Any:
        """The turn-level API (games.deckbuilder._state), fixed game length."""
        from games.core import game_rng
        from games.deckbuilder._state import DeckbuilderState
        opts: DeckbuilderOptions = registry.typed(self, options)
        return DeckbuilderState(card_set(opts), opts.turns,
                                game_rng(seed, 0))

    def genome_kinds(self) -> dict[str, Any]:
        return {"deckbuilder-buylist": self.buylist_kind}

    def buylist_kind(self, options: Mapping[str, Any]) -> Any:
        """The ``deckbuilder-buylist`` genome kind: the game's own options among
        ``options`` checked (so their defaults are the ones declared above), the genome's
        own keys read by the genome."""
        from games.deckbuilder._genome import DeckbuilderBuyList
        own = registry.typed(self, {o.name: options[o.name] for o in self.options
                                    if o.name in options})
        return DeckbuilderBuyList(dict(options), card_set(own), own.turns)

    def report_notes(self, options: DeckbuilderOptions, data: Mapping[str, Any],
                     study: registry.StudyTerms = registry.StudyTerms()) -> list[str]:
        """The DP optimum and the best rule's expected score in points."""
        best = data.get("best") or {}
        opts = options
        if opts.end_chance is not None or "mean" not in best:
            return []
        optimum = self.optimum(opts)
        if study.objective == "fraction_of_optimum":
            points, fraction = best["mean"] * optimum, best["mean"]
        else:
            points, fraction = best["mean"], best["mean"] / optimum
        how = "exact" if best.get("exact") else f"estimated on {best.get('games', 0):,} games"
        return [f"DP optimum at T = {opts.turns}: {optimum:.3f} points "
                f"expected. Best rule (trial {best.get('trial')}): {points:.3f} points, "
                f"{100 * fraction:.2f}% of the optimum ({how})."]

    def yardstick(self) -> Any:
        """Exact values against the DP optimum in evolution reports."""
        from games.deckbuilder._yardstick import DeckbuilderYardstick
        return DeckbuilderYardstick(self.optimum, card_set)

    def invariants(self, options: Mapping[str, Any], seed: int, count: int) -> None:
        """Simulated scores never exceed the points a deck can hold; the mean of many games
        lies near the exact value."""
        opts = self.check_options(options)
        out = self.play([BotSpec("picky")], opts, seed, 0, count)
        assert np.all(out.score >= 0)
        if opts.end_chance is None:
            exact = self.exact(BotSpec("picky"), opts, "mean_score")
            sd = float(out.score.std()) or 1.0
            assert abs(float(out.score.mean()) - exact) < 5 * sd / np.sqrt(count) + 1e-9


GAME = registry.register(DeckbuilderGame())
