"""The oracle's card effects (an independent pure-Python Dominion, kept to check the rule
machine): card effects of the turn-level game, written from the printed card text (2nd edition,
plus the sources' Steward and simple cards), as steps on the table's stack.

A step is a tuple ``(kind, player, *args)``. An automatic step (:data:`AUTO`) changes the
table and may push further steps; a decision step (:data:`DECISIONS`) lists the moves of the
player it names and applies the one chosen. A decision that offers no move is skipped, so
whatever must happen after it (discarding revealed cards, putting looked-at cards back) is
an automatic step of its own. ``push`` takes steps in the order they are to run.

Attacks: playing one first asks each other player holding a Moat, in turn order, whether to
reveal it (``reveal moat`` or ``done``); the card then resolves and hits only those who did
not. Throne Room resolves its target twice, each time as a fresh play (Moat is asked again).

Over 400 lines on purpose: the oracle's every card, kept in one file so that it reads as the
printed rules, apart from the rule machine it checks.
"""

from __future__ import annotations

from collections.abc import Callable

from games.dominion._cards import (
    ARTISAN,
    BANDIT,
    BUREAUCRAT,
    CARDS,
    CELLAR,
    CHAPEL,
    COPPER,
    COUNCIL_ROOM,
    CURSE,
    GOLD,
    HARBINGER,
    LIBRARY,
    MERCHANT,
    MILITIA,
    MINE,
    MOAT,
    MONEYLENDER,
    NC,
    POACHER,
    REMODEL,
    SENTRY,
    SILVER,
    STEWARD,
    THRONE_ROOM,
    VASSAL,
    WITCH,
    WORKSHOP,
)
from games.dominion._moves import BY_CARD, DONE, STEWARD_OPTIONS, Move
from tests.dominion.oracle.table import (
    COST,
    IS_ACTION,
    IS_TREASURE,
    IS_VICTORY,
    TO_DECK,
    TO_DISCARD,
    TO_HAND,
    Table,
)

Step = tuple
PLAY, BUY, TRASH, DISCARD, GAIN, TOPDECK = (BY_CARD[v] for v in
                                            ("play", "buy", "trash", "discard", "gain", "topdeck"))
THRONE, SET_ASIDE, KEEP = BY_CARD["throne"], BY_CARD["set-aside"], BY_CARD["keep"]
REVEAL_MOAT = BY_CARD["reveal"][MOAT]
INDEX_OF = {m: c for v in BY_CARD.values() for c, m in enumerate(v)}


def push(t: Table, *steps: Step) -> None:
    """Schedule ``steps`` to run next, in the order given."""
    t.stack.extend(reversed(steps))


def distinct(cards: list[int], keep: Callable[[int], bool] | None = None) -> list[int]:
    """The different cards among ``cards`` (those ``keep`` accepts), in card order."""
    return sorted({c for c in cards if keep is None or keep(c)})


def victims(t: Table, p: int) -> list[int]:
    """The players an attack of ``p`` hits: the others in turn order, less Moat revealers."""
    return [q for q in t.others(p) if not t.immune[q]]


# ---- what each card does beyond its +Cards/+Actions/+Buys/+$ (the card rows)
def _artisan(t: Table, p: int) -> None:
    push(t, ("gain", p, 5, TO_HAND, False), ("artisan", p))


def _bandit(t: Table, p: int) -> None:
    t.gain(p, GOLD)
    push(t, *[("bandit-reveal", q) for q in victims(t, p)])


def _bureaucrat(t: Table, p: int) -> None:
    t.gain(p, SILVER, TO_DECK)
    push(t, *[("bureaucrat", q) for q in victims(t, p)])


def _council_room(t: Table, p: int) -> None:
    for q in t.others(p):
        t.draw(q, 1)


def _merchant(t: Table, p: int) -> None:
    t.merchants += 1


def _militia(t: Table, p: int) -> None:
    push(t, *[("militia", q) for q in victims(t, p)])


def _poacher(t: Table, p: int) -> None:
    push(t, ("poacher", p, t.empty_piles()))


