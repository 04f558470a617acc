"""Dominion's table layouts as plain integers: what each row and column of the engine's state
arrays and of a bot's kernel rows means.

Kept apart from :mod:`games.dominion._engine` (whose kernels carry explicit numba signatures
and so compile when that module is imported) so that naming bots, parsing buy lists and
listing a game's bots import no kernel: a command that only lists or describes compiles
nothing. The engine imports every name here, so ``games.dominion._engine.X`` still works.
"""

from __future__ import annotations

DISCARD, HAND, PLAY, OWNED = 0, 1, 2, 3
DLEN, TURNS = 0, 1
ACTIONS, BUYS, COINS, MERCHANTS = 0, 1, 2, 3
NTS = 4  # length of the turn state ts

# Buy-rule table layout: one row per rule, RULE_WIDTH float64 values.
MAX_COND = 3
RULE_WIDTH = 3 + 3 * MAX_COND  # card, limit (-1: none), n conditions, (var, op, value) * 3
# A bot's gain list (``gain:``) follows its buy rules in the same table: one marker row
# (card GAIN_LIST, then the number of gain rules), then the gain rules.
GAIN_LIST = -7.0
# Condition variables.
(VAR_LEFT, VAR_GAINS, VAR_MONEY, VAR_CARDS, VAR_TURN, VAR_COINS, VAR_COUNT, VAR_SHARE,
 VAR_DSHARE, VAR_LEAD, VAR_EMPTY) = range(11)
# Appended later (codes above keep their meaning): treasures, actions, actions / cards,
# Curses owned, copies / treasures, opponents' Attack cards, Attack kingdom piles in play.
(VAR_TREASURES, VAR_ACTIONS, VAR_ADENSITY, VAR_CURSES, VAR_TSHARE, VAR_ATTACKS,
 VAR_KATTACKS) = range(11, 18)
OP_LE, OP_LT, OP_GE, OP_GT, OP_EQ = range(5)
# Action modes and buy modes of a bot.
ACT_STATIC, ACT_SCORED, ACT_RANDOM, ACT_NONE = 0, 1, 2, 3
BUY_RULES, BUY_RANDOM, BUY_LEARNED = 0, 1, 2
# Steward choices.
ST_DRAW, ST_COINS, ST_TRASH = 0, 1, 2
# A learned bot's parameters, lparams[b]: exploration rate, record flag, exploration mode,
# estimated endgame on/off, reward margin, and the game's end rule and tie-break (set per
# batch); its feature layout (0 the sources', 1 the kingdom's) and the card in each of the
# kingdom layout's 17 slots (games.dominion._features).
LP_EPS, LP_RECORD, LP_EXPLORE, LP_ENDGAME, LP_MARGIN, LP_END_RULE, LP_TIEBREAK = range(7)
LP_LAYOUT, LP_SLOTS = 7, 8
NLP = LP_SLOTS + 17
# End rules.
END_STANDARD, END_PROVINCES = 0, 1
END_RULES = {"standard": END_STANDARD, "provinces": END_PROVINCES}
