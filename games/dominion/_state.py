"""Dominion's turn-level API: :class:`DominionState`, a :class:`games.state.State` for search
players, 2-4 players (or solo) over any kingdom of the 2nd-edition base set and the sources'
cards.

It steps the rule machine (:mod:`games.dominion._rules`), the one implementation of the rules
that whole games and studies play too: a position is the engine's arrays between two
decisions, and every decision is a move (:mod:`games.dominion._moves`): which action to play
or ``end-actions``; which treasure to play, ``play-treasures`` or a buy; ``buy X`` or
``end-turn``; and every choice a card asks for, one card at a time (Chapel trashes one card
per move until ``done`` or four, a Militia victim discards one card per move down to 3).
The player to move may be the victim of another player's attack (a Militia discard, a Moat
reveal). A decision with a single possible move is taken without asking, and identical
cards give one move, not one per copy. The game's bots decide at any position through the
same policy as in whole games (:mod:`games.dominion._state_player`).

Randomness is the game's own stream (SplitMix64, :mod:`games.rng`): the State made for game
i of a run (:meth:`DominionState.from_options`) deals and shuffles exactly as the engine
does for game i, so the same moves give the same game in both; a clone carries the stream
and replays the same moves to the same game.

Hidden information (:meth:`DominionState.view`): every draw pile's order, the opponents'
hands and discard piles (their sizes show), and what a player looks at alone (Sentry's two
cards, the card Library drew while its owner decides on it). Gains, trashes, plays and
reveals are public.

Just over 400 lines on purpose: the protocol, the table as the codec and tools read it, and
the view are one class; the rules it steps live in :mod:`games.dominion._rules`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from games import registry
from games.core import InputError, game_seeds
from games.dominion._cards import CARDS, GARDENS, INDEX, KEYS, NC, VP, card_key, initial_supply
from games.dominion._engine import DISCARD, DLEN, HAND, OWNED, PLAY, TURNS
from games.dominion._layout import ACTIONS, BUYS, COINS, END_RULES
from games.dominion._moves import CODES, MOVES, Move
from games.dominion._options import DominionOptions
from games.dominion._steps import (
    K_LIBRARY_KEEP,
    K_SENTRY,
    K_SENTRY_TOP,
    M_ACTIVE,
    M_ASIDE,
    M_CAPPED,
    M_PHASE,
    M_SP,
    M_STACK,
    STEP_NAMES,
    SW,
)
from games.state import State

_RULES = DominionOptions()  # the declared defaults of the rules: end rule, tiebreak, cap, solo
#: views into a position's buffer, made again from the buffer when read (never copied)
_VIEWS = ("zones", "draw", "pinfo", "piles_", "ts", "rng", "mach", "opts", "_optview")
_VP = np.asarray(VP, dtype=np.int64)
_MOVES = MOVES  # a module global: read on every listing
#: option sets seen (the options' bytes) -> their moves and codes, shared by every position
#: that offers the same options (never changed: apply only reads them)
_LISTED: dict[bytes, tuple[list[Move], list[int]]] = {}
_LISTED_MAX = 100_000


_RULES_MODULE = None
_STEP = _SETTLE = _DEAL = _NEW = None  # the one-buffer kernels' compiled functions


def _machine():
    """The rule machine's kernels (imported on first use: they compile then)."""
    global _RULES_MODULE, _STEP, _SETTLE, _DEAL, _NEW
    if _RULES_MODULE is None:
        from games.dominion import _packed as packed
        from games.dominion import _rules as rules
        _STEP, _SETTLE = packed.entry(packed.step), packed.entry(packed.settle)
        _DEAL, _NEW = packed.entry(packed.deal_hands), packed.entry(packed.new_game)
        _RULES_MODULE = rules
    return _RULES_MODULE


@functools.lru_cache(maxsize=256)
def _table(players: int, kingdom: tuple[str, ...], rules: tuple[int, int, int] = (0, 10, 10)
           ) -> tuple[tuple[int, ...], np.ndarray, tuple[int, ...], int, dict]:
    """What every game of ``players`` over ``kingdom`` (as given) starts from: the kingdom's
    card ids (checked), the supply, the piles in the game, the draw piles' width and the
    buffer's layout."""
    cards: list[int] = []
    for name in kingdom:
        c = INDEX.get(card_key(name), -1)
        if c < 0 or not CARDS[c].kingdom or c in cards:
            raise InputError(f"kingdom card {name!r}: unknown, basic or listed twice")
        cards.append(c)
    supply0 = initial_supply(players, [KEYS[c] for c in cards], rules)
    total = 10 * players + int(supply0[supply0 > 0].sum())
    from games.dominion._packed import layout
    return (tuple(cards), supply0, tuple(c for c in range(NC) if supply0[c] >= 0), total,
            layout(players, total, 2)[1])