def _witch(t: Table, p: int) -> None:
    for q in victims(t, p):
        t.gain(q, CURSE)


def _then(kind: str, *args: object) -> Callable[[Table, int], None]:
    return lambda t, p: push(t, (kind, p, *args))


SPECIAL: dict[int, Callable[[Table, int], None]] = {
    ARTISAN: _artisan, BANDIT: _bandit, BUREAUCRAT: _bureaucrat, CELLAR: _then("cellar", 0),
    CHAPEL: _then("chapel", 0), COUNCIL_ROOM: _council_room, HARBINGER: _then("harbinger"),
    LIBRARY: _then("library"), MERCHANT: _merchant, MILITIA: _militia, MINE: _then("mine"),
    MONEYLENDER: _then("moneylender"), POACHER: _poacher, REMODEL: _then("remodel"),
    SENTRY: _then("sentry-look"), STEWARD: _then("steward"), THRONE_ROOM: _then("throne"),
    VASSAL: _then("vassal"), WITCH: _witch, WORKSHOP: _then("gain", 4, TO_DISCARD, False),
}


# ---- automatic steps
def _resolve(t: Table, step: Step) -> None:
    """A card played by ``p`` (already in play): Moat first for an attack, then the card."""
    _, p, c = step
    if CARDS[c].attack:
        t.immune = [False] * t.n
        push(t, *[("moat", q) for q in t.others(p) if MOAT in t.hand[q]], ("body", p, c))
    else:
        _body(t, ("body", p, c))


def _body(t: Table, step: Step) -> None:
    _, p, c = step
    card = CARDS[c]
    t.draw(p, card.cards)
    t.actions += card.actions
    t.buys += card.buys
    t.coins += card.coins
    if c in SPECIAL:
        SPECIAL[c](t, p)


def _bandit_reveal(t: Table, step: Step) -> None:
    q = step[1]
    shown = [c for c in (t.top(q), t.top(q)) if c >= 0]
    if any(IS_TREASURE[c] and c != COPPER for c in shown):
        push(t, ("bandit", q, tuple(shown)))
    else:
        t.discard[q].extend(shown)


def _library(t: Table, step: Step) -> None:
    """Draw to 7, stopping at each Action drawn for the keep / set-aside decision; then
    discard what was set aside."""
    p = step[1]
    while len(t.hand[p]) < 7:
        c = t.top(p)
        if c < 0:
            break
        if IS_ACTION[c]:
            t.looking[p].append(c)
            push(t, ("library-keep", p), ("library", p))
            return
        t.hand[p].append(c)
    t.discard[p].extend(t.aside[p])
    t.aside[p] = []


def _sentry_look(t: Table, step: Step) -> None:
    p = step[1]
    t.looking[p].extend(c for c in (t.top(p), t.top(p)) if c >= 0)
    push(t, ("sentry", p), ("sentry-order", p))


def _sentry_order(t: Table, step: Step) -> None:
    p = step[1]
    if len(set(t.looking[p])) == 2:
        push(t, ("sentry-top", p))
    else:
        t.deck[p].extend(t.looking[p])
        t.looking[p] = []


def _vassal(t: Table, step: Step) -> None:
    p = step[1]
    c = t.top(p)
    if c >= 0:
        t.discard[p].append(c)
        if IS_ACTION[c]:
            push(t, ("vassal-play", p, c))


AUTO: dict[str, Callable[[Table, Step], None]] = {
    "resolve": _resolve, "body": _body, "bandit-reveal": _bandit_reveal,
    "library": _library, "sentry-look": _sentry_look, "sentry-order": _sentry_order,
    "vassal": _vassal,
}


# ---- decisions: (moves of the step, apply the chosen move)
def _hand_moves(table: tuple[Move, ...], keep: Callable[[int], bool] | None = None
                ) -> Callable[[Table, Step], list[Move]]:
    return lambda t, s: [table[c] for c in distinct(t.hand[s[1]], keep)]


