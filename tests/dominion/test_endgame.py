"""The learned bot's estimated endgame: final rewards with the tie-break, the estimated
chance that the opponent's deck pays for the last gain (five random cards, no draws), and
the buys these lead to."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from games.core import BotSpec, InputError
from games.dominion._cards import DEFAULT_KINGDOM, INDEX, NC, initial_supply
from games.dominion._engine import (
    END_PROVINCES,
    END_STANDARD,
    LP_END_RULE,
    LP_ENDGAME,
    LP_MARGIN,
    LP_TIEBREAK,
    NLP,
    OWNED,
    TURNS,
)
from games.dominion._features import NF
from games.dominion._kernel import (
    MONEY_CAP,
    afford_chances,
    endgame_value,
    final_reward,
    learned_buy,
    new_record,
)

W = np.zeros(NF)  # every learned value 0: what the bot buys is the endgame's doing


def _state(me: dict[str, int], opp: dict[str, int], provinces: int, turns=(10, 10)):
    zones = np.zeros((2, 4, NC), dtype=np.int64)
    for p, cards in enumerate((me, opp)):
        for name, n in cards.items():
            zones[p, OWNED, INDEX[name]] = n
    pinfo = np.zeros((2, 2), dtype=np.int64)
    pinfo[:, TURNS] = turns
    piles = np.zeros((2, NC), dtype=np.int64)
    piles[0] = initial_supply(2, DEFAULT_KINGDOM)
    piles[0, INDEX["province"]] = provinces
    return zones, pinfo, piles


def _lp(endgame=True, tiebreak=True, end_rule=END_STANDARD) -> np.ndarray:
    lp = np.zeros(NLP)
    lp[LP_ENDGAME] = 1.0 if endgame else 0.0
    lp[LP_MARGIN] = 0.01
    lp[LP_END_RULE] = end_rule
    lp[LP_TIEBREAK] = 1.0 if tiebreak else 0.0
    return lp


def _buy(zones, pinfo, piles, coins, p=0, **kw) -> str:
    ts = np.array([0, 1, coins], dtype=np.int64)
    c = learned_buy(p, -2, W, _lp(**kw), zones, pinfo, piles, ts,
                    np.array([7], dtype=np.uint64), new_record(1)[0])
    return "nothing" if c < 0 else [k for k, v in INDEX.items() if v == c][0]


RICH = {"copper": 7, "gold": 6, "estate": 3}


def test_the_last_province_is_bought_only_when_it_wins():
    # behind by 3 with one Province left: it ends the game and wins
    z = _state({"estate": 3, "province": 3}, {**RICH, "province": 3, "duchy": 1}, 1)
    assert _buy(*z, 8) == "province"
    assert _buy(*z, 8, endgame=False) == "nothing"  # a flat learned value sees no difference
    # behind by 7: the Province would end the game lost; a Duchy keeps it going
    z = _state({"estate": 3, "province": 3}, {**RICH, "province": 4, "estate": 4}, 1)
    assert _buy(*z, 8) == "duchy"


def test_a_tie_goes_to_the_player_with_fewer_turns():
    # level after the last Province: the first player has taken one turn more and loses
    me, opp = {"estate": 3, "province": 3}, {**RICH, "province": 4}
    z = _state(me, opp, 1)
    zones, pinfo, _ = z
    zones[0, OWNED, INDEX["province"]] += 1  # as if p gained the last Province
    assert final_reward(0, -1, 0, True, 0.01, zones, pinfo) == -1.0
    second = pinfo.copy()
    second[1, TURNS] += 1  # p moves second: turns are level after its turn, the tie shared
    assert final_reward(0, -1, 0, True, 0.01, zones, second) == 0.0
    assert final_reward(0, -1, 0, False, 0.01, zones, pinfo) == 0.0  # shared without it
    zones[0, OWNED, INDEX["province"]] -= 1
    assert _buy(*z, 8) != "province"
    assert _buy(*z, 8, tiebreak=False) == "province"  # a shared win beats a likely loss
    # after q's next turn (q gained nothing here): behind by 6
    assert final_reward(0, 1, 0, True, 0.01, zones, pinfo) == pytest.approx(-1.06)


def test_the_penultimate_province_is_left_when_it_hands_over_the_game():
    # behind by 3 with two Provinces left: a Province leaves one, which a rich opponent
    # buys to win; a Duchy levels the score and leaves two
    z = _state({"estate": 3, "province": 3}, {**RICH, "province": 3, "duchy": 1}, 2)
    assert _buy(*z, 8) != "province"
    province = INDEX["province"]
    risky = endgame_value(0, province, 0.3, _lp(), *z, np.full(MONEY_CAP + 1, -1.0))
    assert -1.03 < risky < 0.3  # a chance of losing by 3, else the learned value
    assert endgame_value(0, INDEX["duchy"], 0.3, _lp(), *z, np.full(MONEY_CAP + 1, -1.0)) == 0.3
    # against a deck that never reaches $8 the Province costs nothing
    z = _state({"estate": 3, "province": 3}, {"copper": 7, "estate": 4, "province": 3}, 2)
    assert endgame_value(0, province, 0.3, _lp(), *z, np.full(MONEY_CAP + 1, -1.0)) == 0.3


def test_three_piles_end_the_game_only_under_the_standard_rule():
    # two piles empty, one Smithy left, one VP ahead: the Smithy ends the game and wins
    z = _state({"estate": 4, "province": 3}, {**RICH, "province": 3}, 4)
    for name, n in (("smithy", 1), ("village", 0), ("market", 0)):
        z[2][0, INDEX[name]] = n
    assert _buy(*z, 4) == "smithy"
    assert _buy(*z, 4, end_rule=END_PROVINCES) == "nothing"


@pytest.mark.parametrize("deck", [{"copper": 7, "estate": 3},
                                  {"copper": 7, "silver": 3, "gold": 2, "estate": 3},
                                  {"copper": 2, "gold": 2}])
def test_afford_chances_are_the_draw_of_five_cards(deck):
    zones = np.zeros((2, 4, NC), dtype=np.int64)
    cards = []
    for name, n in deck.items():
        zones[1, OWNED, INDEX[name]] = n
        cards += [{"copper": 1, "silver": 2, "gold": 3}.get(name, 0)] * n
    out = np.zeros(MONEY_CAP + 1)
    afford_chances(1, zones, out)
    k = min(5, len(cards))
    hands = [sum(h) for h in combinations(range(len(cards)), k)]
    want = np.bincount([min(sum(cards[i] for i in h), MONEY_CAP)
                        for h in combinations(range(len(cards)), k)],
                       minlength=MONEY_CAP + 1) / len(hands)
    assert np.allclose(out, want) and abs(out.sum() - 1.0) < 1e-12


def test_the_estimate_ignores_what_actions_draw():
    # named "estimated" because it is one: a Smithy (worth $0 in five cards) changes nothing,
    # though a hand holding it sees eight cards and reaches $8 more often
    with_smithy, with_estate = np.zeros(MONEY_CAP + 1), np.zeros(MONEY_CAP + 1)
    for out, extra in ((with_smithy, "smithy"), (with_estate, "estate")):
        zones = np.zeros((2, 4, NC), dtype=np.int64)
        for name, n in (("copper", 7), ("silver", 6), ("gold", 3), ("estate", 3),
                        ("province", 4), ("duchy", 1), (extra, 1)):
            zones[1, OWNED, INDEX[name]] += n
        afford_chances(1, zones, out)
    assert np.array_equal(with_smithy, with_estate) and 0.15 < with_smithy[8:].sum() < 0.25


def test_the_former_name_exact_still_plays_the_estimated_endgame():
    from games.dominion._bots import build_bot
    from games.dominion._learned import LearnedPlayParams

    assert LearnedPlayParams().endgame == "estimated"
    bots = [build_bot(BotSpec("learned", {"weights": W, "endgame": e}))
            for e in ("estimated", "exact", "learned")]
    assert [b.endgame for b in bots] == [True, True, False]
    with pytest.raises(InputError, match="use estimated or learned"):
        build_bot(BotSpec("learned", {"weights": W, "endgame": "maybe"}))
