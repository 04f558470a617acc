"""The two engines compared position by position: conversion both ways, scores, legal
moves and what each common move does.

Positions come from games our engine plays between our players (random, Greedy, Minimax,
mixed so that full hands, reserves and late games all occur), every position where a turn
begins, until ``count`` are checked. At each:

- the conversion round-trips both ways (our position, the referee's board);
- the referee's score of each player is our points;
- legal moves: every whole turn of ours and every legal referee move, by effect
  (:mod:`._effects`), are the same set but for the rule differences listed in
  :data:`EXPECTED`, each counted; anything else is a mismatch;
- every move legal in both is played in both (the referee's draw put on top of our deck)
  and the positions after compared (:func:`games.splendor.alphazero._match.step`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from games.splendor._players import make_bot
from games.splendor._rules import M_PAID, M_RETURN, O_BANK, O_CUR, O_PHASE, O_PTS, PH_MAIN
from games.splendor._state import SplendorState
from games.splendor.alphazero._checkout import AlphaZero, seed_referee
from games.splendor.alphazero._convert import differences, from_theirs, to_theirs
from games.splendor.alphazero._effects import (
    Effect,
    is_pass,
    our_turns,
    referee_effects,
)
from games.splendor.alphazero._match import LATE_NOBLE, REFEREE_ROUNDS, SEVERAL_NOBLES, step

EXPECTED = {
    "ours only: take gems and give some back in one turn":
        "the referee cannot take gems and give some back in the same turn",
    "ours only: pay gold where coloured tokens would do":
        "the referee pays gold only for what coloured tokens cannot cover",
    "referee only: take fewer different gems than three colours allow":
        "the referee lets a player take 1 or 2 different gems when 3 colours are left",
    "referee only: give back tokens as a whole turn":
        "the referee lets a player give back 1 or 2 tokens as a turn",
    "referee only: pass while other moves are legal":
        "the referee always allows a pass",
    SEVERAL_NOBLES: "the referee gives every noble a buy earns; ours one a turn",
    LATE_NOBLE: "ours lets a noble still earned visit at the end of any later turn; the "
                "referee looks only after a buy",
}
LINE_UPS = (("random", "random"), ("random", "greedy"), ("greedy", "minimax:2"),
            ("greedy2", "random"))


@dataclass
class CheckResult:
    positions: int = 0
    moves_played: int = 0
    counts: Counter = field(default_factory=Counter)
    mismatches: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"positions": self.positions, "moves_played_in_both": self.moves_played,
                "rule_differences": dict(self.counts), "mismatches": self.mismatches[:50],
                "mismatch_count": len(self.mismatches)}


def _ours_only(turn: list[int]) -> str:
    if turn[0] >= M_PAID:
        return "ours only: pay gold where coloured tokens would do"
    if any(M_RETURN <= m < M_RETURN + 6 for m in turn[1:]):
        return "ours only: take gems and give some back in one turn"
    return ""


def _referee_only(effect: Effect, s: np.ndarray) -> str:
    kind, _, delta = effect
    if is_pass(effect):
        return "referee only: pass while other moves are legal"
    if kind == "tokens" and min(delta) < 0:
        return "referee only: give back tokens as a whole turn"
    colours = int((s[O_BANK:O_BANK + 5] > 0).sum())
    if kind == "tokens" and max(delta) == 1 and sum(delta) < min(3, colours):
        return "referee only: take fewer different gems than three colours allow"
    return ""


def check_position(az: AlphaZero, s: np.ndarray, where: str, out: CheckResult,
                   play: bool = True) -> None:
    """Every check of the module text at our position ``s`` (a turn about to begin)."""
    out.positions += 1
    board = to_theirs(s, az.tables)
    back = from_theirs(board, s, az.tables)
    if differences(s, back) or not np.array_equal(to_theirs(back, az.tables), board):
        out.mismatches.append(f"{where}: conversion round trip")
    p = int(s[O_CUR])
    for q in range(2):
        if int(az.game.getScore(board, q)) != int(s[O_PTS + q]):
            out.mismatches.append(f"{where}: score of seat {q}")
    valid = np.asarray(az.game.getValidMoves(board, p))
    theirs = referee_effects(board, valid, p, az.tables)
    ours: dict[Effect, list[int]] = {}
    for turn, effect in our_turns(s):
        ours.setdefault(effect, turn)
        if effect not in theirs:
            why = _ours_only(turn)
            out.counts[why] += bool(why)
            if not why:
                out.mismatches.append(f"{where}: our turn {turn} {effect} not in the referee")
    for effect, action in theirs.items():
        if effect in ours:
            if play:
                _play_both(az, board, p, action, s, ours[effect], where, out)
            continue
        why = _referee_only(effect, s)
        out.counts[why] += bool(why)
        if not why:
            out.mismatches.append(f"{where}: referee move {action} {effect} not in ours")


def _play_both(az: AlphaZero, board: np.ndarray, p: int, action: int, s: np.ndarray,
               turn: list[int], where: str, out: CheckResult) -> None:
    out.moves_played += 1
    seed_referee(out.moves_played)
    _, _, _, diffs, note = step(az, board, p, action, s, turn)
    if note:
        out.counts[note] += 1
    if diffs:
        out.mismatches.append(f"{where}: move {action} / {turn}: {', '.join(diffs)}")


def run_check(az: AlphaZero, count: int, seed: int) -> CheckResult:
    """Check ``count`` positions from our engine's games of the run ``seed``."""
    out = CheckResult()
    game = 0
    while out.positions < count:
        names = LINE_UPS[game % len(LINE_UPS)]
        rng = np.random.default_rng([seed, game])
        bots = [make_bot(n.split(":")[0], {"depth": 2} if ":" in n else None, rng=rng)
                for n in names]
        state = SplendorState.new(2, seed, game, REFEREE_ROUNDS)
        while not state.is_terminal() and out.positions < count:
            if state.array[O_PHASE] == PH_MAIN:
                check_position(az, state.array, f"game {game} round {state.rounds + 1} "
                               f"seat {state.current_player()}", out)
            state.apply(bots[state.current_player()].act(state))
        game += 1
    return out