def _gain_moves(t: Table, s: Step) -> list[Move]:
    _, _, cap, _, treasure = s
    return [GAIN[c] for c in range(NC) if t.supply[c] > 0 and COST[c] <= cap
            and (IS_TREASURE[c] or not treasure)]


def _gain(t: Table, s: Step, m: Move) -> None:
    t.gain(s[1], INDEX_OF[m], s[3])


def _topdeck_from_hand(t: Table, s: Step, m: Move) -> None:
    t.from_hand(s[1], INDEX_OF[m], t.deck[s[1]])


def _bandit(t: Table, s: Step, m: Move) -> None:
    shown = list(s[2])
    shown.remove(INDEX_OF[m])
    t.trash.append(INDEX_OF[m])
    t.discard[s[1]].extend(shown)


def _up_to(verb: tuple[Move, ...], limit: int | None) -> Callable[[Table, Step], list[Move]]:
    """Moves of a one-card-at-a-time choice from hand that may stop (``done``) at any
    time, at most ``limit`` cards in all (``s[2]`` counts those taken)."""
    def moves(t: Table, s: Step) -> list[Move]:
        if limit is not None and s[2] >= limit:
            return []
        return [verb[c] for c in distinct(t.hand[s[1]])] + [DONE]
    return moves


def _cellar(t: Table, s: Step, m: Move) -> None:
    _, p, k = s
    if m == DONE:
        t.draw(p, k)
    else:
        t.from_hand(p, INDEX_OF[m], t.discard[p])
        push(t, ("cellar", p, k + 1))


def _chapel(t: Table, s: Step, m: Move) -> None:
    if m != DONE:
        t.from_hand(s[1], INDEX_OF[m], t.trash)
        push(t, ("chapel", s[1], s[2] + 1))


def _countdown(verb: tuple[Move, ...]) -> Callable[[Table, Step], list[Move]]:
    """Moves of "discard/trash k cards" (one at a time, no stopping)."""
    return lambda t, s: [verb[c] for c in distinct(t.hand[s[1]])] if s[2] > 0 else []


def _count_down(zone: str) -> Callable[[Table, Step, Move], None]:
    def apply(t: Table, s: Step, m: Move) -> None:
        kind, p, k = s
        t.from_hand(p, INDEX_OF[m], t.trash if zone == "trash" else t.discard[p])
        push(t, (kind, p, k - 1))
    return apply


def _harbinger_moves(t: Table, s: Step) -> list[Move]:
    pile = t.discard[s[1]]
    return [TOPDECK[c] for c in distinct(pile)] + [DONE] if pile else []


def _harbinger(t: Table, s: Step, m: Move) -> None:
    if m != DONE:
        t.discard[s[1]].remove(INDEX_OF[m])
        t.deck[s[1]].append(INDEX_OF[m])


def _library_keep(t: Table, s: Step, m: Move) -> None:
    p = s[1]
    c = t.looking[p].pop()
    (t.aside if m.verb == "set-aside" else t.hand)[p].append(c)


def _militia(t: Table, s: Step, m: Move) -> None:
    t.from_hand(s[1], INDEX_OF[m], t.discard[s[1]])
    push(t, ("militia", s[1]))


def _mine_moves(t: Table, s: Step) -> list[Move]:
    money = distinct(t.hand[s[1]], IS_TREASURE.__getitem__)
    return [TRASH[c] for c in money] + [DONE] if money else []


def _mine(t: Table, s: Step, m: Move) -> None:
    if m != DONE:
        c = INDEX_OF[m]
        t.from_hand(s[1], c, t.trash)
        push(t, ("gain", s[1], COST[c] + 3, TO_HAND, True))


def _moneylender(t: Table, s: Step, m: Move) -> None:
    if m != DONE:
        t.from_hand(s[1], COPPER, t.trash)
        t.coins += 3


def _remodel(t: Table, s: Step, m: Move) -> None:
    c = INDEX_OF[m]
    t.from_hand(s[1], c, t.trash)
    push(t, ("gain", s[1], COST[c] + 2, TO_DISCARD, False))


