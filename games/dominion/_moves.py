"""Moves of Dominion's turn-level game: small hashable values with a readable ``str``, and
their one-integer codes in the rule machine (:mod:`games.dominion._steps`).

A move is a :class:`Move` (a named tuple ``(verb, card)``, equal to the plain tuple), for
example ``Move("play", "smithy")`` (str ``play smithy``) or ``Move("end-actions")``. The
verbs:

=================  ===========================================================================
``play X``         play action X (action phase), treasure X (buy phase), or the Action that
                   Vassal discarded
``end-actions``    leave the action phase
``play-treasures`` play every treasure in hand
``buy X``          buy X (buy phase)
``end-turn``       end the buy phase: clean-up, the next player's turn
``throne X``       Throne Room plays action X twice
``trash X``        trash X (Chapel, Remodel, Mine, Moneylender, Steward, Sentry, Bandit victim)
``discard X``      discard X (Cellar, Poacher, Militia victim, Sentry)
``gain X``         gain X (Workshop, Remodel, Mine, Artisan)
``topdeck X``      put X on top of the deck (Harbinger, Artisan, Bureaucrat victim; Sentry:
                   X goes on top of the other kept card)
``set-aside X``    Library: set the drawn Action X aside; ``keep X`` keeps it in hand
``reveal moat``    reveal Moat against the attack just played
``choose X``       Steward: X is ``cards``, ``coins`` or ``trash``
``done``           stop or decline where the card says "any number", "up to" or "you may"
=================  ===========================================================================
"""

from __future__ import annotations

from typing import NamedTuple

from games.dominion._cards import INDEX, KEYS, NC
from games.dominion._steps import BARE_VERBS, STEWARD_CHOICES, V_CHOOSE, VERB_NAMES


class Move(NamedTuple):
    """One decision: a verb and, for most verbs, a card key (or a Steward option)."""

    verb: str
    card: str = ""

    def __str__(self) -> str:
        return f"{self.verb} {self.card}" if self.card else self.verb


CARD_VERBS = ("play", "buy", "throne", "trash", "discard", "gain", "topdeck", "set-aside",
              "keep", "reveal")
#: ``BY_CARD[verb][card index]``: the move, built once (legal moves list these)
BY_CARD: dict[str, tuple[Move, ...]] = {v: tuple(Move(v, KEYS[c]) for c in range(NC))
                                        for v in CARD_VERBS}
END_ACTIONS = Move("end-actions")
PLAY_TREASURES = Move("play-treasures")
END_TURN = Move("end-turn")
DONE = Move("done")
STEWARD_OPTIONS = tuple(Move("choose", o) for o in ("cards", "coins", "trash"))


_VERB = {name: v for v, name in enumerate(VERB_NAMES)}
_CHOICE = {name: i for i, name in enumerate(STEWARD_CHOICES)}


def _move_of(code: int) -> Move:
    verb, card = divmod(code, NC)
    if verb in BARE_VERBS:
        return Move(VERB_NAMES[verb])
    if verb == V_CHOOSE:
        return Move("choose", STEWARD_CHOICES[card] if card < len(STEWARD_CHOICES) else "")
    return Move(VERB_NAMES[verb], KEYS[card])


#: ``MOVES[code]``: the move of a rule-machine option code
MOVES: tuple[Move, ...] = tuple(_move_of(code) for code in range(len(VERB_NAMES) * NC))
#: the code of each move (a plain ``(verb, card)`` tuple finds the same code)
CODES: dict[tuple[str, str], int] = {
    tuple(m): code for code, m in enumerate(MOVES)
    if m.card in _CHOICE or m.verb != "choose"
    if code == _VERB[m.verb] * NC + (_CHOICE[m.card] if m.verb == "choose"
                                     else INDEX.get(m.card, 0))}
