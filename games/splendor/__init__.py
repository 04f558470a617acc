"""Splendor (Reed thesis, seed 003): checked card data, full rules for 2-4 players over a
compact int array, a numba batch kernel, the turn-level :class:`SplendorState`, the
random / Greedy / Minimax / RandomSearch players with the thesis's heuristic terms, and the
online genetic players IndexMove / ExactMove / BuyOrder / BuyAndDeny (a DEAP evolution
every move over numba-simulated plans: ``_plans``, ``_evolve``, ``_genetic``, ``_online``).

Public API: ``SplendorState`` (turn-level state), ``make_bot`` (bots that play it),
``Heuristic``, ``AllEval``, ``AllEval2`` (F's weights; ``ALL_EVAL``/``ALL_EVAL2`` their
default instances), ``trace_game`` (watch one game);
the registry description is ``games.splendor.game.SplendorGame``.

The package's public surface is what this ``__init__`` names, the description in
``game.py`` (its catalog entry) and the parts found beside it by name (``codec``,
``dealer``); every other module is private (``_name.py``) and may change without notice.
"""

from games.splendor._cache import invalidate_stale_cache

invalidate_stale_cache()  # before any kernel is compiled or loaded

from games.splendor._heuristics import ALL_EVAL, ALL_EVAL2, AllEval, AllEval2, Heuristic  # noqa: E402,E501
from games.splendor._players import make_bot  # noqa: E402
from games.splendor._state import SplendorState  # noqa: E402
from games.splendor._trace import trace_game  # noqa: E402

__all__ = ["ALL_EVAL", "ALL_EVAL2", "AllEval", "AllEval2", "Heuristic", "SplendorState",
           "make_bot", "trace_game"]

#: what the first use of this game's numba kernels costs (games.compiling says it)
FIRST_USE_COMPILE = "about 30-60 s on 2 cores"
#: seconds of that first compile on 2 cores, roughly: `python -m games.warm` starts the
#: slowest compilers first
FIRST_USE_SECONDS = 45
