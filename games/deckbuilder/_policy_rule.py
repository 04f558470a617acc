"""What the DP-optimal policy does, turn by turn, and the buy rule that says it in words.

The optimal policy of a T-turn game is a table over (turn, deck composition, money). Pushing
the starting deck's probability through it gives, for every turn and money bucket, the share
of each action the optimal player takes (:func:`policy_shares`). In the thesis card set those
shares are nearly pure in the turns left alone: each card is bought from one money bucket on,
inside one window of turns left. :func:`rule_from_policy` writes exactly that as an ordered
buy rule (one entry per card: ``CARD@M,left<=A,left>=B``), whose value the exact evaluator
then gives, and :func:`agreement` says how often it takes the optimal action.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from games.core import InputError
from games.deckbuilder._exact import Solution
from games.deckbuilder._rules import BuyRule, RuleEntry


@dataclass(frozen=True)
class PolicyShares:
    """``share[t, b, a]``: probability that turn t's money falls in bucket b and the
    optimal player takes action a (0 = pass, 1 + card index = buy that card)."""

    turns: int
    thresholds: tuple[int, ...]
    cards: tuple[str, ...]
    share: np.ndarray

    def majority(self) -> np.ndarray:
        """Most likely action per (turn, bucket); -1 where the bucket is never reached."""
        top = self.share.argmax(axis=2) - 1
        top[self.share.sum(axis=2) <= 0.0] = -2
        return top


def policy_shares(sol: Solution, floor: float = 1e-9) -> PolicyShares:
    """Exact action shares of the optimal policy per turn and money bucket (states whose
    probability is below ``floor`` are dropped; their mass is at most ``floor`` each)."""
    if not sol.policy or sol.space is None:
        raise InputError("policy shares need a solution that kept its policy")
    cs, space = sol.card_set, sol.space
    g = space.tails(sol.thresholds)
    nb = len(sol.thresholds)
    slot_of = np.array([cs.slot(c) for c in cs.cards], dtype=np.int64)
    share = np.zeros((sol.turns, nb, len(cs.cards) + 1))
    occ = np.zeros(int(space.layer_size[sol.turns]))
    occ[0] = 1.0
    for t in range(sol.turns):
        n = int(space.layer_size[t])
        idx = np.nonzero(occ[:n] > floor)[0]
        p = occ[idx]
        nxt = np.zeros_like(occ)
        for b in range(nb):
            q = p * (g[idx, b] - g[idx, b + 1])
            act = sol.policy[t][idx, b].astype(np.int64)
            share[t, b] = np.bincount(act + 1, weights=q, minlength=len(cs.cards) + 1)
            target = np.where(act < 0, idx, space.succ[idx, slot_of[np.maximum(act, 0)]])
            np.add.at(nxt, target, q)
        occ = nxt
    return PolicyShares(sol.turns, sol.thresholds, tuple(c.name for c in cs.cards), share)


def rule_from_policy(shares: PolicyShares, name: str = "dp-derived") -> BuyRule:
    """The ordered buy rule that reads the optimal policy's majority actions.

    For each card: the lowest money bucket where it is ever the majority action, and the
    window of turns left over which it is the majority there. Entries are listed by money
    threshold, highest first (then dearer card first), so a richer hand tries the cards it
    can afford before the cheaper ones; a bound equal to 1 or T is left out."""
    top = shares.majority()
    turns = shares.turns
    found = []
    for k, card in enumerate(shares.cards):
        hits = np.argwhere(top == k)
        if hits.size == 0:
            continue
        b = int(hits[:, 1].min())
        lefts = turns - hits[hits[:, 1] == b, 0]
        lo, hi = int(lefts.min()), int(lefts.max())
        entry = RuleEntry(card, shares.thresholds[b],
                          left_max=hi if hi < turns else RuleEntry.left_max,
                          left_min=lo if lo > 1 else 0)
        found.append((shares.thresholds[b], k, entry))
    if not found:
        raise InputError("the optimal policy never buys a card; no rule to derive")
    found.sort(key=lambda x: (-x[0], -x[1]))
    return BuyRule(tuple(e for _, _, e in found), name)


def agreement(shares: PolicyShares, rule: BuyRule) -> float:
    """Share of the optimal player's decisions (all turns, as likely as the optimal player
    meets them) on which ``rule`` takes the same action.

    The rule is read per bucket at the bucket's lowest money and without its count limits, so
    this is a summary of the fit, not a value: the exact evaluator gives the value."""
    names = {c: i for i, c in enumerate(shares.cards)}
    hit = total = 0.0
    for t in range(shares.turns):
        left = shares.turns - t
        for b, money in enumerate(shares.thresholds):
            mass = shares.share[t, b].sum()
            if mass <= 0.0:
                continue
            act = -1
            for e in rule.entries:
                if e.left_min <= left <= e.left_max and money >= e.money:
                    act = names[e.card]
                    break
            total += mass
            hit += shares.share[t, b, act + 1]
    return hit / total if total else 0.0
