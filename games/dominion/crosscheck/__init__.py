"""Dominion's base set checked against pyminion, an independent engine (issue 28).

The same named bots (buy lists of the shared grammar, :mod:`games.dominion.buylist`) are
written as pyminion players with the same default decisions, and seeded two-player
match-ups are played in pyminion with seats rotated, scored by our tie rule.

* :mod:`.rules`: the default decisions and the tie rule as plain functions of card keys
  (no pyminion import), so they can be read and tested on their own;
* :mod:`.lineup`: the bots and match-ups of the cross-check (buy lists and kingdoms);
* :mod:`.compare`: score rates with Wilson intervals, the difference of two engines' rates
  with its interval, agreement;
* :mod:`.players`: the pyminion deciders (imports pyminion, through :mod:`._pyminion`);
* :mod:`.runner`: seeded pyminion games of a match-up, returned as
  :class:`games.outcomes.Outcomes` like our own engine's ``play`` (imports pyminion).

pyminion is the optional extra ``crosscheck`` (part of ``dev``); only the modules named as
importing it do, and nothing outside this package imports them at module level.
"""