def buffer_kernels() -> tuple[Any, Any, Any]:
    """step(code, buf), settle(buf) and deal_hands(buf) of :mod:`games.dominion._packed`,
    each returning the options and the seat to move in one int (``_settled`` reads it)."""
    _machine()
    return _STEP, _SETTLE, _DEAL


class _Array:
    """One work array of the position: a view into its buffer, made when first read (a
    copy of a position copies the buffer alone)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, state: Any, owner: type | None = None) -> Any:
        if state is None:
            return self
        shape, dtype, offset = state._where[self.name]
        out = state.__dict__[self.name] = np.ndarray(shape, dtype, state.buf, offset)
        return out


class DominionState(State):
    """One Dominion position (see :class:`games.state.State` for the protocol)."""

    buf: np.ndarray  # every work array below, in one buffer (games.dominion._packed)
    _where: dict[str, tuple]  # each array's shape, dtype and offset in the buffer
    zones = _Array()
    draw = _Array()
    pinfo = _Array()
    piles_ = _Array()
    ts = _Array()
    rng = _Array()
    mach = _Array()
    opts = _Array()
    n_options: int
    _seat: int = -1
    _moves: list[Move] | None = None
    _codes: list[int] = []
    _optview: memoryview | None = None  # the options as a memoryview, made when first read

    @classmethod
    def new(cls, players: int = 2, kingdom: Sequence[str] = (), *,
            rng: np.random.Generator | None = None, seed: int | None = None,
            end_rule: str = _RULES.end_rule, tiebreak: bool = _RULES.tiebreak,
            cap: int = _RULES.cap, solo: int = _RULES.solo,
            rules: tuple[int, int, int] = _RULES.supply_rules,
            hand_size: int = _RULES.hand_size) -> DominionState:
        """A fresh game: kingdom cards by key, starting decks shuffled and a hand drawn each
        (``hand_size`` cards, five printed). ``seed`` is the game's 64-bit seed (the engine's
        game seed); without it one is drawn from ``rng`` (seed 0 when neither is given). The
        rules default to the game's options (:class:`games.dominion._options.DominionOptions`)."""
        if not 1 <= players <= 4:
            raise InputError(f"dominion is played by 1 (solo) or 2-4 players, got {players}")
        if end_rule not in END_RULES:
            raise InputError(f"end rule {end_rule!r}: use {' or '.join(END_RULES)}")
        if not 1 <= hand_size <= 10:
            raise InputError(f"hand size must be 1-10 cards, got {hand_size}")
        cards, supply0, piles, total, where = _table(players, tuple(kingdom), tuple(rules))
        if seed is None:
            seed = int((rng or np.random.default_rng(0)).integers(2**63))
        st = cls()
        st.n, st.kingdom, st.end_rule = players, cards, end_rule
        st.tiebreak, st.cap, st.solo = bool(tiebreak), int(cap), int(solo)
        st.supply0, st.piles = supply0, piles  # shared by every game of the table: read only
        _machine()
        from games.dominion._packed import empty
        st.buf, st._where = empty(players, total, 2), where
        st._settled(_NEW(np.uint64(seed), supply0, END_RULES[end_rule], st.cap, st.solo,
                         1 if st.tiebreak else 0, int(hand_size), st.buf))
        return st

    @classmethod
    def from_options(cls, options: Mapping[str, Any], seed: int, players: int
                     ) -> DominionState:
        """Game 0 of the run with root ``seed`` under the game's options (typed ones as
        they are, a plain mapping checked first; a ``random`` kingdom must be drawn
        already, as ``DominionGame.new_state`` does): dealt as the engine deals it."""
        # the game by name: no import cycle
        opts: DominionOptions = registry.typed(registry.get("dominion"), options)
        return cls.new(players, tuple(opts.kingdom or ()), seed=int(game_seeds(seed, 1, 0)[0]),
                       end_rule=opts.end_rule, tiebreak=opts.tiebreak, cap=opts.cap,
                       solo=opts.solo, rules=opts.supply_rules, hand_size=opts.hand_size)

    def __init__(self) -> None:
        State.__init__(self)

    def _pack(self, **arrays: np.ndarray) -> None:
        """Put the work arrays in a new buffer, some of them replaced (a wider draw pile or
        player table), the others kept."""
        from games.dominion._packed import ARRAYS, layout, pack
        arrays = {name: arrays.get(name, getattr(self, name)) for name in ARRAYS}
        for name in _VIEWS:
            self.__dict__.pop(name, None)
        self.buf = pack(arrays)
        (players, width), pcols = arrays["draw"].shape, arrays["pinfo"].shape[1]
        self._where = layout(players, width, pcols)[1]

    def _settled(self, mover: int) -> None:
        """Take a one-buffer kernel's answer: the options and the seat to move."""
        self._moves = None
        self.n_options = mover & 255
        self._seat = (mover >> 8) - 1

    # ---- the State protocol
    def current_player(self) -> int:
        return self._seat

    def _legal_moves(self) -> list[Move]:
        moves = self._moves
        if moves is None:  # listed once per position (apply finds the move among them)
            opts = self._optview
            if opts is None:
                opts = self._optview = memoryview(self.opts)
            key = opts[:self.n_options].tobytes()
            listed = _LISTED.get(key)
            if listed is None:  # an option set not seen yet: its moves and codes, kept
                codes = opts[:self.n_options].tolist()
                listed = ([_MOVES[c] for c in codes], codes)
                if len(_LISTED) >= _LISTED_MAX:
                    _LISTED.clear()
                _LISTED[key] = listed
            moves, self._codes = listed
            self._moves = moves
        return moves

    def legal_moves(self) -> list[Move]:
        moves = self._moves
        if moves is None:
            moves = self._legal_moves()
        return list(moves)

    @staticmethod
    def _code(move: Any) -> int:
        code = CODES.get(move) if isinstance(move, tuple) else CODES.get(tuple(move))
        if code is None:
            raise ValueError(f"not a dominion move: {move!r}")
        return code

    def apply(self, move: Any) -> None:
        """Play a legal move; ValueError for a move that is not legal here (found among
        the listed moves, so the option code comes with it)."""
        moves = self._moves
        if moves is None:
            moves = self._legal_moves()
        try:
            i = moves.index(move)
        except ValueError:
            raise ValueError("the game is over" if not self.n_options else
                             f"illegal move {self.move_to_string(move)}") from None
        mover = _STEP(self._codes[i], self.buf)  # _apply_code, written out: the hot path
        self._moves = None
        self.n_options = mover & 255
        self._seat = (mover >> 8) - 1
        self.history.append(move)

    def _apply(self, move: Any) -> None:
        self._apply_code(self._code(move))

    def _apply_code(self, code: int) -> None:
        mover = _STEP(code, self.buf)
        self._moves = None
        self.n_options = mover & 255
        self._seat = (mover >> 8) - 1

    def is_terminal(self) -> bool:
        return not self.n_options  # the machine offers no option once the game is over

    def returns(self) -> list[float]:
        """1 win, 0.5 shared first place, 0 loss; a solo game: 1 unless capped."""
        if not self.is_terminal():
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
        twin = type(self).__new__(type(self))
        d = twin.__dict__
        d.update(self.__dict__)
        for name in _VIEWS:
            d.pop(name, None)  # views of this position's buffer: the twin makes its own
        d["buf"] = self.buf.copy()
        d["history"] = list(self.history)
        return twin

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle keeps: the buffer, not the views into it."""
        return {k: v for k, v in self.__dict__.items() if k not in _VIEWS}

    def set_cards(self, p: int, *, hand: Sequence[int] | None = None,
                  deck: Sequence[int] | None = None, discard: Sequence[int] | None = None
                  ) -> None:
        """Replace ``p``'s hand, draw pile (bottom first: the top card last) or discard
        pile by hand (tests, tools), keeping what ``p`` owns consistent; call
        :meth:`refresh` once done."""
        z = self.zones[p]
        if hand is not None:
            z[OWNED] -= z[HAND]
            z[HAND] = np.bincount(np.asarray(hand, dtype=np.int64), minlength=NC)
            z[OWNED] += z[HAND]
        if discard is not None:
            z[OWNED] -= z[DISCARD]
            z[DISCARD] = np.bincount(np.asarray(discard, dtype=np.int64), minlength=NC)
            z[OWNED] += z[DISCARD]
        if deck is not None:
            old = self.draw[p, :self.pinfo[p, DLEN]]
            z[OWNED] -= np.bincount(old.astype(np.int64), minlength=NC)
            if len(deck) > self.draw.shape[1]:
                grown = np.zeros((self.n, len(deck) + self.draw.shape[1]), dtype=np.int8)
                grown[:, :self.draw.shape[1]] = self.draw
                self._pack(draw=grown)
            self.draw[p, :len(deck)] = np.asarray(deck, dtype=np.int8)
            self.pinfo[p, DLEN] = len(deck)
            z[OWNED] += np.bincount(np.asarray(deck, dtype=np.int64), minlength=NC)

    def restart_turn(self) -> None:
        """Begin the active player's turn again (action phase, 1 Action, 1 Buy, $0), for
        positions set up by hand; call :meth:`refresh` once done."""
        self.mach[M_SP] = 0
        _machine().start_turn(self.mach, self.ts)

    def refresh(self) -> None:
        """Settle the position again after its arrays were edited by hand (tests, tools):
        automatic steps run and the options of the next decision are listed."""
        _machine()
        self._settled(_SETTLE(self.buf))

    # ---- reading the table
    @property
    def capped(self) -> bool:  # type: ignore[override]
        return bool(self.mach[M_CAPPED])

    @property
    def done(self) -> bool:
        return self.is_terminal()

    @property
    def rounds(self) -> int:  # type: ignore[override]
        return int(self.pinfo[0, TURNS])

    @property
    def active(self) -> int:
        return int(self.mach[M_ACTIVE])

    @property
    def phase(self) -> int:
        return int(self.mach[M_PHASE])

    @property
    def actions(self) -> int:
        return int(self.ts[ACTIONS])

    @property
    def buys(self) -> int:
        return int(self.ts[BUYS])

    @property
    def coins(self) -> int:
        return int(self.ts[COINS])

    @property
    def supply(self) -> np.ndarray:
        """Cards left in each pile by card (-1: not in this game); writable, for tools."""
        return self.piles_[0]

    @property
    def stack(self) -> list[tuple]:
        """The steps still to resolve, the next last: (name, player, a, b, c, d)."""
        rows = self.mach[M_STACK:M_STACK + SW * int(self.mach[M_SP])].reshape(-1, SW)
        return [(STEP_NAMES[int(r[0])], *(int(x) for x in r[1:])) for r in rows]

    @property
    def trash(self) -> list[int]:
        return _cards(self.piles_[1])

    @property
    def turns(self) -> list[int]:
        return [int(t) for t in self.pinfo[:, TURNS]]

    @property
    def hand(self) -> list[list[int]]:
        return [_cards(self.zones[p, HAND]) for p in range(self.n)]

    @property
    def play(self) -> list[list[int]]:
        return [_cards(self.zones[p, PLAY]) for p in range(self.n)]

    @property
    def discard(self) -> list[list[int]]:
        return [_cards(self.zones[p, DISCARD]) for p in range(self.n)]

    @property
    def deck(self) -> list[list[int]]:
        """Each draw pile, bottom first (the top card is the last)."""
        return [[int(c) for c in self.draw[p, :self.pinfo[p, DLEN]]] for p in range(self.n)]

    @property
    def aside(self) -> list[list[int]]:
        return [_cards(self.mach[M_ASIDE + p * NC:M_ASIDE + (p + 1) * NC])
                for p in range(self.n)]

    @property
    def looking(self) -> list[list[int]]:
        """What each player looks at alone: Sentry's cards, the card Library drew."""
        out: list[list[int]] = [[] for _ in range(self.n)]
        for i in range(int(self.mach[M_SP])):
            kind, p, a, b = (int(x) for x in self.mach[M_STACK + SW * i:M_STACK + SW * i + 4])
            if kind == K_LIBRARY_KEEP:
                out[p].append(a)
            elif kind in (K_SENTRY, K_SENTRY_TOP):
                out[p] += [c for c in (a, b) if c >= 0]
        return out

    def owned(self, p: int) -> list[int]:
        """Count per card of everything ``p`` owns."""
        return [int(k) for k in self.zones[p, OWNED]]

    def others(self, p: int) -> list[int]:
        """The other players in turn order, starting left of ``p``."""
        return [(p + k) % self.n for k in range(1, self.n)]

    def victory_points(self, p: int) -> int:
        """VP of ``p``'s cards; each Gardens is worth 1 per whole 10 cards owned."""
        owned = self.zones[p, OWNED]
        return int(owned @ _VP + owned[GARDENS] * (owned.sum() // 10))

    def empty_piles(self) -> int:
        """Supply piles of this game that are empty (the Curse pile included)."""
        return int(sum(1 for c in self.piles if self.piles_[0, c] == 0))

    def winners(self) -> list[int]:
        """Seats with the most VP (a tie to fewer turns when ``tiebreak``)."""
        vp = [self.victory_points(p) for p in range(self.n)]
        best = [p for p in range(self.n) if vp[p] == max(vp)]
        if self.tiebreak and len(best) > 1:
            fewest = min(self.turns[p] for p in best)
            best = [p for p in best if self.turns[p] == fewest]
        return best

    # ---- hidden information
    def view(self, player: int, rng: np.random.Generator) -> DominionState:
        """What ``player`` may know, as one state to search from: ``player``'s draw pile in
        a random order; each opponent's hand, draw pile and discard pile pooled and dealt
        back at random in the same sizes; the game's stream drawn anew; no history. States
        that differ only in what ``player`` cannot see give equal views (equal
        :meth:`key`) for equally seeded ``rng``."""
        out = self.clone()
        out.history = []
        for q in range(self.n):
            dlen = int(out.pinfo[q, DLEN])
            deck = np.sort(out.draw[q, :dlen])
            if q == player:
                out.draw[q, :dlen] = deck[rng.permutation(dlen)]
                continue
            hand, discard = out.zones[q, HAND], out.zones[q, DISCARD]
            pool = np.concatenate([np.repeat(np.arange(NC), hand), deck,
                                   np.repeat(np.arange(NC), discard)])
            pool = np.sort(pool)[rng.permutation(len(pool))]
            h, d = int(hand.sum()), dlen
            out.zones[q, HAND] = np.bincount(pool[:h], minlength=NC)
            out.draw[q, :d] = pool[h:h + d]
            out.zones[q, DISCARD] = np.bincount(pool[h + d:], minlength=NC)
        out.rng[0] = np.uint64(int(rng.integers(2**63)))
        out.refresh()
        return out

    def key(self) -> tuple:
        """Everything that makes up the position (history aside), for comparisons."""
        sp = int(self.mach[M_SP])
        decks = tuple(self.draw[p, :self.pinfo[p, DLEN]].tobytes() for p in range(self.n))
        return (self.n, self.kingdom, self.zones.tobytes(), decks, self.pinfo.tobytes(),
                self.piles_.tobytes(), self.ts.tobytes(), self.rng.tobytes(),
                self.mach[:M_STACK + SW * sp].tobytes(),
                self.opts[:self.n_options].tobytes())

    def move_to_string(self, move: Any) -> str:
        return str(move)

    def describe(self) -> str:
        """A few lines: the supply, then every player's hand, deck, discard and VP."""
        def names(cards: list[int]) -> str:
            return ", ".join(CARDS[c].key for c in sorted(cards)) or "-"

        over = self.is_terminal()
        lines = [("game over" if over else f"seat {self.current_player()} to move") +
                 f"; turn of seat {self.active}, actions {self.actions}, buys {self.buys}, "
                 f"${self.coins}",
                 "  supply: " + ", ".join(f"{CARDS[c].key} {self.piles_[0, c]}"
                                          for c in self.piles)]
        hands, play = self.hand, self.play
        for p in range(self.n):
            lines.append(f"  seat {p}: {self.victory_points(p)} VP, {self.turns[p]} turns; "
                         f"hand [{names(hands[p])}], in play [{names(play[p])}], "
                         f"deck {self.pinfo[p, DLEN]}, discard "
                         f"{int(self.zones[p, DISCARD].sum())}")
        return "\n".join(lines)


def _cards(counts: np.ndarray) -> list[int]:
    """The cards of a count row, in card order."""
    return [c for c in range(NC) for _ in range(int(counts[c]))]
