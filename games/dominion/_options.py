"""Dominion's typed options, each declared once with its default: what ``[game]`` in a spec
and the flags of `tabletune play dominion` set, and what the game's code reads."""

from __future__ import annotations

from dataclasses import dataclass

from games.core import InputError
from games.dominion import _kingdoms as kingdoms
from games.dominion._kingdoms import parse_kingdom
from games.dominion._layout import END_RULES
from games.options import GameOptions, option


@dataclass(frozen=True, eq=False)
class DominionOptions(GameOptions):
    """The rules of a Dominion match (``DominionGame.check_options`` returns one; its
    kingdom is then card keys, or ``("random",)`` until the run's seed draws it)."""

    kingdom: tuple[str, ...] | str = option(
        "default",
        "comma-separated kingdom cards (at most 10), a preset (default: seed 001's; blog: "
        "seed 004's; the 2nd-edition rulebook's, such as first-game; `--kingdom list` shows "
        "them), none, random (10 cards drawn with the run's seed) or random:N (drawn with "
        "seed N)", kind=object, check=kingdoms.check_kingdom, flag="--kingdom",
        lists=kingdoms.preset_lines)
    end_rule: str = option("standard", "standard (Provinces or 3 piles) or provinces",
                           choices=tuple(END_RULES), rule=True)
    tiebreak: bool = option(True, "a VP tie goes to the player with fewer turns", rule=True)
    cap: int = option(100, "stop a game after this many rounds", low=1, high=10_000)
    solo: int = option(0, "solo mode: one bot alone, turns to this many Provinces (1-8; 0, "
                       "the default, plays a table of 2-4 bots)", low=0, high=8)
    provinces: int = option(0, "a rule: Provinces in the supply (0, the default: 8 with two "
                               "players, 12 with three or four)", low=0, high=40, rule=True)
    curses_per_player: int = option(10, "a rule: Curses in the supply for each player after "
                                        "the first", low=0, high=30, rule=True)
    kingdom_pile: int = option(10, "a rule: cards in each kingdom pile that is not a "
                                   "Victory card", low=1, high=30, rule=True)
    hand_size: int = option(5, "a rule: cards drawn for each hand (at the start and at every "
                               "clean-up)", low=1, high=10, rule=True)

    @property
    def supply_rules(self) -> tuple[int, int, int]:
        """(Provinces, Curses per player, kingdom pile) as
        :func:`games.dominion._cards.initial_supply` takes them."""
        return (self.provinces, self.curses_per_player, self.kingdom_pile)


@dataclass(frozen=True)
class GameConfig:
    """Rules of a batch of games. ``end_rule="provinces"`` ends only on the Province pile
    and ``tiebreak=False`` shares every VP tie (the blog's rules); ``solo_provinces > 0``
    plays one player until it owns that many Provinces."""

    kingdom: tuple[str, ...] | str | None = None
    end_rule: str = "standard"
    tiebreak: bool = True
    cap: int = 100
    solo_provinces: int = 0
    #: supply rules (:func:`games.dominion._cards.initial_supply`): the defaults are the
    #: printed rules
    provinces: int = 0
    curses_per_player: int = 10
    kingdom_pile: int = 10
    #: cards drawn at the start and at every clean-up (five, printed)
    hand_size: int = 5

    def checked(self) -> GameConfig:
        if self.end_rule not in END_RULES:
            raise InputError(f"end rule {self.end_rule!r}: use one of {', '.join(END_RULES)}")
        if self.cap < 1:
            raise InputError("the turn cap must be at least 1")
        if not 1 <= self.hand_size <= 10:
            raise InputError(f"hand size must be 1-10 cards, got {self.hand_size}")
        return GameConfig(parse_kingdom(self.kingdom), self.end_rule, self.tiebreak, self.cap,
                          self.solo_provinces, self.provinces, self.curses_per_player,
                          self.kingdom_pile, self.hand_size)

