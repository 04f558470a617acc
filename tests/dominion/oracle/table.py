"""The oracle's table (an independent pure-Python Dominion, kept to check the rule machine):
the table of a turn-level Dominion game: supply, every player's zones, the turn's
counters and the pending steps, with the rules helpers that card effects share (draw,
reveal, gain, trash, scoring, the end of the game).

Zones are plain lists of card indices (:mod:`games.dominion._cards`); the top of a draw pile
and of a discard pile is the end of its list. Set-up follows the printed rules: 7 Copper and
3 Estate each; Copper 60 - 7 per player, Silver 40, Gold 30; Estate, Duchy, Province and
victory kingdom piles 8 with one or two players, 12 with three or four; other kingdom piles
10; Curse 10 per opponent (a solo game has no Curse pile, as the engine deals it).

Randomness is the engine's: a SplitMix64 stream seeded with the game's seed, written here
again in plain Python; a shuffle puts the discard pile in card order and shuffles it by
Fisher-Yates from the last card down, so the oracle deals exactly as the engine does.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.dominion._cards import (
    CARDS,
    COPPER,
    CURSE,
    DUCHY,
    ESTATE,
    GARDENS,
    GOLD,
    NC,
    PROVINCE,
    SILVER,
)

#: where a gained card goes
TO_DISCARD, TO_HAND, TO_DECK = 0, 1, 2
#: turn phases (when no card is being resolved)
ACTION, BUY, BOUGHT = 0, 1, 2
VP = tuple(c.vp for c in CARDS)
COST = tuple(c.cost for c in CARDS)
IS_ACTION = tuple(c.action for c in CARDS)
IS_TREASURE = tuple(c.treasure for c in CARDS)
IS_VICTORY = tuple(c.victory for c in CARDS)


MASK = (1 << 64) - 1


class SplitMix:
    """The engine's stream (:mod:`games.rng`) in plain Python: a 64-bit counter."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), by the engine's 53-bit float method."""
        return int(float(self.next() >> 11) * (1.0 / 9007199254740992.0) * n)


def start_supply(players: int, kingdom: Sequence[int]) -> list[int]:
    """Pile sizes before the starting decks are dealt (-1: not in this game)."""
    victory = 8 if players <= 2 else 12
    supply = [-1] * NC
    supply[COPPER], supply[SILVER], supply[GOLD] = 60 - 7 * players, 40, 30
    supply[ESTATE] = supply[DUCHY] = supply[PROVINCE] = victory
    if players > 1:
        supply[CURSE] = 10 * (players - 1)
    for c in kingdom:
        supply[c] = victory if IS_VICTORY[c] else 10
    return supply


class Table:
    """Everything on the table; :class:`games.dominion._state.DominionState` adds the
    turn-level protocol. ``stack`` holds the steps still to resolve (last = next)."""

    n: int
    kingdom: tuple[int, ...]
    piles: tuple[int, ...]  # the cards with a supply pile in this game
    end_rule: str
    tiebreak: bool
    cap: int
    solo: int
    supply: list[int]
    deck: list[list[int]]
    hand: list[list[int]]
    discard: list[list[int]]
    play: list[list[int]]
    aside: list[list[int]]
    looking: list[list[int]]
    trash: list[int]
    turns: list[int]
    active: int
    phase: int
    actions: int
    buys: int
    coins: int
    merchants: int
    silver_played: bool
    stack: list[tuple]
    immune: list[bool]
    done: bool
    capped: bool
    rng: SplitMix

    _ZONES = ("deck", "hand", "discard", "play", "aside", "looking")
    _SCALARS = ("n", "kingdom", "piles", "end_rule", "tiebreak", "cap", "solo", "active",
                "phase", "actions", "buys", "coins", "merchants", "silver_played", "done",
                "capped")

    def rng_state(self) -> int:
        """The state of the game's stream."""
        return self.rng.state

    def copy_table_into(self, other: Table) -> None:
        """Copy every field into ``other``: zones as new lists, the rng as a snapshot."""
        other.__dict__.update(self.__dict__)
        other.deck, other.hand = [list(z) for z in self.deck], [list(z) for z in self.hand]
        other.discard, other.play = [list(z) for z in self.discard], \
            [list(z) for z in self.play]
        other.aside, other.looking = [list(z) for z in self.aside], \
            [list(z) for z in self.looking]
        other.supply, other.trash, other.turns = list(self.supply), list(self.trash), \
            list(self.turns)
        other.stack, other.immune = list(self.stack), list(self.immune)
        other.rng = SplitMix(self.rng.state)

    # ---- moving cards
    def _refill(self, p: int) -> bool:
        """Shuffle the discard pile into an empty draw pile; False when both are empty."""
        if self.deck[p]:
            return True
        if not self.discard[p]:
            return False
        pile = self.discard[p]
        self.discard[p] = []
        deck = sorted(pile)
        for i in range(len(deck) - 1, 0, -1):
            j = self.rng.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        self.deck[p] = deck
        return True

    def top(self, p: int) -> int:
        """Take the top card of ``p``'s draw pile (shuffling if needed); -1 if none."""
        return self.deck[p].pop() if self._refill(p) else -1

    def draw(self, p: int, k: int) -> None:
        """``p`` draws up to ``k`` cards into hand."""
        for _ in range(k):
            c = self.top(p)
            if c < 0:
                return
            self.hand[p].append(c)

    def gain(self, p: int, c: int, where: int = TO_DISCARD) -> bool:
        """``p`` gains ``c`` from the supply (False if its pile is empty or absent)."""
        if self.supply[c] <= 0:
            return False
        self.supply[c] -= 1
        (self.discard, self.hand, self.deck)[where][p].append(c)
        return True

    def from_hand(self, p: int, c: int, zone: list[int]) -> None:
        """Move one ``c`` from ``p``'s hand onto ``zone`` (discard, trash, deck...)."""
        self.hand[p].remove(c)
        zone.append(c)

    # ---- reading the table
    def others(self, p: int) -> list[int]:
        """The other players in turn order, starting left of ``p``."""
        return [(p + k) % self.n for k in range(1, self.n)]

    def owned(self, p: int) -> list[int]:
        """Count per card of everything ``p`` owns."""
        out = [0] * NC
        for name in self._ZONES:
            for c in getattr(self, name)[p]:
                out[c] += 1
        return out

    def victory_points(self, p: int) -> int:
        """VP of ``p``'s cards; each Gardens is worth 1 per whole 10 cards owned."""
        counts = self.owned(p)
        total = sum(VP[c] * k for c, k in enumerate(counts) if k)
        return total + counts[GARDENS] * (sum(counts) // 10)

    def empty_piles(self) -> int:
        """Supply piles of this game that are empty (the Curse pile included)."""
        return sum(1 for k in self.supply if k == 0)

    def game_ends(self) -> bool:
        """After a turn: Provinces gone, or (standard rule) three supply piles empty; in a
        solo game with a target, the player owns that many Provinces."""
        if self.solo and self.owned(0)[PROVINCE] >= self.solo:
            return True
        if self.supply[PROVINCE] == 0:
            return True
        return self.end_rule == "standard" and self.empty_piles() >= 3

    def winners(self) -> list[int]:
        """Seats with the most VP (a tie to fewer turns when ``tiebreak``)."""
        vp = [self.victory_points(p) for p in range(self.n)]
        best = [p for p in range(self.n) if vp[p] == max(vp)]
        if self.tiebreak and len(best) > 1:
            fewest = min(self.turns[p] for p in best)
            best = [p for p in best if self.turns[p] == fewest]
        return best
