"""Interop: our games in OpenSpiel (:mod:`games.interop.openspiel`) and PettingZoo
(:mod:`games.interop.pettingzoo`), and OpenSpiel's bots in our matches
(:mod:`games.interop.seats`). Every game with a turn-level State goes through one generic
bridge (:mod:`games.interop.bridge`) plus a little data per game, in the game's own package
(its ``codec`` module: action ids, what a seat sees, a fixed-size observation tensor).
Under OpenSpiel every card drawn unseen is an explicit chance outcome
(:mod:`games.interop.chance`; each game's draws in its package's ``dealer`` module), so a
copied state never carries the real future. Nothing here names a game: each game's parts
are found by presence (:mod:`games.capabilities`).

Nothing here imports ``pyspiel`` or ``pettingzoo`` until the module that needs it is imported.
"""
