"""The contract suite runs over every registered game, plus a toy game defined here."""

from __future__ import annotations

import os
from pathlib import Path

TOY = str(Path(__file__).resolve().parent / "toy" / "game.py")  # the toy game's package

# set before collection, so the parametrisation lists the toy game and worker processes
# started by the suite import it too
_games = [g for g in os.environ.get("TABLETUNE_GAMES", "").split(",") if g]
if TOY not in _games:
    os.environ["TABLETUNE_GAMES"] = ",".join([*_games, TOY])
