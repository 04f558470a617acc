"""Dominion's registry description: bots, options, the batch entry point and report hooks."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from games import registry
from games.core import BotSpec, InputError
from games.dominion import _kingdoms as kingdoms
from games.dominion._bots import NAMED, SPECIAL_BOTS, HeuristicParams, build_bot, spec_from_text
from games.dominion._learned import GENERAL_MODEL, LEARNED, LEARNED_GENERAL, LearnedPlayParams
from games.dominion._named_bots import COMMUNITY
from games.dominion._options import DominionOptions, GameConfig
from games.dominion._strategy import StrategyParams, has_sections


def config_of(options: Mapping[str, Any]) -> GameConfig:
    """The engine's rules from the game's options (checked first if a plain mapping)."""
    opts: DominionOptions = registry.typed(GAME, options)
    return GameConfig(kingdom=opts.kingdom, end_rule=opts.end_rule, tiebreak=opts.tiebreak,
                      cap=opts.cap, solo_provinces=opts.solo, provinces=opts.provinces,
                      curses_per_player=opts.curses_per_player,
                      kingdom_pile=opts.kingdom_pile, hand_size=opts.hand_size).checked()


class DominionGame(registry.Game):
    """Basic cards, Curses, the sources' kingdom cards and the whole base set (2nd
    edition); 2-4 players or solo."""

    name = "dominion"
    summary = "Dominion: base cards, 11 kingdom cards, Big Money family, buy lists, heuristic"
    player_counts = (1, 2, 3, 4)
    objectives = ("win_rate",)
    options_type = DominionOptions  # its fields are the option schema
    default_opponents = ("big-money-ultimate",)
    cli_aliases = {"-k": "--kingdom"}
    genome_options = ("kingdom",)  # a buy list evolved for one kingdom's cards
    has_trainer = True  # the learned player (tabletune train)
    reproductions = {"dominion": "games.dominion.reproduce",  # the sources' tables
                     "dominion-baseset": "games.dominion.reproduce.baseset",  # vs pyminion
                     # the attack kingdom: standard bots and the attack studies' bests
                     "dominion-attack": "games.dominion.reproduce.attack"}
    golden_bots = ("smithy-big-money", "big-money", "heuristic")
    test_options = {"kingdom": "all"}  # every kingdom card the engine plays: every bot plays
    rollout_bot = "big-money"

    def bots(self) -> dict[str, registry.BotInfo]:
        out = {name: registry.BotInfo(name, desc, StrategyParams, detail=text,
                                      aliases=COMMUNITY.get(name, ()))
               for name, (text, desc) in NAMED.items()}  # play order, decisions: tunable
        for name, desc in SPECIAL_BOTS.items():
            out[name] = registry.BotInfo(name, desc,
                                         HeuristicParams if name == "heuristic" else None)
        out[LEARNED] = registry.BotInfo(LEARNED, SPECIAL_BOTS[LEARNED], LearnedPlayParams,
                                        positional=("path",),
                                        example=f"{LEARNED}:reports/dominion-learned/model.npz")
        return out

    def parse_bot(self, text: str) -> BotSpec:
        """A bot name (``heuristic:smithy_share=0.2``) or a buy list in its text form."""
        head, _, rest = text.strip().partition(":")
        head = head.strip().lower()
        if head == LEARNED_GENERAL:  # the committed model of every base-set kingdom
            if rest.strip():
                raise InputError(f"bot {LEARNED_GENERAL!r} takes no parameters here; use "
                                 f"learned:{GENERAL_MODEL} with --param")
            return self.check_bot(BotSpec(LEARNED, {"path": str(GENERAL_MODEL)},
                                          label_text=LEARNED_GENERAL))
        if head == LEARNED:  # learned:PATH (a path may hold ',' or '=': taken whole)
            path = rest.strip()
            if not path:
                raise InputError("bot 'learned' needs a model file: learned:PATH")
            return self.check_bot(BotSpec(LEARNED, {"path": path},
                                          label_text=f"learned:{Path(path).stem}"))
        if registry.find_bot(head, self.bots()) is not None:  # a name or an alias
            return self.check_bot(registry.parse_bot_text(text, self.bots()))
        try:
            return self.check_bot(spec_from_text(text))
        except InputError as exc:
            if ("|" in text or "@" in text or has_sections(text)
                    or "can never apply" in str(exc)):
                raise  # a buy list's own error, not an unknown name
            raise InputError(f"unknown bot {text.strip()!r}; known bots: "
                             f"{', '.join(self.bots())}, or a buy list ({exc})") from None

    def check_bot(self, spec: BotSpec) -> BotSpec:
        build_bot(spec)  # unknown names, parameters, buy-list and model errors fail here
        return spec

    def seats(self, n_bots: int, options: DominionOptions) -> int:
        if options.solo > 0:
            return 1  # every bot plays alone
        if not 2 <= n_bots <= 4:
            raise InputError(f"dominion is played by 2-4 players (or solo), got {n_bots} bots")
        return n_bots

    def settle_options(self, options: DominionOptions, seed: int
                       ) -> tuple[DominionOptions, list[str]]:
        """A ``random`` kingdom drawn with the run's root seed, and a line naming its cards."""
        opts = options
        if not kingdoms.is_random(opts.kingdom):
            return opts, []
        drawn = kingdoms.parse_kingdom(opts.kingdom, seed)
        _, source = kingdoms.random_pool()
        return (dataclasses.replace(opts, kingdom=drawn),
                [f"kingdom random, drawn with seed {seed} from {source}: {', '.join(drawn)}"])

    def releases_gil(self, bots: Sequence[BotSpec], options: DominionOptions) -> bool:
        return True  # every bot, learned ones included, plays inside play.run_games

    def play(self, bots: Sequence[BotSpec], options: Mapping[str, Any], seed: int, start: int,
             count: int, *, rotate: bool = True) -> registry.Outcomes:
        # a plain mapping (a Python caller's) checked first; settled unless the run did
        options = self.settle_options(registry.typed(self, options), seed)[0]
        from games.dominion._match import _play_games  # the kernels: compiled on first use
        return _play_games(list(bots), seed, start, count, players=len(bots), rotate=rotate,
                           config=config_of(options)).outcomes()

    def new_state(self, options: Mapping[str, Any], seed: int, players: int) -> Any:
        """The turn-level API (:mod:`games.dominion._state`): game 0 of the run with root
        ``seed``, every decision a move; a ``random`` kingdom is drawn with ``seed``."""
        from games.dominion._state import DominionState
        opts = self.settle_options(self.check_options(options), seed)[0]
        return DominionState.from_options(opts, seed, players)

    def state_player(self, spec: BotSpec, options: DominionOptions,
                     rng: np.random.Generator) -> Any:
        """Any Dominion bot deciding on a DominionState, move by move, by the same policy as
        in whole games (:mod:`games.dominion._state_player`)."""
        from games.dominion._state_player import state_player
        return state_player(spec, rng)

    def baselines(self, options: DominionOptions,
                  study: registry.StudyTerms = registry.StudyTerms()) -> dict[str, BotSpec]:
        """The untuned heuristic bot and the Big Money family (unless they are opponents)."""
        opponents = set(study.opponents or self.default_opponents)
        out = {"heuristic, default coefficients": BotSpec("heuristic")}
        for name in ("big-money", "smithy-big-money"):
            if name not in opponents:
                out[name] = BotSpec(name)
        return out

    def comparisons(self, options: DominionOptions,
                    study: registry.StudyTerms = registry.StudyTerms()
                    ) -> dict[str, dict[str, Any]]:
        """The best bot against Big Money too (or Big Money Ultimate when that is the pool)."""
        opponents = list(study.opponents or self.default_opponents)
        if opponents == ["big-money"]:
            return {"vs big-money-ultimate": {"opponents": ["big-money-ultimate"]}}
        return {"vs big-money": {"opponents": ["big-money"]}}

    def genome_kinds(self) -> dict[str, Any]:
        from games.dominion._genome import make_kind
        from games.dominion._strategy_genome import make_kind as strategy_kind
        return {"dominion-buylist": make_kind, "dominion-strategy": strategy_kind}

    def report_notes(self, options: DominionOptions, data: Mapping[str, Any],
                     study: registry.StudyTerms = registry.StudyTerms()) -> list[str]:
        opponents = ", ".join(study.opponents or self.default_opponents)
        out = [f"Every row is a win rate against {opponents} (a win scores 1, a shared first "
               "place 1/2, a loss 0; seats alternate game by game): each candidate and "
               "baseline bot takes the candidate's seat; rows named 'best, vs ...' put the "
               "best bot against another opponent instead."]
        best = data.get("best") or {}
        if "mean" in best:
            lo, hi = best["ci95"]
            verdict = ("its 95% interval excludes 50%" if lo > 0.5 or hi < 0.5
                       else "its 95% interval includes 50%")
            out.append(f"Best bot (trial {best.get('trial')}) against {opponents}: "
                       f"{100 * best['mean']:.2f}% (95% CI {100 * lo:.2f}..{100 * hi:.2f}%) "
                       f"over {best.get('games', 0):,} fresh games; {verdict}.")
        for c in data.get("comparisons", []):
            lo, hi = c["ci95"]
            out.append(f"The same bot {c['label']}: {100 * c['mean']:.2f}% (95% CI "
                       f"{100 * lo:.2f}..{100 * hi:.2f}%) over {c.get('games', 0):,} fresh "
                       "games.")
        return out

    def yardstick(self) -> Any:
        """Seed 001's learning agent and the targets in evolution reports."""
        from games.dominion._yardstick import YARDSTICK
        return YARDSTICK

    def trainer(self) -> Any:
        """The learned player's trainer (:mod:`games.dominion.learning.trainer`)."""
        from games.dominion.learning import trainer
        return trainer

    def invariants(self, options: Mapping[str, Any], seed: int, count: int) -> None:
        """Random bots: every game ends or is capped, exactly the VP leaders share or win."""
        opts = self.check_options(options)
        out = self.play([BotSpec("random"), BotSpec("random")], opts, seed, 0, count)
        assert out.turns.min() >= 1
        for vp, res in zip(out.score, out.outcome, strict=True):
            winners = res >= 0
            assert winners.any()
            if not opts.tiebreak:
                assert np.all(vp[winners] == vp.max())


GAME = registry.register(DominionGame())
