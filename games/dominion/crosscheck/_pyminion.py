"""pyminion, imported in one place with its side effect undone: importing it sets the root
logger's level to INFO, which would make every later ``logging.info`` anywhere in the
process emit (and slow pyminion itself down). The rest of the package imports pyminion's
names from here."""

from __future__ import annotations

import logging

_root = logging.getLogger()
_level = _root.level
from pyminion.bots.bot import BotDecider  # noqa: E402
from pyminion.bots.examples import BigMoney  # noqa: E402
from pyminion.core import Card, CardType, Deck, Pile  # noqa: E402
from pyminion.expansions import base  # noqa: E402
from pyminion.game import Game  # noqa: E402
from pyminion.player import Player  # noqa: E402

_root.setLevel(_level)

__all__ = ["BigMoney", "BotDecider", "Card", "CardType", "Deck", "Game", "Pile", "Player", "base"]
