"""Dominion's base set checked against pyminion, an independent engine (issue 28).

The same named bots (buy lists of the shared grammar, :mod:`games.dominion._buylist`) are
written as pyminion players with the same default decisions, and seeded two-player
match-ups are played in pyminion with seats rotated, scored by our tie rule.

* :mod:`._rules`: the default decisions and the tie rule as plain functions of card keys
  (no pyminion import), so they can be read and tested on their own;
* :mod:`._lineup`: the bots and match-ups of the cross-check (buy lists and kingdoms);
* :mod:`._compare`: score rates with Wilson intervals, the difference of two engines' rates
  with its interval, agreement;
* :mod:`._players`: the pyminion deciders (imports pyminion, through :mod:`._pyminion`);
* :mod:`._runner`: seeded pyminion games of a match-up, returned as
  :class:`games.outcomes.Outcomes` like our own engine's ``play`` (imports pyminion).

Public (each name loads its module on first use, so importing the package loads no
pyminion): :data:`BOTS`, :data:`MATCHUPS`, :data:`EXTRA_MATCHUPS`, :func:`kingdom_of`
(``_lineup``); :func:`summary`, :func:`side_by_side` (``_compare``); :func:`play`,
:func:`play_one`, :class:`CrossGame`, :func:`big_money_pair` (``_runner``).

pyminion is the optional extra ``crosscheck`` (part of ``dev``); only the modules named as
importing it do, and nothing outside this package imports them at module level.
"""

from typing import TYPE_CHECKING

from games.lazy_exports import lazy_exports

if TYPE_CHECKING:  # what the names are, for type checkers; loaded on first use
    from games.dominion.crosscheck._compare import side_by_side, summary
    from games.dominion.crosscheck._lineup import BOTS, EXTRA_MATCHUPS, MATCHUPS, kingdom_of
    from games.dominion.crosscheck._runner import CrossGame, big_money_pair, play, play_one

#: each public name and the private module that defines it
_EXPORTS = {
    "side_by_side": "_compare",
    "summary": "_compare",
    "BOTS": "_lineup",
    "EXTRA_MATCHUPS": "_lineup",
    "kingdom_of": "_lineup",
    "MATCHUPS": "_lineup",
    "big_money_pair": "_runner",
    "CrossGame": "_runner",
    "play": "_runner",
    "play_one": "_runner",
}
__all__ = [
    "big_money_pair", "BOTS", "CrossGame", "EXTRA_MATCHUPS", "kingdom_of", "MATCHUPS", "play",
    "play_one", "side_by_side", "summary",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
