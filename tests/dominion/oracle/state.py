"""The oracle: an independent pure-Python Dominion, written from the printed rules and kept
only to check the rule machine (:mod:`games.dominion._rules`) move for move. Dominion's
turn-level API: :class:`DominionState`, a :class:`games.state.State` for search
players, 2-4 players (or solo) over any kingdom of the 2nd-edition base set and the sources'
cards.

It is an independent pure-Python implementation of the printed rules (set-up and helpers in
:mod:`games.dominion.turns.table`, card effects in :mod:`games.dominion.turns.effects`); it
calls none of the numba engine's kernels, so the two can be checked against each other.

Every decision is a move (:mod:`games.dominion.turns.moves`): which action to play or
``end-actions``; which treasure to play, ``play-treasures`` or a buy; ``buy X`` or
``end-turn``; and every choice a card asks for, one card at a time (Chapel trashes one card
per move until ``done`` or four, a Militia victim discards one card per move down to 3).
The player to move may be the victim of another player's attack (a Militia discard, a Moat
reveal). A decision with a single possible move is taken without asking (an action phase
with no Action in hand, a Bandit victim with one non-Copper treasure revealed), and
identical cards give one move, not one per copy.

A turn: action phase (1 Action), buy phase (treasures, then buys: no treasure after the first
buy), clean-up (hand and play to the discard pile, draw 5). The game ends after a turn in
which the Provinces ran out or (standard end rule) three supply piles are empty, the Curse
pile included; a solo game with a target ends once the player owns that many Provinces.
After ``cap`` rounds a game stops, flagged capped, and is scored as any other. Most VP wins
(Gardens: 1 VP per whole 10 cards owned); a VP tie goes to the player with fewer turns
(``tiebreak``); otherwise the tied players share.

Randomness is the injected numpy Generator (it deals and shuffles); a clone carries a twin
of it (a snapshot of its state, built into a Generator at the clone's first shuffle), so a
clone replays the same moves to the same game.

Hidden information (:meth:`DominionState.view`): every draw pile's order, the opponents'
hands and what a player looked at alone (Sentry's two cards; a card Library drew is left as
it is while its owner decides whether to set it aside). Discard piles are face up but only
their top card shows, as the printed rules have it: a player's own discard pile is known to
that player (they put every card there), an opponent's shows its size and top card only.
Gains, trashes, plays and reveals are public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from games import registry
from games.core import InputError, game_seeds
from games.dominion._cards import CARDS, COIN, COPPER, ESTATE, INDEX, NC, SILVER, card_key
from games.dominion._moves import END_ACTIONS, END_TURN, PLAY_TREASURES, Move
from games.dominion._options import DominionOptions
from games.state import State
from tests.dominion.oracle.effects import AUTO, BUY, DECISIONS, PLAY, distinct, push
from tests.dominion.oracle.table import (
    ACTION,
    BOUGHT,
    COST,
    IS_ACTION,
    IS_TREASURE,
    SplitMix,
    Table,
    start_supply,
)
from tests.dominion.oracle.table import BUY as BUY_PHASE

END_RULES = ("standard", "provinces")
_RULES = DominionOptions()  # the declared defaults of the rules: end rule, tiebreak, cap, solo


class DominionState(Table, State):
    """One Dominion position (see :class:`games.state.State` for the protocol)."""

    _moves: list[Move]
    _player: int

    @classmethod
    def new(cls, players: int = 2, kingdom: Sequence[str] = (), *,
            rng: np.random.Generator | None = None, seed: int | None = None,
            end_rule: str = _RULES.end_rule,
            tiebreak: bool = _RULES.tiebreak, cap: int = _RULES.cap,
            solo: int = _RULES.solo) -> DominionState:
        """A fresh game: kingdom cards by key, starting decks shuffled and 5 cards drawn
        each, from the game seed ``seed`` as the engine deals (one drawn from ``rng`` when
        not given); the rules default to the game's options."""
        if not 1 <= players <= 4:
            raise InputError(f"dominion is played by 1 (solo) or 2-4 players, got {players}")
        if end_rule not in END_RULES:
            raise InputError(f"end rule {end_rule!r}: use {' or '.join(END_RULES)}")
        cards: list[int] = []
        for name in kingdom:
            c = INDEX.get(card_key(name), -1)
            if c < 0 or not CARDS[c].kingdom or c in cards:
                raise InputError(f"kingdom card {name!r}: unknown, basic or listed twice")
            cards.append(c)
        st = cls()
        st.n, st.kingdom, st.end_rule = players, tuple(cards), end_rule
        st.tiebreak, st.cap, st.solo = bool(tiebreak), int(cap), int(solo)
        st.supply = start_supply(players, cards)
        st.piles = tuple(c for c in range(NC) if st.supply[c] >= 0)
        if seed is None:
            seed = int((rng or np.random.default_rng(0)).integers(2**63))
        st.rng = SplitMix(seed)
        st.hand, st.discard, st.play, st.aside, st.looking = ([[] for _ in range(players)]
                                                              for _ in range(5))
        st.deck, st.trash, st.turns = [[] for _ in range(players)], [], [0] * players
        for p in range(players):  # as the engine deals: each in turn shuffles and draws 5
            st.discard[p] = [COPPER] * 7 + [ESTATE] * 3
            st.draw(p, 5)
        st.active, st.stack, st.immune, st.done, st.capped = 0, [], [False] * players, \
            False, False
        st._start_turn()
        st._advance()
        return st

    @classmethod
    def from_options(cls, options: Mapping[str, Any], seed: int, players: int
                     ) -> DominionState:
        """Game 0 of the run with root ``seed`` under the game's options (typed ones as
        they are, a plain mapping checked first; a ``random`` kingdom must be drawn
        already, as ``DominionGame.new_state`` does)."""
        # the game by name: no import cycle
        opts: DominionOptions = registry.typed(registry.get("dominion"), options)
        return cls.new(players, tuple(opts.kingdom or ()), seed=int(game_seeds(seed, 1, 0)[0]),
                       end_rule=opts.end_rule, tiebreak=opts.tiebreak, cap=opts.cap,
                       solo=opts.solo)

    def __init__(self) -> None:
        State.__init__(self)

    # ---- the State protocol
    def current_player(self) -> int:
        return -1 if self.done else self._player

    def _legal_moves(self) -> list[Move]:
        return self._moves

    def _apply(self, move: Any) -> None:
        self._decide(Move(*move))  # a plain (verb, card) tuple is the same move
        self._advance()

    def is_terminal(self) -> bool:
        return self.done

    def returns(self) -> list[float]:
        """1 win, 0.5 shared first place, 0 loss; a solo game: 1 unless capped."""
        if not self.done:
            return [0.0] * self.n
        if self.n == 1:
            return [0.0 if self.capped else 1.0]
        best = self.winners()
        share = 1.0 if len(best) == 1 else 0.5
        return [share if p in best else 0.0 for p in range(self.n)]

    def scores(self) -> list[float]:
        """VP per seat."""
        return [float(self.victory_points(p)) for p in range(self.n)]

    def clone(self) -> DominionState:
        twin = DominionState()
        self.copy_table_into(twin)
        twin.history = list(self.history)
        twin._moves, twin._player = self._moves, self._player
        return twin

    # ---- turns
    def _start_turn(self) -> None:
        self.phase, self.actions, self.buys, self.coins = ACTION, 1, 1, 0
        self.merchants, self.silver_played = 0, False

    def _phase_moves(self) -> list[Move]:
        hand = self.hand[self.active]
        if self.phase == ACTION:
            acts = distinct(hand, IS_ACTION.__getitem__) if self.actions > 0 else []
            return [PLAY[c] for c in acts] + [END_ACTIONS]
        out: list[Move] = []
        if self.phase == BUY_PHASE:
            money = distinct(hand, IS_TREASURE.__getitem__)
            out = [PLAY[c] for c in money] + ([PLAY_TREASURES] if money else [])
        if self.buys > 0:
            out += [BUY[c] for c in self.piles
                    if self.supply[c] > 0 and COST[c] <= self.coins]
        return out + [END_TURN]

    def _advance(self) -> None:
        """Run automatic steps until a decision with two or more moves (or the end)."""
        while not self.done:
            if self.stack:
                step = self.stack[-1]
                if step[0] in AUTO:
                    self.stack.pop()
                    AUTO[step[0]](self, step)
                    continue
                moves, player = DECISIONS[step[0]][0](self, step), step[1]
            else:
                moves, player = self._phase_moves(), self.active
            if len(moves) > 1:
                self._moves, self._player = moves, player
                return
            if moves:
                self._decide(moves[0])
            else:
                self.stack.pop()
        self._moves, self._player = [], -1

    def _decide(self, move: Move) -> None:
        if self.stack:
            step = self.stack.pop()
            DECISIONS[step[0]][1](self, step, move)
            return
        p, verb = self.active, move.verb
        if verb == "play":
            c = INDEX[move.card]
            if self.phase == ACTION:
                self.actions -= 1
                self.from_hand(p, c, self.play[p])
                push(self, ("resolve", p, c))
            else:
                self._play_treasure(p, c)
        elif verb == "play-treasures":
            for c in [c for c in self.hand[p] if IS_TREASURE[c]]:
                self._play_treasure(p, c)
        elif verb == "buy":
            c = INDEX[move.card]
            self.buys, self.coins, self.phase = self.buys - 1, self.coins - COST[c], BOUGHT
            self.gain(p, c)
        elif verb == "end-actions":
            self.phase = BUY_PHASE
        else:
            self._end_turn(p)

    def _play_treasure(self, p: int, c: int) -> None:
        self.from_hand(p, c, self.play[p])
        self.coins += int(COIN[c])
        if c == SILVER and not self.silver_played:
            self.silver_played = True
            self.coins += self.merchants

    def _end_turn(self, p: int) -> None:
        self.discard[p].extend(self.play[p])
        self.discard[p].extend(self.hand[p])
        self.play[p], self.hand[p] = [], []
        self.draw(p, 5)
        self.turns[p] += 1
        if self.game_ends():
            self.done = True
        elif p == self.n - 1 and self.turns[p] >= self.cap:
            self.done = self.capped = True
        else:
            self.active = (p + 1) % self.n
            self._start_turn()

    def refresh(self) -> None:
        """Settle the position again after its zones were edited by hand (tests, tools):
        automatic steps run and the moves of the next decision are listed."""
        self._advance()

    # ---- hidden information
    def view(self, player: int, rng: np.random.Generator) -> DominionState:
        """What ``player`` may know, as one state to search from: ``player``'s draw pile in
        a random order; each opponent's hand, draw pile, looked-at cards and discard pile
        (but its top card) pooled and dealt back at random in the same sizes; no history.
        States that differ only in what ``player`` cannot see give equal views (equal
        :meth:`key`) for equally seeded ``rng``."""
        out = self.clone()
        out.history = []
        for q in range(self.n):
            if q == player:
                deck = sorted(out.deck[q])
                out.deck[q] = [deck[i] for i in rng.permutation(len(deck))]
                continue
            top = out.discard[q][-1:]
            # a card Library drew stays put while its owner decides on it (it is an Action)
            looked = [] if ("library-keep", q) in out.stack else out.looking[q]
            zones = (out.hand[q], out.deck[q], looked, out.discard[q][:-1])
            pool = sorted(c for z in zones for c in z)
            pool = [pool[i] for i in rng.permutation(len(pool))]
            parts, at = [], 0
            for z in zones:
                parts.append(pool[at:at + len(z)])
                at += len(z)
            out.hand[q], out.deck[q], below = parts[0], parts[1], parts[3]
            out.looking[q] = parts[2] if looked else out.looking[q]
            out.discard[q] = below + top
        out.rng = SplitMix(int(rng.integers(2**63)))
        out._advance()
        return out

    def key(self) -> tuple:
        """Everything that makes up the position (history aside), for comparisons."""
        zones = tuple(tuple(tuple(z) for z in getattr(self, name)) for name in self._ZONES)
        return (tuple(getattr(self, name) for name in self._SCALARS), zones,
                tuple(self.supply), tuple(self.trash), tuple(self.turns), tuple(self.stack),
                tuple(self.immune), tuple(self._moves), str(self.rng_state()))

    def move_to_string(self, move: Any) -> str:
        return str(move)

    def describe(self) -> str:
        """A few lines: the supply, then every player's hand, deck, discard and VP."""
        def names(cards: list[int]) -> str:
            return ", ".join(CARDS[c].key for c in sorted(cards)) or "-"

        lines = [("game over" if self.done else f"seat {self._player} to move") +
                 f"; turn of seat {self.active}, actions {self.actions}, buys {self.buys}, "
                 f"${self.coins}",
                 "  supply: " + ", ".join(f"{CARDS[c].key} {self.supply[c]}"
                                          for c in self.piles)]
        for p in range(self.n):
            lines.append(f"  seat {p}: {self.victory_points(p)} VP, {self.turns[p]} turns; "
                         f"hand [{names(self.hand[p])}], in play [{names(self.play[p])}], "
                         f"deck {len(self.deck[p])}, discard {len(self.discard[p])}")
        return "\n".join(lines)
