"""Splendor against the pretrained AlphaZero of the public repository
cestpasphoto/alpha-zero-general (folder ``splendor/``, MIT licence), with that repository's
engine as referee.

Nothing of that repository is copied here: :mod:`._checkout` imports it at run time from a
checkout the user makes (``benchmarks/splendor_vs_alphazero.py --az PATH``). The other
modules are plain numpy over its documented board layout and need neither its code nor
PyTorch: :mod:`._tables` maps our card and noble ids to its encodings, :mod:`._convert`
turns positions both ways, :mod:`._effects` says what a turn does in either engine,
:mod:`._chooser` makes our players choose among the referee's moves, :mod:`._check`
compares the two engines position by position and :mod:`._match` plays the games.
"""
