"""Each kingdom card's effect on a constructed state, and the rule edge cases."""

from __future__ import annotations

import numpy as np
import pytest

from games.dominion._cards import INDEX, card_index, initial_supply
from games.dominion._engine import (
    ACT_STATIC,
    ACTIONS,
    BUYS,
    COINS,
    DISCARD,
    DLEN,
    END_PROVINCES,
    END_STANDARD,
    HAND,
    ST_COINS,
    ST_DRAW,
    ST_TRASH,
    TURNS,
    draw_cards,
    gains_to_end,
    game_over,
    hand_money,
    steward_choice,
    victory_points,
)
from games.dominion._kernel import score_game
from games.dominion._kingdoms import parse_kingdom
from games.dominion._play import action_phase
from tests.dominion.state import State

DECK = ["silver", "gold", "estate", "copper", "duchy", "copper"]

# card: (hand size change after playing it, actions left, buys, coins) from 1 action, 1 buy
EFFECTS = {
    "village": (1 - 1, 2, 1, 0),
    "woodcutter": (-1, 0, 2, 2),
    "great-hall": (1 - 1, 1, 1, 0),
    "smithy": (3 - 1, 0, 1, 0),
    "workers-village": (1 - 1, 2, 2, 0),
    "laboratory": (2 - 1, 1, 1, 0),
    "market": (1 - 1, 1, 2, 1),
    "festival": (-1, 2, 2, 2),
    "bazaar": (1 - 1, 2, 1, 1),
}


@pytest.mark.parametrize("card", sorted(EFFECTS))
def test_kingdom_card_primitives(card):
    s = State().hand(**{card.replace("-", "_"): 1}, copper=2).deck(DECK)
    before = s.hand_size()
    s.play(card)
    d_hand, actions, buys, coins = EFFECTS[card]
    assert s.hand_size() - before == d_hand
    assert (s.ts[ACTIONS], s.ts[BUYS], s.ts[COINS]) == (actions, buys, coins)
    assert s.in_play(card) == 1
    drawn = d_hand + 1
    assert s.pinfo[0, DLEN] == len(DECK) - drawn
    if drawn:  # cards come off the top of the deck, in order
        assert s.count(HAND, "silver") == 1


def test_steward_three_modes():
    s = State().hand(steward=1, estate=2, copper=2).deck(DECK)
    s.play_choosing("steward", "choose trash", "trash estate", "trash estate")
    assert s.count(HAND, "estate") == 0 and s.count(HAND, "copper") == 2
    assert s.piles[1, INDEX["estate"]] == 2 and s.zones[0, 3, INDEX["estate"]] == 1
    s = State().hand(steward=1).deck(DECK)
    s.play_choosing("steward", "choose cards")
    assert s.hand_size() == 2 and s.count(HAND, "gold") == 1
    s = State().hand(steward=1).deck(DECK)
    s.play_choosing("steward", "choose coins")
    assert s.ts[COINS] == 2 and s.hand_size() == 0


def test_steward_trashing_with_fewer_than_two_cards():
    s = State().hand(steward=1, estate=1).deck(DECK)
    s.play_choosing("steward", "choose trash")
    assert s.hand_size() == 0 and s.piles[1].sum() == 1
    s = State().hand(steward=1).deck(DECK)
    s.play_choosing("steward", "choose trash")
    assert s.hand_size() == 0 and s.piles[1].sum() == 0
    assert s.in_play("steward") == 1  # the Steward itself is never trashed


def test_steward_trashes_the_two_cards_chosen():
    s = State().hand(steward=1, gold=1, copper=1, estate=1, silver=1).discard(copper=3)
    s.play_choosing("steward", "choose trash", "trash estate", "trash copper")
    assert s.count(HAND, "gold") == 1 and s.count(HAND, "silver") == 1
    assert s.piles[1].sum() == 2 and s.count(HAND, "estate") == 0


def test_shared_steward_rule():
    # two Estates in hand: trash
    s = State().hand(steward=1, estate=2, copper=2).discard(copper=5)
    assert steward_choice(0, s.zones, s.pinfo, s.ts) == ST_TRASH
    # Coppers are only trashed while five treasures remain
    s = State().hand(steward=1, copper=2, silver=1).discard(estate=3)
    assert steward_choice(0, s.zones, s.pinfo, s.ts) != ST_TRASH
    # $6-7 in hand: take the coins
    s = State().hand(steward=1, gold=2, estate=1).discard(copper=5)
    assert steward_choice(0, s.zones, s.pinfo, s.ts) == ST_COINS
    # else draw, unless fewer than two cards are left to draw
    s = State().hand(steward=1, silver=1, estate=1).discard(copper=5)
    assert steward_choice(0, s.zones, s.pinfo, s.ts) == ST_DRAW
    s = State().hand(steward=1, silver=1, estate=1).discard(copper=1)
    assert steward_choice(0, s.zones, s.pinfo, s.ts) == ST_COINS


