"""Interop: our games in OpenSpiel (:mod:`games.interop.openspiel`) and PettingZoo
(:mod:`games.interop.pettingzoo`), and OpenSpiel's bots in our matches
(:mod:`games.interop.bots`). Every game with a turn-level State goes through one generic
bridge (:mod:`games.interop.bridge`) plus a little data per game (:mod:`games.interop.codecs`:
action ids, what a seat sees, a fixed-size observation tensor). Under OpenSpiel every card
drawn unseen is an explicit chance outcome (:mod:`games.interop.chance`; each game's draws
in its package's ``dealer`` module), so a copied state never carries the real future.

Nothing here imports ``pyspiel`` or ``pettingzoo`` until the module that needs it is imported.
"""
