"""Ladders: a round robin of bots for any game and table size, with the score matrix,
Bradley-Terry ratings on the Elo scale with bootstrap intervals, and Alpha-Rank
(`tabletune ladder`). Public: :func:`run_ladder`, :class:`LadderRequest`,
:class:`LadderInterrupted`; the ratings in :mod:`tuning.ladder._ratings`."""

from tuning.ladder._runner import LadderInterrupted, LadderRequest, run_ladder

__all__ = ["LadderInterrupted", "LadderRequest", "run_ladder"]
