"""Interop: our games in OpenSpiel (:mod:`games.interop.openspiel`) and PettingZoo
(:mod:`games.interop.pettingzoo`), and OpenSpiel's bots in our matches
(:mod:`games.interop.bots`). Every game with a turn-level State goes through one generic
bridge (:mod:`games.interop.bridge`) plus a little data per game (:mod:`games.interop.codecs`:
action ids, what a seat sees, a fixed-size observation tensor).

Nothing here imports ``pyspiel`` or ``pettingzoo`` until the module that needs it is imported.
"""
