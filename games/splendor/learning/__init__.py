"""Training the learned Splendor player: a linear value over the features of
:mod:`games.splendor._features`, fitted on (position after a turn, final result) pairs from
parallel self-play and games against a pool of bots, by the game-neutral loop of
`tabletune train`.

Public: :mod:`~games.splendor.learning.trainer`, the trainer that loop drives (the protocol
of :mod:`games.learning`), found through ``SplendorGame.trainer()``. Private: the trainer's
own ``[train]`` keys (``_options``), the value model (``_value``) and the worker tasks that
play a block of games (``_selfplay``). Nothing here imports the tuning layer.
"""
