"""Training the learned Dominion player: value models over the engine's features, fitted
on (features after a buy, final reward) pairs from parallel self-play and pool play.

- :mod:`~games.dominion.learning.trainer`: the trainer that `tabletune train` drives (the
  protocol of :mod:`games.learning`), found through ``DominionGame.trainer()``;
- :mod:`~games.dominion.learning._options`: the player's own keys of a ``[train]`` table;
- :mod:`~games.dominion.learning._estimators`: the linear value models (SGD, ridge, seed
  001's average-reward rule);
- :mod:`~games.dominion.learning._selfplay`: the worker tasks that play a block of games;
- :mod:`~games.dominion.learning.explain` and :mod:`~games.dominion.learning.compare`:
  what a model values and buys, and the estimators compared offline (``python -m``).

Nothing here imports the tuning layer.
"""