def test_draw_with_empty_deck_and_discard():
    s = State().hand(smithy=1)
    s.play("smithy")
    assert s.hand_size() == 0 and s.pinfo[0, DLEN] == 0
    s = State()
    assert draw_cards(0, 5, s.zones, s.draw, s.pinfo, s.rng) == 0


def test_draw_shuffles_discard_only_when_deck_runs_out():
    s = State().deck(["gold"]).discard(copper=3, estate=2)
    assert draw_cards(0, 3, s.zones, s.draw, s.pinfo, s.rng) == 3
    assert s.count(HAND, "gold") == 1  # the old deck first
    assert s.zones[0, DISCARD].sum() == 0 and s.pinfo[0, DLEN] == 3
    assert s.count(HAND, "copper") + s.count(HAND, "estate") == 2


def test_harem_is_treasure_and_victory():
    s = State().hand(harem=1, copper=1)
    assert hand_money(0, s.zones) == 3
    assert victory_points(0, s.zones) == 2


def test_great_hall_point_and_basic_points():
    s = State().hand(great_hall=1, estate=1, duchy=1, province=1)
    assert victory_points(0, s.zones) == 1 + 1 + 3 + 6


def test_action_player_plays_villages_before_terminals():
    s = State().hand(smithy=1, village=1).deck(DECK + ["copper"] * 5)
    action_phase(0, ACT_STATIC, 4.0, 1.0, *s.args())
    assert s.in_play("village") == 1 and s.in_play("smithy") == 1
    assert s.ts[ACTIONS] == 1


def test_action_player_draws_before_money():
    s = State().hand(smithy=1, woodcutter=1).deck(DECK)
    action_phase(0, ACT_STATIC, 4.0, 1.0, *s.args())
    assert s.in_play("smithy") == 1 and s.in_play("woodcutter") == 0


def test_game_ends_on_three_empty_piles_or_provinces():
    piles = np.zeros((2, len(INDEX)), dtype=np.int64)
    piles[0] = initial_supply(2, parse_kingdom(None))
    assert not game_over(piles, END_STANDARD)
    piles[0, INDEX["smithy"]] = 0
    piles[0, INDEX["village"]] = 0
    assert not game_over(piles, END_STANDARD)
    assert gains_to_end(piles) == piles[0, INDEX["great-hall"]]  # 0 + 0 + smallest (8)
    piles[0, INDEX["market"]] = 0
    assert game_over(piles, END_STANDARD)
    assert not game_over(piles, END_PROVINCES)  # the blog's rule: Provinces only
    piles[0, INDEX["province"]] = 0
    assert game_over(piles, END_PROVINCES)


def test_tie_break_on_turns():
    s = State(players=2).hand(0, province=1).hand(1, province=1)
    outcome = np.zeros(2, dtype=np.int8)
    vp = np.zeros(2, dtype=np.int64)
    s.pinfo[0, TURNS], s.pinfo[1, TURNS] = 15, 14   # first player ended the game
    score_game(s.zones, s.pinfo, True, outcome, vp)
    assert list(outcome) == [-1, 1]
    score_game(s.zones, s.pinfo, False, outcome, vp)
    assert list(outcome) == [0, 0]
    s.pinfo[0, TURNS] = 14
    score_game(s.zones, s.pinfo, True, outcome, vp)
    assert list(outcome) == [0, 0]
    s.zones[1, 3, INDEX["estate"]] += 1  # more points beat fewer turns
    s.pinfo[1, TURNS] = 15
    score_game(s.zones, s.pinfo, True, outcome, vp)
    assert list(outcome) == [-1, 1] and list(vp) == [6, 7]


def test_supply_sizes():
    two = initial_supply(2, ("great-hall", "smithy"))
    three = initial_supply(3, ("great-hall", "smithy"))
    assert two[INDEX["province"]] == 8 and three[INDEX["province"]] == 12
    assert two[INDEX["great-hall"]] == 8 and three[INDEX["great-hall"]] == 12
    assert two[INDEX["smithy"]] == 10 and two[INDEX["copper"]] == 46
    assert two[INDEX["village"]] == -1
    assert two[INDEX["curse"]] == 10 and three[INDEX["curse"]] == 20  # 10 per other player
    assert card_index("Worker's Village") == INDEX["workers-village"]
