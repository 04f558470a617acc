"""Splendor's reproductions of the Reed thesis's tables (seed 003), registered in
:attr:`games.splendor.game.SplendorGame.reproductions`: ``splendor`` (:mod:`.thesis`, the
search players) and ``splendor-genetic`` (:mod:`.genetic`, the online genetic players). Their
line-ups are data (thesis.toml, genetic.toml) played by :mod:`games.reproduction_table`."""
