"""The ``[balance]`` table of a balance study (``optimizer = "balance"``): which bots play,
and the target the game's rules are tuned towards.

Two kinds of target:

- ``target = 0.5`` (the default): the first seat's score (a win 1, a tie 1/2) in games of
  ``bots`` with seats rotated; a trial's value is its distance from the target. In a
  one-seat game (a solo or cooperative table) ``bots`` is one bot and the score its win
  rate: the rules are tuned to a difficulty.
- ``matrix = [[...], ...]``: the score of each bot of ``bots`` against each other one (row
  against column, two seats, rotated); a trial's value is the root mean square of its
  distances from the matrix (the diagonal is not played).

``elsewhere`` names further line-ups (bot texts, comma-separated) that the report plays
under the printed rules and the tuned ones: what the change costs beyond its target.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import InputError
from tuning._spec_checks import check_known_keys, check_number, check_table, fail

__all__ = ["BalanceSpec", "parse_balance"]

_KEYS = ("bots", "target", "matrix", "elsewhere")


@dataclass(frozen=True)
class BalanceSpec:
    """A balance study's line-up and target, each setting declared once with its default."""

    #: the bots at the table (first-seat target) or the bots of the matrix
    bots: tuple[str, ...] = ()
    #: the first seat's score aimed at
    target: float = 0.5
    #: row bot's score against column bot aimed at (None: the first-seat target)
    matrix: tuple[tuple[float, ...], ...] | None = None
    #: line-ups the report plays under both rules, each a tuple of bot texts
    elsewhere: tuple[tuple[str, ...], ...] = ()

    @property
    def kind(self) -> str:
        return "first_seat" if self.matrix is None else "matrix"


def _score(where: str, key: str, value: Any) -> float:
    number = check_number(where, key, value)
    if not 0.0 <= number <= 1.0:
        raise fail(where, key, f"a score lies in [0, 1] (a win 1, a tie 1/2), got {number:g}")
    return number


def parse_balance(where: str, raw: Any, check_bot: Any, solo: bool = False) -> BalanceSpec:
    """The checked ``[balance]`` table (``check_bot(text)`` refuses an unknown bot;
    ``solo``: the game seats one bot, whose win rate is then the first seat's score)."""
    table = check_table(where, "balance", raw)
    check_known_keys(where, "balance", table, _KEYS)
    bots = table.get("bots")
    if not isinstance(bots, list) or not bots or not all(
            isinstance(b, str) and b.strip() for b in bots):
        raise fail(where, "balance.bots", "expected a list of bot texts, such as "
                   '["big-money", "big-money"] (one bot: a one-seat game\'s table)')
    if len(bots) < 2 and (not solo or "matrix" in table):
        raise fail(where, "balance.bots", "expected at least two bot texts: one bot is a "
                   "table only in a one-seat game, and a matrix needs two")
    for i, text in enumerate(bots):
        try:
            check_bot(text)
        except InputError as exc:
            raise fail(where, f"balance.bots[{i}]", str(exc)) from None
    target = _score(where, "balance.target", table.get("target", BalanceSpec.target))
    matrix = None
    if "matrix" in table:
        rows = table["matrix"]
        n = len(bots)
        if not isinstance(rows, list) or len(rows) != n or not all(
                isinstance(r, list) and len(r) == n for r in rows):
            raise fail(where, "balance.matrix", f"expected {n} rows of {n} scores (one row "
                       "and one column per bot of balance.bots)")
        matrix = tuple(tuple(_score(where, f"balance.matrix[{i}][{j}]", v)
                             for j, v in enumerate(r)) for i, r in enumerate(rows))
        if "target" in table:
            raise fail(where, "balance.target", "give a target or a matrix, not both")
    elsewhere = []
    for i, text in enumerate(table.get("elsewhere", [])):
        if not isinstance(text, str) or not text.strip():
            raise fail(where, f"balance.elsewhere[{i}]", "expected a line-up of bot texts "
                       'separated by commas, such as "smithy-big-money,big-money" (one bot '
                       "for a game of one seat)")
        line_up = tuple(t.strip() for t in text.split(","))
        for bot in line_up:
            try:
                check_bot(bot)
            except InputError as exc:
                raise fail(where, f"balance.elsewhere[{i}]", str(exc)) from None
        elsewhere.append(line_up)
    return BalanceSpec(tuple(b.strip() for b in bots), target, matrix, tuple(elsewhere))
