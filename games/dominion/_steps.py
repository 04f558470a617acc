"""The layout of Dominion's rule machine (:mod:`games.dominion._rules`): plain integers only, so
naming a move or reading a position imports no kernel.

A game in progress is the engine's arrays (``zones``, ``draw``, ``pinfo``, ``piles``, ``ts``,
``rng``, see :mod:`games.dominion._engine`) plus one int64 array ``mach``: the turn's phase,
the active seat, the end-of-game flags, the game's rules, Library's set-aside cards and a
stack of steps still to resolve. Every decision of the game, whoever makes it, is one step
with a list of options; an option is one integer, ``verb * NC + card``.

Steps are rows of :data:`SW` integers ``(kind, player, a, b, c, d)``; the top of the stack
(the last row) runs next. Kinds below :data:`FIRST_DECISION` run by themselves; the others
ask the player they name to choose one of their options.
"""

from __future__ import annotations

from games.dominion._cards import NC

# ---- verbs of an option (code = verb * NC + card)
(V_PLAY, V_BUY, V_THRONE, V_TRASH, V_DISCARD, V_GAIN, V_TOPDECK, V_SET_ASIDE, V_KEEP,
 V_REVEAL, V_CHOOSE, V_END_ACTIONS, V_PLAY_TREASURES, V_END_TURN, V_DONE) = range(15)
VERB_NAMES = ("play", "buy", "throne", "trash", "discard", "gain", "topdeck", "set-aside",
              "keep", "reveal", "choose", "end-actions", "play-treasures", "end-turn", "done")
#: the verbs that name no card
BARE_VERBS = (V_END_ACTIONS, V_PLAY_TREASURES, V_END_TURN, V_DONE)
END_ACTIONS = V_END_ACTIONS * NC
PLAY_TREASURES = V_PLAY_TREASURES * NC
END_TURN = V_END_TURN * NC
DONE = V_DONE * NC
#: Steward's options, the card slot of a ``choose`` code
STEWARD_CHOICES = ("cards", "coins", "trash")

# ---- phases of a turn (while the stack is empty)
PH_ACTION, PH_BUY, PH_BOUGHT = 0, 1, 2

# ---- where a gained card goes
TO_DISCARD, TO_HAND, TO_DECK = 0, 1, 2

# ---- step kinds: automatic ones first
(K_PHASE, K_RESOLVE, K_BODY, K_BANDIT_REVEAL, K_LIBRARY, K_SENTRY_LOOK, K_SENTRY_ORDER,
 K_VASSAL) = range(8)
FIRST_DECISION = 20
(K_MOAT, K_GAIN, K_ARTISAN, K_BUREAUCRAT, K_BANDIT, K_CELLAR, K_CHAPEL, K_HARBINGER,
 K_LIBRARY_KEEP, K_MILITIA, K_MINE, K_MONEYLENDER, K_POACHER, K_REMODEL, K_SENTRY,
 K_SENTRY_TOP, K_STEWARD, K_STEWARD_TRASH, K_THRONE, K_VASSAL_PLAY) = range(FIRST_DECISION,
                                                                             FIRST_DECISION + 20)
#: each step kind's name (the oracle's names for the same steps)
STEP_NAMES = {K_PHASE: "phase", K_RESOLVE: "resolve", K_BODY: "body",
              K_BANDIT_REVEAL: "bandit-reveal", K_LIBRARY: "library",
              K_SENTRY_LOOK: "sentry-look", K_SENTRY_ORDER: "sentry-order", K_VASSAL: "vassal",
              K_MOAT: "moat", K_GAIN: "gain", K_ARTISAN: "artisan", K_BUREAUCRAT: "bureaucrat",
              K_BANDIT: "bandit", K_CELLAR: "cellar", K_CHAPEL: "chapel",
              K_HARBINGER: "harbinger", K_LIBRARY_KEEP: "library-keep", K_MILITIA: "militia",
              K_MINE: "mine", K_MONEYLENDER: "moneylender", K_POACHER: "poacher",
              K_REMODEL: "remodel", K_SENTRY: "sentry", K_SENTRY_TOP: "sentry-top",
              K_STEWARD: "steward", K_STEWARD_TRASH: "steward-trash", K_THRONE: "throne",
              K_VASSAL_PLAY: "vassal-play"}
#: a gain step's ``d``: which policy chooses the card (Remodel: 1 + the trashed card)
GAIN_CAPPED, GAIN_TREASURE = 0, -1

# ---- the machine array
(M_PHASE, M_SILVER, M_ACTIVE, M_OVER, M_CAPPED, M_IMMUNE, M_SP, M_END_RULE, M_CAP, M_SOLO,
 M_TIEBREAK, M_HAND) = range(12)  # M_HAND: cards drawn at clean-up (a rule, five printed)
M_ASIDE = 16                      # Library's set-aside cards: M_ASIDE + p * NC + card
MAX_PLAYERS = 4
SW = 6                            # one step: kind, player, a, b, c, d
STACK_ROWS = 96
M_STACK = M_ASIDE + MAX_PLAYERS * NC
M_SIZE = M_STACK + SW * STACK_ROWS
#: the most options one decision can offer (a buy phase: treasures, buys and two more)
MAX_OPTIONS = 2 * NC + 4
