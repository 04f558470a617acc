"""An independent plain-Python model of seed 004's three-player game, written from the rules
the post states and its printed code (with only the defects that stop it from running
fixed), to cross-check the numba engine on the blog's table.

    python -m games.dominion.reproduce.dominion_replica [--games 20000] [--seed 2024]

Cards are strings in lists, as in the post: a draw pile popped from the end, a discard pile
shuffled in when the draw pile is empty. Each player plays at most one action card (neither
Smithy nor Steward gives +Actions), then buys one card; the game ends when the twelfth
Province is bought; a VP tie between the leaders is a tie. It shares no code with
``games.dominion``, so agreement between the two says the engine plays the rules the post
describes. The Dominion reproduction (``games.dominion.reproduce``) plays the blog's
seating with both and puts the two rows side by side.
"""

from __future__ import annotations

import argparse
import random

COST = {"Smithy": 4, "Steward": 3}
VALUE = {"Copper": 1, "Silver": 2, "Gold": 3}
POINTS = {"Estate": 1, "Duchy": 3, "Province": 6}
SEATS = (None, "Steward", "Smithy")  # the post's seating: Big Money first


class Player:
    """One deck and its buying rule (None: Big Money; else the action card it buys)."""

    def __init__(self, game: Game, strategy: str | None) -> None:
        self.game, self.strategy, self.rng = game, strategy, game.rng
        self.deck = ["Copper"] * 7 + ["Estate"] * 3
        self.rng.shuffle(self.deck)
        self.discard: list[str] = []

    def draw(self, n: int) -> list[str]:
        out = []
        for _ in range(n):
            if not self.deck:
                if not self.discard:
                    break
                self.deck, self.discard = self.discard, []
                self.rng.shuffle(self.deck)
            out.append(self.deck.pop())
        return out

    def money_cards(self, hand: list[str]) -> int:
        return sum(1 for c in self.deck + self.discard + hand if c in VALUE)

    def steward(self, hand: list[str]) -> int:
        """The post's Steward: trash two Estates/Coppers (keeping five treasures), else +$2
        with $6-7 in hand, else draw two if two cards are left to draw, else +$2."""
        estates, coppers = hand.count("Estate"), hand.count("Copper")
        money = self.money_cards(hand)
        if money - min(coppers, 2) < 5:
            coppers = max(0, min(coppers, money - 5))
        if estates + coppers >= 2:
            e = min(estates, 2)
            for card in ["Estate"] * e + ["Copper"] * min(2 - e, coppers):
                hand.remove(card)
            return 0
        if 6 <= sum(VALUE.get(c, 0) for c in hand) <= 7:
            return 2
        if len(self.deck) + len(self.discard) >= 2:
            hand += self.draw(2)
            return 0
        return 2

    def turn(self) -> None:
        hand = self.draw(5)
        coins = 0
        actions = [c for c in hand if c in COST]
        if actions:
            card = max(actions, key=COST.__getitem__)  # the post: most expensive first
            if card == "Smithy":
                hand += self.draw(3)
            else:
                coins += self.steward(hand)
        self.buy(coins + sum(VALUE.get(c, 0) for c in hand), len(hand))
        self.discard += hand

    def buy(self, coins: int, in_hand: int) -> None:
        action = self.strategy
        domain = len(self.deck) + len(self.discard) + in_hand
        if coins >= 8:
            self.game.provinces -= 1
            self.discard.append("Province")
        elif coins >= 6:
            self.discard.append("Gold")
        elif (action and coins >= COST[action]
              and (self.deck + self.discard).count(action) / domain < 1 / 20):
            self.discard.append(action)
        elif coins >= 3:
            self.discard.append("Silver")

    def points(self) -> int:
        return sum(POINTS.get(c, 0) for c in self.deck + self.discard)


class Game:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.provinces = 12
        self.players = [Player(self, s) for s in SEATS]

    def play(self) -> tuple[int, int]:
        """(winning seat or -1 for a tie, plies // 3 as the post counts turns)."""
        plies = 0
        while self.provinces > 0:
            self.players[plies % 3].turn()
            plies += 1
        vp = [p.points() for p in self.players]
        best = max(vp)
        return (-1 if vp.count(best) > 1 else vp.index(best)), plies // 3


def simulate(games: int, seed: int) -> tuple[list[int], float]:
    """Wins per seat plus ties (last entry), and the mean of plies // 3."""
    rng = random.Random(seed)
    counts = [0, 0, 0, 0]
    turns = 0
    for _ in range(games):
        winner, t = Game(rng).play()
        counts[winner] += 1
        turns += t
    return counts, turns / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()
    counts, turns = simulate(args.games, args.seed)
    shares = " ".join(f"{name} {c / args.games:.3f}" for name, c in
                      zip(("big-money", "steward", "smithy", "ties"), counts, strict=True))
    print(f"{args.games} games, turns {turns:.2f}: {shares}")


if __name__ == "__main__":
    main()
