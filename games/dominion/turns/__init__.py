"""Pieces of Dominion's turn-level game (:mod:`games.dominion.state`): the moves
(:mod:`.moves`), the table of zones and its rules helpers (:mod:`.table`), and the card
effects with their decisions (:mod:`.effects`). Pure Python, written from the printed card
text; independent of the numba engine."""
