"""OpenSpiel's bots as bots of our games: ``openspiel-mcts`` joins the bots of every game
that offers the ``openspiel`` capability (a State, a codec and a dealer in its package:
:mod:`games.capabilities`), with its parameters and ranges like any bot, so `tabletune
play`, study specs (as opponent or as the tuned strategy) and Optuna use it unchanged. The
registry seats them when the game registers (:func:`join`, the capability's layer); a game neither
imports this module nor opts in.

A line-up with an OpenSpiel bot is played through the turn-level State
(:func:`games.interop._match.play_states`), one decision at a time; the game's own bots then
act through their ``state_player`` (the ``state_players`` capability of
:mod:`games.capabilities`; a game without it plays OpenSpiel's bots against each other or
alone), and the heuristic rollouts play its ``rollout_bot``. Nothing here imports ``pyspiel``:
the match does, when it starts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.capabilities import own
from games.core import BotSpec, InputError, make_params
from games.interop._params import MCTS, OPENSPIEL_BOTS, MCTSParams, game_rollout_bot
from games.registry import BotInfo, Game, Outcomes

__all__ = ["MCTS", "OPENSPIEL_BOTS", "MCTSParams", "check_openspiel_bot",
           "join", "uses_openspiel"]


def uses_openspiel(bots: Sequence[BotSpec]) -> bool:
    return any(b.name in OPENSPIEL_BOTS for b in bots)


def check_openspiel_bot(game: Game, spec: BotSpec) -> BotSpec:
    """An OpenSpiel bot's spec with checked parameters (InputError otherwise)."""
    if spec.genome is not None:
        raise InputError(f"{spec.name} takes parameters, not a genome")
    params = make_params(OPENSPIEL_BOTS[spec.name].params_type, spec.params)
    if params.evaluator == "heuristic" and not game_rollout_bot(game):
        raise InputError(f"{spec.name}: {game.name} has no heuristic bot for rollouts; "
                         "use evaluator=random")
    return BotSpec(spec.name, {k: getattr(params, k) for k in spec.params}, None,
                   spec.label_text)


def join(cls: type[Game]) -> None:
    """Seat OpenSpiel's bots at a game's table (the registry calls it once per class of a
    game that offers ``openspiel``): the game's bots gain :data:`OPENSPIEL_BOTS`, a line-up
    with one of them plays through the State (:func:`games.interop._match.play_states`),
    their value is always sampled (no exact value), and the kernel warm-up leaves them out
    (Python searches: nothing to compile). The game's own bots, checks and batch play
    are what it wrote; every other line-up goes to them unchanged."""
    if cls.__dict__.get("_openspiel_seated"):
        return
    bots, check_bot, play = cls.bots, cls.check_bot, cls.play
    releases_gil = own(cls, "releases_gil")  # None: Python blocks (worker processes)

    def all_bots(self: Game) -> dict[str, BotInfo]:
        return {**bots(self), **OPENSPIEL_BOTS}

    def checked(self: Game, spec: BotSpec) -> BotSpec:
        if spec.name in OPENSPIEL_BOTS:
            return check_openspiel_bot(self, spec)
        return check_bot(self, spec)

    def play_any(self: Game, line_up: Sequence[BotSpec], options: Mapping[str, Any],
                 seed: int, start: int, count: int, *, rotate: bool = True) -> Outcomes:
        if not uses_openspiel(line_up):
            return play(self, line_up, options, seed, start, count, rotate=rotate)
        from games.interop._match import play_states
        return play_states(self, line_up, options, seed, start, count, rotate=rotate)

    def gil(self: Game, line_up: Sequence[BotSpec], options: Mapping[str, Any]) -> bool:
        return (not uses_openspiel(line_up) and releases_gil is not None
                and releases_gil(self, line_up, options))

    own_exact = own(cls, "exact")  # None: the game has no exact value of its own

    def exact_or_sampled(self: Game, bot: BotSpec, options: Mapping[str, Any],
                         objective: str) -> float | None:
        if bot.name in OPENSPIEL_BOTS or own_exact is None:
            return None
        return own_exact(self, bot, options, objective)

    # every game OpenSpiel plays answers ``exact`` (None for the searches), as it always has
    for name, fn in (("bots", all_bots), ("check_bot", checked), ("play", play_any),
                     ("releases_gil", gil), ("exact", exact_or_sampled)):
        fn.__name__, fn.__doc__ = name, (own(cls, name) or fn).__doc__
        setattr(cls, name, fn)
    cls.warm_skip = tuple(dict.fromkeys((*(own(cls, "warm_skip") or ()), *OPENSPIEL_BOTS)))
    cls._openspiel_seated = True
