"""Which games exist, by name, without importing any of them.

Each built-in game is known here by its name and the module whose import registers its
description (like an entry point): :mod:`games.registry` imports that module only when the
game is asked for, so a command that plays Dominion never loads the other games' kernels;
:func:`games.names.known_names` lists the names without loading any game. Plain Python,
no numpy: the command line reads it at start.

A new game adds one line to :data:`BUILTIN`; a plug-in names its module in the
``TABLETUNE_GAMES`` environment variable instead (see :mod:`games.registry`).
"""

from __future__ import annotations

import os

#: game name -> the module whose import registers it (the one line a new game adds)
BUILTIN: dict[str, str] = {
    "deckbuilder": "games.deckbuilder.game",
    "dominion": "games.dominion.game",
    "thegame": "games.thegame.game",
    "splendor": "games.splendor.game",
}


def plugin_modules() -> list[str]:
    """Modules named in ``TABLETUNE_GAMES`` (dotted names or ``.py`` paths), in order."""
    return [m.strip() for m in os.environ.get("TABLETUNE_GAMES", "").split(",") if m.strip()]