def _sentry_moves(t: Table, s: Step) -> list[Move]:
    seen = distinct(t.looking[s[1]])
    return [TRASH[c] for c in seen] + [DISCARD[c] for c in seen] + [DONE] if seen else []


def _sentry(t: Table, s: Step, m: Move) -> None:
    p = s[1]
    if m == DONE:
        return
    c = INDEX_OF[m]
    t.looking[p].remove(c)
    (t.trash if m.verb == "trash" else t.discard[p]).append(c)
    push(t, ("sentry", p))


def _sentry_top(t: Table, s: Step, m: Move) -> None:
    p = s[1]
    t.looking[p].remove(INDEX_OF[m])
    t.deck[p].extend((t.looking[p][0], INDEX_OF[m]))
    t.looking[p] = []


def _steward(t: Table, s: Step, m: Move) -> None:
    if m.card == "cards":
        t.draw(s[1], 2)
    elif m.card == "coins":
        t.coins += 2
    else:
        push(t, ("steward-trash", s[1], 2))


def _throne_moves(t: Table, s: Step) -> list[Move]:
    acts = distinct(t.hand[s[1]], IS_ACTION.__getitem__)
    return [THRONE[c] for c in acts] + [DONE] if acts else []


def _throne(t: Table, s: Step, m: Move) -> None:
    if m != DONE:
        c = INDEX_OF[m]
        t.from_hand(s[1], c, t.play[s[1]])
        push(t, ("resolve", s[1], c), ("resolve", s[1], c))


def _vassal_play(t: Table, s: Step, m: Move) -> None:
    _, p, c = s
    if m != DONE:
        t.discard[p].pop()  # the card Vassal discarded lies on top
        t.play[p].append(c)
        push(t, ("resolve", p, c))


def _moat(t: Table, s: Step, m: Move) -> None:
    """Revealing Moat leaves its owner out of the attack being played."""
    if m == REVEAL_MOAT:
        t.immune[s[1]] = True


DECISIONS: dict[str, tuple[Callable[[Table, Step], list[Move]],
                           Callable[[Table, Step, Move], None]]] = {
    "moat": (lambda t, s: [REVEAL_MOAT, DONE] if MOAT in t.hand[s[1]] else [], _moat),
    "gain": (_gain_moves, _gain),
    "artisan": (_hand_moves(TOPDECK), _topdeck_from_hand),
    "bureaucrat": (_hand_moves(TOPDECK, IS_VICTORY.__getitem__), _topdeck_from_hand),
    "bandit": (lambda t, s: [TRASH[c] for c in distinct(list(s[2]), lambda c: IS_TREASURE[c]
                                                        and c != COPPER)], _bandit),
    "cellar": (_up_to(DISCARD, None), _cellar),
    "chapel": (_up_to(TRASH, 4), _chapel),
    "harbinger": (_harbinger_moves, _harbinger),
    "library-keep": (lambda t, s: [SET_ASIDE[t.looking[s[1]][-1]], KEEP[t.looking[s[1]][-1]]],
                     _library_keep),
    "militia": (lambda t, s: [DISCARD[c] for c in distinct(t.hand[s[1]])]
                if len(t.hand[s[1]]) > 3 else [], _militia),
    "mine": (_mine_moves, _mine),
    "moneylender": (lambda t, s: [TRASH[COPPER], DONE] if COPPER in t.hand[s[1]] else [],
                    _moneylender),
    "poacher": (_countdown(DISCARD), _count_down("discard")),
    "remodel": (_hand_moves(TRASH), _remodel),
    "sentry": (_sentry_moves, _sentry),
    "sentry-top": (lambda t, s: [TOPDECK[c] for c in distinct(t.looking[s[1]])], _sentry_top),
    "steward": (lambda t, s: list(STEWARD_OPTIONS), _steward),
    "steward-trash": (_countdown(TRASH), _count_down("trash")),
    "throne": (_throne_moves, _throne),
    "vassal-play": (lambda t, s: [PLAY[s[2]], DONE], _vassal_play),
}
