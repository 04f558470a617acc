"""Every game's name, without loading a game unless it must.

Built-in names come from :mod:`games.catalog` and cost nothing. Plug-ins named in
``TABLETUNE_GAMES`` are known only once imported, and games registered directly (a test's)
only by the registry, so then the registry answers. Kept apart from both modules so that
neither imports the other's way back.
"""

from __future__ import annotations

import sys

from games import catalog


def known_names() -> list[str]:
    """Every game name, sorted; imports no built-in game."""
    if not catalog.plugin_modules() and "games.registry" not in sys.modules:
        return sorted(catalog.BUILTIN)
    from games import registry

    return registry.names()
