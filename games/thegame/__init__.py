"""The Game (Benndorf): engine, positional-evaluation players, depth-d search.

Public API: ``play_games`` (cards left per game), ``simulate``/``run`` (summaries),
``PLAYERS`` and ``build_params`` (players and their tunable params), ``legal_plays``.

The package's public surface is what this ``__init__`` names, the description in
``game.py`` (its catalog entry) and the parts found beside it by name (``codec``,
``dealer``); every other module is private (``_name.py``) and may change without notice.
"""

from games.thegame._cache import invalidate_stale_cache

invalidate_stale_cache()  # before any kernel is compiled or loaded

from games.thegame._players import PLAYERS, build_params, encode, player  # noqa: E402
from games.thegame._rules import legal_plays, legal_sequences, minimum_play  # noqa: E402
from games.thegame._simulate import play_block, play_games, run, simulate, summarize  # noqa: E402

__all__ = [
    "PLAYERS", "build_params", "encode", "player", "legal_plays", "legal_sequences",
    "minimum_play", "play_block", "play_games", "run", "simulate", "summarize",
]

#: what the first use of this game's numba kernels costs (games.compiling says it)
FIRST_USE_COMPILE = "about 40-80 s on 2 cores: the depth-d search and the endgame solver"
#: seconds of that first compile on 2 cores, roughly: `python -m games.warm` starts the
#: slowest compilers first
FIRST_USE_SECONDS = 60
