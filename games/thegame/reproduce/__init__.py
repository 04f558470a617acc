"""The Game's reproductions, registered in its description (``TheGame.reproductions``).

``tables``: seed 002's tables (`tabletune reproduce thegame`, reports/thegame);
``d2_weights``: penalty weights tuned at d = 0 replayed at d = 2 on the same deals
(`tabletune reproduce thegame-d2-weights`, reports/thegame-penalty-d2/d0-weights). Both
follow the protocol of :mod:`games.reproduction` and play on the run's pool
(``settings.pool``), so they never import the tuning layer.
"""
