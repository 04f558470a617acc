"""What Dominion's board optimiser needs to know of the game (the ``board`` part:
:data:`BOARD`, used by :mod:`tuning._board`): which kingdom a board is, the bots a found
strategy must beat there (the ladder), the strategies a search starts from, and the genome
it evolves.

A board is ten base-set kingdom cards (a list, a preset such as ``attack``, or
``random:N``). Its ladder: Big Money, Big Money Ultimate, every named community bot whose
cards the kingdom holds, and Double Witch and Double Witch Ultimate where Witch is on the
board. The search evolves the ``dominion-strategy`` genome (buy list, play order, the
kingdom's decision settings) seeded from Big Money Ultimate and from every community bot
that fits and that the genome can say; community bots it cannot say (a gain list) are tried
as they are beside the evolved ones.
"""

from __future__ import annotations

from typing import Any

from games.core import InputError
from games.dominion._cards import BASE_SET_KEYS, CARDS, INDEX
from games.dominion._kingdoms import parse_kingdom
from games.dominion._named_bots import NAMED
from games.dominion._strategy import parse_strategy

#: bots every ladder holds, and those it holds where Witch is on the board
ALWAYS = ("big-money", "big-money-ultimate")
WITCH = ("double-witch", "double-witch-ultimate")
#: the base set's cards that gain a card of the player's choice (what a gain list decides)
GAINERS = ("workshop", "artisan", "remodel", "mine")
#: named bots that are the sources' own (their buy lists repeat Big Money's) or need cards
#: of the sources' set: never on a base-set ladder
NOT_COMMUNITY = ("blog-big-money", "blog-smithy", "blog-steward")


class DominionBoard:
    """The ``board`` part of Dominion (see the module text)."""

    genome = "dominion-strategy"
    #: what a board is called in commands and reports
    noun = "kingdom"

    def board(self, text: str) -> tuple[str, ...]:
        """The kingdom a board text names: exactly ten base-set kingdom cards."""
        if not text or not text.strip():
            raise InputError("--kingdom is required: ten base-set cards (comma-separated), "
                             "a preset such as attack, or random:N")
        if text.strip().lower() == "random":
            raise InputError("kingdom random is drawn with a seed; give random:N (e.g. "
                             "random:7) so that the same board can be found again")
        cards = parse_kingdom(text)
        if len(cards) != 10:
            raise InputError(f"a board is ten kingdom cards; {text.strip()!r} has "
                             f"{len(cards)}")
        foreign = [k for k in cards if k not in BASE_SET_KEYS]
        if foreign:
            raise InputError(f"a board is ten base-set cards; {', '.join(foreign)} "
                             f"{'is' if len(foreign) == 1 else 'are'} not of the base set")
        return tuple(sorted(cards, key=INDEX.__getitem__))

    def slug(self, board: tuple[str, ...]) -> str:
        """The board's name in paths: its cards in card order, joined by ``+``."""
        return "+".join(board)

    def game_options(self, board: tuple[str, ...]) -> dict[str, Any]:
        return {"kingdom": ",".join(board)}

    def fits(self, board: tuple[str, ...], text: str) -> bool:
        """Whether every kingdom card a strategy buys, gains or plays is on the board."""
        need = {k for k in parse_strategy(text).cards if CARDS[INDEX[k]].kingdom}
        return need <= set(board)

    def community(self, board: tuple[str, ...]) -> list[str]:
        """The named community bots whose cards the board holds (Big Money's family
        included), by name."""
        return [name for name, (text, _) in NAMED.items()
                if name not in NOT_COMMUNITY and self.fits(board, text)]

    def ladder(self, board: tuple[str, ...]) -> list[str]:
        """The bots a found strategy is confirmed against, by name."""
        out = list(ALWAYS)
        out += [b for b in self.community(board) if b not in out and b not in WITCH]
        if "witch" in board:
            out += list(WITCH)
        return out

    def candidates(self, board: tuple[str, ...]) -> list[str]:
        """Whole strategies tried as they are: the fitting community bots' texts."""
        return [NAMED[name][0] for name in self.community(board)]

    def seeds(self, board: tuple[str, ...]) -> list[str]:
        """The search's first strategies: Big Money Ultimate and every candidate the genome
        can say (no gain list), in the genome's menu form (:func:`menu_form`)."""
        from games.dominion._strategy_genome import DominionStrategy

        kind = DominionStrategy({"kingdom": ",".join(board), **self._genome(board)})
        out: list[str] = []
        for text in [NAMED["big-money-ultimate"][0], *self.candidates(board)]:
            menu = menu_form(text)
            if menu is None or menu in out:
                continue
            try:
                kind.from_text(menu)  # a card the genome never buys (Copper) leaves it out
            except InputError:
                continue
            out.append(menu)
        return out

    @staticmethod
    def _genome(board: tuple[str, ...]) -> dict[str, Any]:
        """The genome's size; a gain list is evolved where a card of the board gains one."""
        gains = bool(set(board) & set(GAINERS))
        return {"max_entries": 9, "max_limit": 8, "max_play": 2, "max_gain": 4 if gains else 0}

    def genome_options(self, board: tuple[str, ...]) -> dict[str, Any]:
        return {"kind": self.genome, **self._genome(board), "hall_of_fame_opponents": 0,
                "seed_genomes": self.seeds(board)}

    def describe(self, text: str) -> dict[str, Any]:
        """A strategy in words: its buy list, gain list, play order and settings."""
        s = parse_strategy(text)
        from games.dominion._buylist import format_buylist
        return {"buy list": format_buylist(s.buylist),
                "gain list": format_buylist(s.gain) if s.gain.rules
                else "as the buy list",
                "play order": " > ".join(s.play) or "the default order",
                "settings": ", ".join(f"{k}={v:g}" for k, v in s.decisions) or "defaults"}

    def opening(self, board: tuple[str, ...], text: str, games: int = 400) -> str:
        """What the strategy buys with its first two hands, by their coins (5/2 or 4/3: the
        larger hand first), the commonest pair of each split over ``games`` seeded deals
        against Big Money, with its share."""
        import numpy as np

        from games.core import BotSpec
        from games.dominion._cards import COPPER
        from games.dominion._state import DominionState
        from games.dominion._state_player import PolicyPlayer

        me = PolicyPlayer(BotSpec("buylist", genome=text), np.random.default_rng(0))
        bm = PolicyPlayer(BotSpec("big-money"), np.random.default_rng(1))
        seen: dict[str, dict[tuple[str, str], int]] = {}
        for g in range(games):
            st = DominionState.new(2, board, seed=g)
            first = st.hand[0].count(COPPER)
            bought: list[list[str]] = [[], []]
            while not st.is_terminal() and st.turns[0] < 2:
                seat = st.current_player()
                move = (me if seat == 0 else bm).act(st)
                if seat == 0 and move[0] == "buy":
                    bought[st.turns[0]].append(move[1])
                st.apply(move)
            pair = ["+".join(b) or "nothing" for b in bought]
            if first < 7 - first:
                pair.reverse()
            split = f"{max(first, 7 - first)}/{min(first, 7 - first)}"
            counts = seen.setdefault(split, {})
            counts[tuple(pair)] = counts.get(tuple(pair), 0) + 1
        parts = []
        for split in sorted(seen, reverse=True):
            counts = seen[split]
            top = max(counts, key=counts.__getitem__)
            total = sum(counts.values())
            parts.append(f"{split}: {' / '.join(top)} ({counts[top] / total:.0%} of {total})")
        return "; ".join(parts)

    def bot_text(self, name: str) -> str:
        """A ladder bot's strategy text (for the report)."""
        return NAMED[name][0] if name in NAMED else name


