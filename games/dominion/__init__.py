"""Dominion: a fast engine (one rule machine in numba over integer card-count state,
:mod:`games.dominion._rules`, that whole games and the turn-level State both play), the Big Money
family, the blog's three bots, buy-list bots, a tunable heuristic bot, and its reproduction
of the sources' tables (:mod:`games.dominion.reproduce`).

Quick use, through the one entry point every game has::

    from games import registry
    from games.core import BotSpec
    game = registry.get("dominion")
    out = game.play([BotSpec("smithy-big-money"), BotSpec("big-money")],
                    game.check_options({}), seed=1, start=0, count=10_000)
    out.bot_result()[:, 0].mean()   # Smithy Big Money's score (wins + ties/2)

``play(bots, options, seed, start, count, *, rotate=True) -> games.outcomes.Outcomes``:

* ``bots``: list of ``BotSpec``, one per seat (a mirror lists a bot twice). A spec is
  ``BotSpec("big-money")``, ``BotSpec("heuristic", {"smithy_share": 0.12, ...})`` (names and
  ranges: ``games.core.param_ranges(HeuristicParams)``) or
  ``BotSpec(label, genome="province | gold | smithy:1 | silver")``.
* games ``start .. start+count-1`` of the run with root ``seed``: game i uses seed
  ``games.core.game_seeds(seed, 1, i)`` and seats rotated by ``i % players``, so the same
  indices give the same games in any process (common random numbers across candidates);
  :func:`games.blocks.map_blocks` spreads blocks of them over a worker pool.
* ``options``: checked options (``game.check_options``): kingdom, end_rule, tiebreak,
  cap, solo.
* ``Outcomes`` rows are games: ``outcome[i, seat]`` (1 win, 0 shared, -1 loss),
  ``seating[i, seat]`` (bot index), ``bot_outcome()`` / ``bot_result()`` per bot
  (``[count, n_bots]``, result 1 / 0.5 / 0), ``score`` (VP), ``turns``, ``capped``, and
  ``extra["plies"]`` (turns of all players together).

That is the one way to play Dominion; the kernel call beneath it
(``games.dominion._match._play_games``) is the engine's, not a second results type.

Buy lists: ``parse_buylist`` / ``format_buylist`` (grammar in ``games.dominion._buylist``);
``BuyList`` is the genome (tuple of ``BuyRule``), text round-trips exactly.

The package's public surface is what this ``__init__`` names, the description in
``game.py`` (its catalog entry) and the parts found beside it by name (``codec``,
``dealer``, ``board``); every other module is private (``_name.py``) and may change without
notice.
"""

from games.dominion._bots import (
    BotSpec,
    BuyListBot,
    HeuristicBot,
    HeuristicParams,
    bot_names,
    build_bot,
    compile_bots,
    spec_from_text,
)
from games.dominion._buylist import (
    BuyList,
    BuyRule,
    Condition,
    format_buylist,
    parse_buylist,
    simple_buylist,
)
from games.dominion._cards import DEFAULT_KINGDOM, KINGDOM_KEYS
from games.dominion._kingdoms import parse_kingdom
from games.dominion._options import GameConfig

__all__ = [
    "BotSpec", "BuyList", "BuyListBot", "BuyRule", "Condition", "DEFAULT_KINGDOM",
    "GameConfig", "HeuristicBot", "HeuristicParams", "KINGDOM_KEYS",
    "bot_names", "build_bot", "compile_bots", "format_buylist", "parse_buylist",
    "parse_kingdom", "simple_buylist", "spec_from_text",
]

#: what the first use of this game's numba kernels costs (games.compiling says it)
FIRST_USE_COMPILE = "about 40-60 s on 2 cores"
#: seconds of that first compile on 2 cores, roughly: `python -m games.warm` starts the
#: slowest compilers first
FIRST_USE_SECONDS = 45
