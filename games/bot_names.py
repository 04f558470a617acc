"""Bot names as players write them: any case, spacing or hyphenation, and the aliases a
game gives its bots (``BotInfo.aliases``), so ``Chapel/Witch``, ``chapel witch`` and
``chapel-witch`` name one bot in every game."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def bot_key(text: str) -> str:
    """A bot name with case, spaces, hyphens and other punctuation dropped, so that
    ``Chapel/Witch``, ``chapel witch`` and ``chapel-witch`` are one name."""
    return "".join(c for c in text.lower() if c.isalnum())


def find_bot(text: str, known: Mapping[str, Any]) -> str | None:
    """The name of the bot of ``known`` that ``text`` names (its name or one of its
    aliases, as :func:`bot_key` reads them); None when it names none. ``known`` maps each
    name to its ``BotInfo`` or to its aliases."""
    name = text.strip().lower()
    if name in known:
        return name
    key = bot_key(name)
    if not key:
        return None
    for bot, info in known.items():
        aliases = info if isinstance(info, tuple | list) else getattr(info, "aliases", ())
        if key == bot_key(bot) or any(key == bot_key(a) for a in aliases):
            return bot
    return None
