"""Matches: per-game results for given game indices, and whole matches in this process.

Game ``i`` of a run with root seed ``S`` always uses seed ``game_seeds(S, ., i)`` and the
seating rotated by ``i % players`` (seat k holds bot ``(k + i) % players``), so any split of
the indices over workers gives the same games. :func:`play_games` is what the tuning layer
calls inside its workers; :func:`run_match` aggregates a match into a ``MatchResult``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from games.core import (
    Estimate,
    InputError,
    MatchResult,
    Record,
    game_seeds,
    labels_for,
    seed_blocks,
)
from games.dominion.bots import BotSpec, compile_bots
from games.dominion.cards import initial_supply, parse_kingdom
from games.dominion.engine import END_PROVINCES, END_STANDARD, LP_END_RULE, LP_TIEBREAK
from games.dominion.kernel import new_record, new_state, run_batch

END_RULES = {"standard": END_STANDARD, "provinces": END_PROVINCES}


@dataclass(frozen=True)
class GameConfig:
    """Rules of a batch of games. ``end_rule="provinces"`` ends only on the Province pile
    and ``tiebreak=False`` shares every VP tie (the blog's rules); ``solo_provinces > 0``
    plays one player until it owns that many Provinces."""

    kingdom: tuple[str, ...] | str | None = None
    end_rule: str = "standard"
    tiebreak: bool = True
    cap: int = 100
    solo_provinces: int = 0

    def checked(self) -> GameConfig:
        if self.end_rule not in END_RULES:
            raise InputError(f"end rule {self.end_rule!r}: use one of {', '.join(END_RULES)}")
        if self.cap < 1:
            raise InputError("the turn cap must be at least 1")
        return GameConfig(parse_kingdom(self.kingdom), self.end_rule, self.tiebreak, self.cap,
                          self.solo_provinces)


@dataclass
class GameResults:
    """Per-game arrays for games ``start .. start+count-1`` (row i = game start+i).

    ``seating[i, k]``: index (into the bots list) of the bot in seat k; ``outcome[i, k]``:
    1 win, 0 shared first place, -1 loss for seat k; ``vp[i, k]``; ``turns[i]``: rounds
    played (turns of the first player); ``plies[i]``: turns of all players together;
    ``capped[i]``: the game hit the turn cap.
    """

    start: int
    seating: np.ndarray
    outcome: np.ndarray
    vp: np.ndarray
    turns: np.ndarray
    plies: np.ndarray
    capped: np.ndarray
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # CPU time of the simulations, summed over workers
    extra: dict = field(default_factory=dict)

    @property
    def count(self) -> int:
        return int(self.turns.shape[0])

    def bot_outcome(self) -> np.ndarray:
        """Outcome per bot: ``[count, n_bots]`` (1/0/-1), whichever seat it sat in."""
        out = np.empty_like(self.outcome)
        rows = np.arange(self.count)[:, None]
        out[rows, self.seating] = self.outcome
        return out

    def bot_score(self) -> np.ndarray:
        """Per-game score per bot: 1 win, 0.5 shared first, 0 loss."""
        return (self.bot_outcome().astype(np.float64) + 1.0) / 2.0

    @staticmethod
    def concat(parts: Sequence[GameResults]) -> GameResults:
        parts = sorted(parts, key=lambda r: r.start)
        return GameResults(
            parts[0].start,
            *(np.concatenate([getattr(r, a) for r in parts])
              for a in ("seating", "outcome", "vp", "turns", "plies", "capped")),
            seconds=sum(r.seconds for r in parts),
            cpu_seconds=sum(r.cpu_seconds for r in parts))


def seating_for(start: int, count: int, n_bots: int, rotate: bool = True) -> np.ndarray:
    """Bot index per seat for each game: rotated by the game's index when ``rotate``."""
    g = np.arange(start, start + count, dtype=np.int64)[:, None]
    k = np.arange(n_bots, dtype=np.int64)[None, :]
    return ((k + g) % n_bots if rotate else np.broadcast_to(k, (count, n_bots))).copy()


def play_games(bots: Sequence[BotSpec], seed: int, start: int, count: int,
               kingdom: tuple[str, ...] | str | None = None, players: int | None = None, *,
               rotate: bool = True, config: GameConfig | None = None,
               record_rows: int = 0) -> GameResults:
    """Play games ``start .. start+count-1`` of the run with root ``seed``.

    One bot per seat (``players`` defaults to ``len(bots)``); a mirror lists a bot twice.
    Results depend only on (bots, seed, game index, rules), never on how a run is split.
    ``record_rows > 0`` keeps up to that many training samples of learned bots that record
    (``extra["features"]``: active feature indices, ``extra["meta"]``: game row, seat).
    """
    cfg = config or GameConfig()
    if kingdom is not None:
        cfg = replace(cfg, kingdom=kingdom)
    cfg = cfg.checked()
    n = len(bots)
    players = n if players is None else players
    solo = cfg.solo_provinces > 0
    if solo:
        if n != 1 or players != 1:
            raise InputError("solo games take exactly one bot")
        if not 1 <= cfg.solo_provinces <= 8:
            raise InputError("solo target must be 1-8 Provinces")
    elif not 2 <= players <= 4:
        raise InputError(f"players must be 2-4 (use solo mode for one), got {players}")
    if n != players:
        raise InputError(f"{players} players need {players} bots, got {n}")
    supply = initial_supply(players, cfg.kingdom)
    comp = compile_bots(bots, supply)
    comp.lparams[:, LP_END_RULE] = END_RULES[cfg.end_rule]
    comp.lparams[:, LP_TIEBREAK] = 1.0 if cfg.tiebreak else 0.0
    seeds = game_seeds(seed, count, start)
    seating = seating_for(start, count, n, rotate)
    outcome = np.zeros((count, players), dtype=np.int8)
    vp = np.zeros((count, players), dtype=np.int64)
    turns = np.zeros(count, dtype=np.int64)
    plies = np.zeros(count, dtype=np.int64)
    capped = np.zeros(count, dtype=np.bool_)
    rec = new_record(record_rows)
    t0, c0 = time.perf_counter(), time.process_time()
    run_batch(seeds, seating, comp.rules, comp.nrules, comp.amode, comp.bmode, comp.fparams,
              comp.weights, comp.lparams, supply, END_RULES[cfg.end_rule], cfg.tiebreak,
              cfg.cap, cfg.solo_provinces, outcome, vp, turns, plies, capped,
              *new_state(players, supply), *rec)
    extra = {}
    if record_rows > 0:
        n = int(rec[2][0])
        extra = {"features": rec[0][:n], "meta": rec[1][:n]}
    return GameResults(start, seating, outcome, vp, turns, plies, capped,
                       seconds=time.perf_counter() - t0, cpu_seconds=time.process_time() - c0,
                       extra=extra)


def play_solo(bot: BotSpec, seed: int, start: int, count: int, provinces: int = 4,
              kingdom: tuple[str, ...] | str | None = None, cap: int = 100) -> GameResults:
    """One player until it owns ``provinces`` Provinces; ``turns`` is the turns it took."""
    cfg = GameConfig(kingdom=kingdom, cap=cap, solo_provinces=provinces)
    return play_games([bot], seed, start, count, players=1, config=cfg)


def play_many(bots: Sequence[BotSpec], games: int, seed: int = 0,
              players: int | None = None, rotate: bool = True,
              config: GameConfig | None = None, block: int | None = None) -> GameResults:
    """All games of a run in this process, block by block (a run over worker processes goes
    through ``tuning.evaluation``; the games are the same)."""
    if games < 1:
        raise InputError("the number of games must be at least 1")
    t0 = time.perf_counter()
    parts = [play_games(bots, seed, s, c, players=players, rotate=rotate, config=config)
             for s, c in seed_blocks(games, block or games)]
    res = GameResults.concat(parts)
    res.seconds = time.perf_counter() - t0
    return res


def to_match_result(bots: Sequence[BotSpec], res: GameResults) -> MatchResult:
    """Aggregate per-game arrays into wins/ties/losses per bot and per seat."""
    labels = labels_for(bots)
    m = MatchResult(labels)
    for b, name in enumerate(labels):
        for k in range(res.outcome.shape[1]):
            o = res.outcome[:, k][res.seating[:, k] == b]
            rec = Record(int((o == 1).sum()), int((o == 0).sum()), int((o == -1).sum()))
            m.per_seat[name][k] = rec
            m.per_bot[name].add(rec)
    m.games = res.count
    m.total_turns = float(res.turns.sum())
    m.capped_games = int(res.capped.sum())
    m.seconds = res.seconds
    m.extra["turns"] = Estimate.from_samples(res.turns).to_dict()
    m.extra["mean_plies"] = float(res.plies.mean())
    m.extra["tied_games"] = int((res.outcome == 0).any(axis=1).sum())
    return m


def run_match(bots: Sequence[BotSpec], games: int, seed: int = 0,
              players: int | None = None, rotate: bool = True,
              config: GameConfig | None = None) -> MatchResult:
    """N games between the bots in this process, seats rotated, as a ``MatchResult``."""
    return to_match_result(bots, play_many(bots, games, seed, players, rotate, config))
