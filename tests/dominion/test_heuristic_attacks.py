"""The heuristic bot's opponent-attacks term: Moat (and Library) bought once the opponents
own Attack cards. Off by default, so the bot's buy list and games are what they were; on,
it changes the games against an attacker and no game against a bot without attacks."""

from __future__ import annotations

import numpy as np
import pytest

from games import registry
from games.core import BotSpec, make_params
from games.dominion._bots import HeuristicBot, HeuristicParams

GAME = registry.get("dominion")
OPTIONS = GAME.check_options({"kingdom": "witch,moat,library,smithy"})
ON = {"attacked_at": 1.0, "moat_attacked_share": 0.15, "attacked_priority": 7.0}


def _games(params: dict, opponent: str, count: int = 60) -> np.ndarray:
    bots = [BotSpec("heuristic", params), BotSpec(opponent)]
    out = GAME.play(bots, OPTIONS, 11, 0, count)
    return np.concatenate([out.score, out.turns[:, None]], axis=1)


def test_off_by_default_and_the_same_buy_list():
    default = HeuristicBot().buylist()
    assert all(c.var != "attacks" for r in default.rules for c in r.conditions)
    off = {**ON, "attacked_at": 0.0, "library_attacked_share": 0.3}
    assert HeuristicBot(make_params(HeuristicParams, off)).buylist() == default
    on = HeuristicBot(make_params(HeuristicParams, ON)).buylist()
    moat = [r for r in on.rules if r.card == "moat"]
    assert [str(c) for c in moat[0].conditions] == [
        "Condition(var='attacks', op='>=', value=1.0)",
        "Condition(var='share', op='<', value=0.15)"]


def test_the_term_changes_buys_against_attacks_only():
    assert not np.array_equal(_games(ON, "double-witch"), _games({}, "double-witch"))
    assert np.array_equal(_games(ON, "smithy-big-money"), _games({}, "smithy-big-money"))


def test_the_term_is_a_named_tunable_parameter():
    res = GAME.check_bot(GAME.parse_bot("heuristic:attacked_at=2,library_attacked_share=0.1"))
    assert res.params == {"attacked_at": 2, "library_attacked_share": 0.1}
    with pytest.raises(registry.InputError, match="attacked_at"):
        GAME.parse_bot("heuristic:attacked_at=11")
