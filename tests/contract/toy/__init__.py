"""The toy game's package: its description (``game.py``) and its OpenSpiel parts
(``codec.py``, ``dealer.py``), as a new game's package under ``games/`` would hold them."""