def menu_form(text: str) -> str | None:
    """A buy list in the ``dominion-buylist`` genome's menu form (Province with an optional
    money floor, then Duchy and Estate by gains left, then cards with a copy limit and a
    deck-size gate, Victory cards by gains left), the same buys where the text can be said
    so (``province@money>18`` is ``province@<=8@money>=19``); None where it cannot (a gain
    list, a play order, settings, other conditions)."""
    from games.dominion._buylist import BuyList, BuyRule, Condition, format_buylist

    s = parse_strategy(text)
    if not s.plain:
        return None
    rules = list(s.buylist.rules)
    money = 0
    if rules and rules[0].card == "province" and rules[0].limit is None:
        conds = rules.pop(0).conditions
        for c in conds:
            if c.var == "money" and c.op in (">", ">=") and float(c.value).is_integer():
                money = int(c.value) + (1 if c.op == ">" else 0)
            else:
                return None
    else:
        return None

    def gate(card: str) -> float:
        for i, r in enumerate(rules):
            if r.card == card and r.limit is None and len(r.conditions) == 1 and \
                    r.conditions[0].var == "gains" and r.conditions[0].op == "<=":
                rules.pop(i)
                return r.conditions[0].value
        return 0.0

    duchy, estate = gate("duchy"), gate("estate")
    head = [BuyRule("province", None, (Condition("left", "<=", 8.0),)
                    + ((Condition("money", ">=", float(money)),) if money else ())),
            BuyRule("duchy", None, (Condition("gains", "<=", duchy),)),
            BuyRule("estate", None, (Condition("gains", "<=", estate),))]
    return format_buylist(BuyList(tuple(head + rules)))


BOARD = DominionBoard()
