"""Dominion: a fast engine (numba kernels over integer card-count state), the Big Money
family, the blog's three bots, buy-list bots, a tunable heuristic bot, and matches.

Quick use::

    from games.dominion import BotSpec, run_match
    m = run_match([BotSpec("smithy-big-money"), BotSpec("big-money")], games=10_000, seed=1)
    m.per_bot["smithy-big-money"].score_ci

API for the tuning layer (call it inside workers; arguments are plain picklable data)::

    play_games(bots, seed, start, count, kingdom=None, players=None, *, rotate=True,
               config=None) -> GameResults

* ``bots``: list of ``BotSpec``, one per seat (a mirror lists a bot twice). A spec is
  ``BotSpec("big-money")``, ``BotSpec("heuristic", {"smithy_share": 0.12, ...})`` (names and
  ranges: ``games.core.param_ranges(HeuristicParams)``) or
  ``BotSpec(label, genome="province | gold | smithy:1 | silver")``.
* games ``start .. start+count-1`` of the run with root ``seed``: game i uses seed
  ``games.core.game_seeds(seed, 1, i)`` and seats rotated by ``i % players``, so the same
  indices give the same games in any process (common random numbers across candidates).
* ``kingdom``: comma-separated text or names (default: seed 001's ten cards).
* ``config``: ``GameConfig(end_rule, tiebreak, cap, solo_provinces)``.
* ``GameResults`` rows are games: ``outcome[i, seat]`` (1 win, 0 shared, -1 loss),
  ``seating[i, seat]`` (bot index), ``bot_outcome()`` / ``bot_score()`` per bot
  (``[count, n_bots]``, score 1 / 0.5 / 0), ``vp``, ``turns``, ``plies``, ``capped``.

Buy lists: ``parse_buylist`` / ``format_buylist`` (grammar in ``games.dominion.buylist``);
``BuyList`` is the genome (tuple of ``BuyRule``), text round-trips exactly.
"""

from games.dominion.bots import (
    BotSpec,
    BuyListBot,
    HeuristicBot,
    HeuristicParams,
    bot_names,
    build_bot,
    compile_bots,
    spec_from_text,
)
from games.dominion.buylist import (
    BuyList,
    BuyRule,
    Condition,
    format_buylist,
    parse_buylist,
    simple_buylist,
)
from games.dominion.cards import DEFAULT_KINGDOM, KINGDOM_KEYS, parse_kingdom
from games.dominion.match import (
    GameConfig,
    GameResults,
    play_games,
    play_many,
    play_solo,
    run_match,
    to_match_result,
)

__all__ = [
    "BotSpec", "BuyList", "BuyListBot", "BuyRule", "Condition", "DEFAULT_KINGDOM",
    "GameConfig", "GameResults", "HeuristicBot", "HeuristicParams", "KINGDOM_KEYS",
    "bot_names", "build_bot", "compile_bots", "format_buylist", "parse_buylist",
    "parse_kingdom", "play_games", "play_many", "play_solo", "run_match", "simple_buylist",
    "spec_from_text", "to_match_result",
]
