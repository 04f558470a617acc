"""The base set's cards against their text (2nd edition), on hand-built states, and whole
games with attacks; decisions are the defaults of games.dominion._decisions unless set."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import BotSpec, InputError
from games.dominion._bots import compile_bots
from games.dominion._cards import INDEX, NC, VP, initial_supply
from games.dominion._decisions import (
    DP_VICTIM_ACTION_COST,
    check_decision,
    default_play_order,
    play_order,
)
from games.dominion._engine import (
    ACTIONS,
    BUYS,
    COINS,
    DISCARD,
    DLEN,
    END_STANDARD,
    HAND,
    MERCHANTS,
    OWNED,
    PLAY,
    game_over,
    victory_points,
)
from games.dominion._kernel import new_record, new_state, setup_game
from games.dominion._play import play_card, play_treasures, take_turn
from tests.dominion.state import State

DECK = ["copper"] * 10


def test_curse_pile_is_ten_per_other_player_and_victory_piles_eight_or_twelve():
    for players, curses, victory in ((2, 10, 8), (3, 20, 12), (4, 30, 12)):
        s = initial_supply(players, ("gardens", "witch"))
        assert s[INDEX["curse"]] == curses
        assert s[INDEX["gardens"]] == s[INDEX["province"]] == victory
        assert s[INDEX["witch"]] == 10
    assert initial_supply(1, ("witch",))[INDEX["curse"]] == -1  # solo: no pile at all


def test_three_pile_ending_counts_the_curse_pile():
    piles = np.zeros((2, NC), dtype=np.int64)
    piles[0] = initial_supply(2, ("witch", "moat"))
    piles[0, INDEX["moat"]] = 0
    piles[0, INDEX["estate"]] = 0
    assert not game_over(piles, END_STANDARD)
    piles[0, INDEX["curse"]] = 0
    assert game_over(piles, END_STANDARD)


@pytest.mark.parametrize("cards, vp", [(9, 0), (10, 1), (19, 1), (20, 2), (39, 3)])
def test_gardens_score_one_point_per_whole_ten_cards(cards, vp):
    s = State(kingdom=("gardens",)).hand(gardens=1, copper=cards - 1)
    assert victory_points(0, s.zones) == vp
    s.discard(gardens=1)  # two Gardens, one card more
    assert victory_points(0, s.zones) == 2 * ((cards + 1) // 10)


def test_militia_makes_five_cards_three_by_the_junk_order_and_moat_blocks_it():
    s = State(players=3, kingdom=("militia", "moat")).hand(militia=1)
    s.hand(1, estate=1, duchy=1, copper=2, silver=1)
    s.hand(2, moat=1, estate=1, copper=3)
    s.play("militia")
    assert s.ts[COINS] == 2
    assert s.count(HAND, "estate", 1) == s.count(HAND, "duchy", 1) == 0
    assert s.hand_size(1) == 3 and s.count(HAND, "silver", 1) == 1
    assert s.hand_size(2) == 5  # revealed Moat


def test_militia_victim_discards_cheap_actions_before_copper_when_set():
    s = State(players=2, kingdom=("militia", "village")).hand(militia=1)
    s.hand(1, village=1, copper=3, silver=1)
    s.play("militia")
    assert s.count(HAND, "village", 1) == 1 and s.count(HAND, "copper", 1) == 1
    s = State(players=2, kingdom=("militia", "village")).hand(militia=1)
    s.hand(1, village=1, copper=3, silver=1)
    dp, po, dps, seats, rules, nrule = s.bot_rows()
    dps[1, DP_VICTIM_ACTION_COST] = 4  # the row of seat 1
    play_card(0, INDEX["militia"], 0, dp, po, dps, seats, rules, nrule, *s.args())
    assert s.count(HAND, "village", 1) == 0 and s.count(HAND, "copper", 1) == 2


def test_witch_curses_each_other_player_in_turn_order_while_curses_last():
    s = State(players=3, kingdom=("witch",)).hand(witch=1).deck(DECK)
    s.piles[0, INDEX["curse"]] = 1
    s.play("witch")
    assert s.hand_size() == 2
    assert s.count(OWNED, "curse", 1) == 1 and s.count(OWNED, "curse", 2) == 0
    assert s.piles[0, INDEX["curse"]] == 0
    s = State(players=3, kingdom=("witch",)).hand(witch=1).deck(DECK)
    s.hand(1, moat=1).hand(2, copper=1)
    s.play("witch")
    assert s.count(DISCARD, "curse", 1) == 0 and s.count(DISCARD, "curse", 2) == 1


def test_throne_room_on_throne_room_plays_two_actions_twice():
    s = State(kingdom=("throne-room", "village", "smithy")).deck(DECK)
    s.hand(throne_room=2, village=1, smithy=1)
    s.act()
    assert s.in_play("throne-room") == 2 and s.in_play("village") == 1
    assert s.in_play("smithy") == 1
    assert s.hand_size() == 2 + 6  # Village twice (+1 card each), Smithy twice (+3 each)
    assert s.ts[ACTIONS] == 4  # 1 - 1 for the Throne Room, + 2 + 2 from Village


def test_throne_room_doubles_the_first_action_in_play_order_or_the_dearest():
    s = State(players=2, kingdom=("throne-room", "witch", "moat")).deck(DECK)
    s.hand(throne_room=1, witch=1, moat=1).hand(1, copper=1)
    s.act()
    assert s.count(OWNED, "curse", 1) == 2 and s.in_play("moat") == 0
    s = State(players=2, kingdom=("throne-room", "witch", "moat")).deck(DECK)
    s.hand(throne_room=1, witch=1, moat=1).hand(1, copper=1)
    s.act(order=("throne-room", "moat", "witch"))
    assert s.in_play("moat") == 1 and s.count(OWNED, "curse", 1) == 0
    s = State(players=2, kingdom=("throne-room", "witch", "moat")).deck(DECK)
    s.hand(throne_room=1, witch=1, moat=1).hand(1, copper=1)
    s.act(order=("throne-room", "moat", "witch"), throne_target=1)
    assert s.count(OWNED, "curse", 1) == 2


def test_throne_room_alone_is_not_played():
    s = State(kingdom=("throne-room",)).hand(throne_room=1, copper=4)
    s.act()
    assert s.in_play("throne-room") == 0 and s.ts[ACTIONS] == 1


def test_library_draws_to_seven_setting_aside_actions_when_none_can_be_played():
    deck = ["village", "copper", "smithy", "copper", "silver", "copper", "gold", "estate"]
    s = State(kingdom=("library", "village", "smithy")).hand(library=1, copper=2).deck(deck)
    s.play("library")
    assert s.hand_size() == 7 and s.count(HAND, "village") == 0
    assert s.count(DISCARD, "village") == 1 and s.count(DISCARD, "smithy") == 1
    assert s.count(HAND, "gold") == 1 and s.top(1) == ["estate"]
    s = State(kingdom=("library", "village", "smithy")).hand(library=1, copper=2).deck(deck)
    s.play("library", library_set_aside=0)
    assert s.count(HAND, "village") == 1 and s.count(HAND, "smithy") == 1
    assert s.hand_size() == 7 and s.top(1) == ["copper"]


def _coins_after_buy_phase(s: State) -> int:
    play_treasures(0, s.zones, s.ts)
    return int(s.ts[COINS])


def test_merchant_bonus_only_on_the_first_silver_per_merchant_played():
    s = State(kingdom=("merchant",)).hand(merchant=2).deck(["silver", "silver"])
    s.act()
    assert s.ts[MERCHANTS] == 2 and s.count(HAND, "silver") == 2
    assert _coins_after_buy_phase(s) == 2 + 2 + 2  # two Silvers, +$1 per Merchant once
    s = State(kingdom=("merchant",)).hand(merchant=1).deck(["copper", "gold"])
    s.act()
    assert _coins_after_buy_phase(s) == 1  # no Silver: no bonus (Gold not drawn)


def test_poacher_discards_one_card_per_empty_supply_pile():
    s = State(kingdom=("poacher", "moat")).hand(poacher=1, estate=1, copper=2, gold=1)
    s.deck(["silver"])
    s.piles[0, INDEX["moat"]] = 0
    s.piles[0, INDEX["duchy"]] = 0
    s.play("poacher")
    assert s.ts[COINS] == 1 and s.ts[ACTIONS] == 1
    assert s.count(DISCARD, "estate") == 1 and s.count(DISCARD, "copper") == 1
    assert s.hand_size() == 3  # 4 + 1 drawn - 2 discarded


def test_vassal_plays_the_discarded_action_without_spending_an_action():
    s = State(kingdom=("vassal", "smithy")).hand(vassal=1).deck(["smithy"] + DECK)
    s.play("vassal")
    assert s.ts[COINS] == 2 and s.in_play("smithy") == 1 and s.hand_size() == 3
    assert s.ts[ACTIONS] == 0
    s = State(kingdom=("vassal", "smithy")).hand(vassal=1).deck(["smithy"] + DECK)
    s.play("vassal", vassal_play=0)
    assert s.count(DISCARD, "smithy") == 1 and s.hand_size() == 0
    s = State(kingdom=("vassal",)).hand(vassal=1).deck(["gold", "copper"])
    s.play("vassal")
    assert s.count(DISCARD, "gold") == 1 and s.top(1) == ["copper"]


def test_sentry_trashes_curses_and_estates_discards_coppers_keeps_the_rest():
    s = State(kingdom=("sentry",)).hand(sentry=1).deck(["silver", "estate", "copper", "gold"])
    s.play("sentry")
    assert s.count(HAND, "silver") == 1 and s.ts[ACTIONS] == 1
    assert s.piles[1, INDEX["estate"]] == 1 and s.count(DISCARD, "copper") == 1
    assert s.top(1) == ["gold"] and s.pinfo[0, DLEN] == 1
    s = State(kingdom=("sentry",)).hand(sentry=1).deck(["silver", "gold", "laboratory",
                                                         "copper"])
    s.play("sentry")
    assert s.top(2) == ["gold", "laboratory"]  # put back in their order
    s = State(kingdom=("sentry",)).hand(sentry=1).deck(["silver", "curse", "copper"])
    s.discard(copper=8)
    s.play("sentry", sentry_coppers=2, chapel_money_floor=6)
    assert s.piles[1, INDEX["curse"]] == 1 and s.piles[1, INDEX["copper"]] == 1


def test_harbinger_tops_the_dearest_card_of_the_discard_pile():
    s = State(kingdom=("harbinger",)).hand(harbinger=1).deck(["copper"])
    s.discard(gold=1, silver=1, province=1, copper=3)
    s.play("harbinger")
    assert s.ts[ACTIONS] == 1 and s.top(1) == ["gold"] and s.count(DISCARD, "gold") == 0
    s = State(kingdom=("harbinger",)).hand(harbinger=1).deck(["copper"])
    s.discard(copper=3, estate=2)
    s.play("harbinger")
    assert s.pinfo[0, DLEN] == 0  # nothing costing $3 or more


def test_bandit_gains_gold_and_trashes_a_silver_or_gold_never_copper():
    s = State(players=3, kingdom=("bandit",)).hand(bandit=1)
    s.deck(["gold", "silver"], p=1).deck(["copper", "estate"], p=2)
    s.play("bandit")
    assert s.count(DISCARD, "gold") == 1
    assert s.piles[1, INDEX["silver"]] == 1 and s.count(DISCARD, "gold", 1) == 1
    assert s.count(OWNED, "silver", 1) == 0
    assert s.piles[1, INDEX["copper"]] == 0 and s.count(DISCARD, "copper", 2) == 1
    assert s.count(DISCARD, "estate", 2) == 1


def test_bureaucrat_gains_silver_onto_the_deck_and_victims_top_a_victory_card():
    s = State(players=3, kingdom=("bureaucrat",)).hand(bureaucrat=1).deck(["copper"])
    s.hand(1, duchy=1, estate=1, copper=3).hand(2, copper=5)
    s.play("bureaucrat")
    assert s.top(1) == ["silver"] and s.count(OWNED, "silver") == 1
    assert s.top(1, p=1) == ["estate"] and s.hand_size(1) == 4
    assert s.hand_size(2) == 5 and s.pinfo[2, DLEN] == 0


def test_council_room_draws_four_and_each_other_player_one():
    s = State(players=3, kingdom=("council-room",)).hand(council_room=1).deck(DECK)
    s.deck(["gold"], p=1).deck(["gold"], p=2)
    s.play("council-room")
    assert s.hand_size() == 4 and s.ts[BUYS] == 2
    assert s.count(HAND, "gold", 1) == 1 and s.count(HAND, "gold", 2) == 1


def test_chapel_trashes_curses_estates_then_coppers_down_to_the_money_floor():
    s = State(kingdom=("chapel",)).hand(chapel=1, curse=1, estate=2, copper=3)
    s.discard(copper=4)  # seven Coppers owned: $7
    s.play("chapel")
    assert s.piles[1, INDEX["curse"]] == 1 and s.piles[1, INDEX["estate"]] == 2
    assert s.piles[1, INDEX["copper"]] == 1  # four cards at most
    s = State(kingdom=("chapel",)).hand(chapel=1, copper=4).discard(copper=3)
    s.play("chapel", chapel_money_floor=5)
    assert s.piles[1, INDEX["copper"]] == 2 and s.count(OWNED, "copper") == 5


def test_moneylender_trashes_a_copper_for_three():
    s = State(kingdom=("moneylender",)).hand(moneylender=1, copper=2)
    s.play("moneylender")
    assert s.ts[COINS] == 3 and s.count(HAND, "copper") == 1
    s = State(kingdom=("moneylender",)).hand(moneylender=1, estate=2)
    s.play("moneylender")
    assert s.ts[COINS] == 0


def test_remodel_gold_into_province_late_else_estate_into_the_buy_lists_four():
    s = State(kingdom=("remodel", "smithy")).hand(remodel=1, gold=1, estate=1)
    s.piles[0, INDEX["province"]] = 3
    s.play("remodel", buylist="province | gold | smithy | silver")
    assert s.count(OWNED, "province") == 1 and s.count(OWNED, "gold") == 0
    s = State(kingdom=("remodel", "smithy")).hand(remodel=1, gold=1, estate=1)
    s.play("remodel", buylist="province | gold | smithy | silver")
    assert s.count(OWNED, "estate") == 0 and s.count(DISCARD, "smithy") == 1
    assert s.count(OWNED, "gold") == 1  # eight Provinces left: Gold stays


def test_remodel_is_played_only_with_something_to_remodel():
    s = State(kingdom=("remodel",)).hand(remodel=1, copper=3, silver=1)
    s.act()
    assert s.in_play("remodel") == 0


def test_mine_turns_silver_into_gold_in_hand_else_copper_into_silver():
    s = State(kingdom=("mine",)).hand(mine=1, silver=1, copper=1)
    s.play("mine")
    assert s.count(HAND, "gold") == 1 and s.count(HAND, "silver") == 0
    s = State(kingdom=("mine",)).hand(mine=1, copper=2)
    s.play("mine")
    assert s.count(HAND, "silver") == 1 and s.count(HAND, "copper") == 1


def test_workshop_gains_what_the_buy_list_buys_with_four():
    s = State(kingdom=("workshop", "gardens")).hand(workshop=1)
    s.play("workshop", buylist="province | gardens | workshop | estate@gains<=6 | copper")
    assert s.count(DISCARD, "gardens") == 1
    s = State(kingdom=("workshop", "smithy")).hand(workshop=1)
    s.play("workshop", buylist="province")  # nothing matches: the dearest card that fits
    assert s.count(DISCARD, "smithy") == 1


def test_remodel_of_a_curse_must_gain_a_copper_when_the_buy_list_wants_nothing():
    s = State(kingdom=("remodel", "smithy")).hand(remodel=1, curse=1, copper=2)
    s.play("remodel", buylist="province | gold | silver")  # Big Money: nothing at $2
    assert s.count(OWNED, "curse") == 0 and s.piles[1, INDEX["curse"]] == 1
    assert s.count(DISCARD, "copper") == 1 and s.count(OWNED, "copper") == 3
    assert s.piles[0, INDEX["copper"]] == s.supply0[INDEX["copper"]] - 1


def test_workshop_falls_back_to_the_dearest_useful_card_then_copper_estate_curse():
    s = State(players=2, kingdom=("workshop", "cellar")).hand(workshop=1)
    s.piles[0, INDEX["silver"]] = s.piles[0, INDEX["workshop"]] = 0
    s.play("workshop", buylist="province | gold")  # nothing matches: Cellar, not Copper
    assert s.count(DISCARD, "cellar") == 1 and s.count(DISCARD, "copper") == 0
    s.piles[0, INDEX["cellar"]] = 0  # only Coppers, Estates and Curses fit $4 now
    for gained in ("copper", "estate", "curse", None):
        before = s.zones[0, DISCARD].copy()
        s.zones[0, HAND, INDEX["workshop"]] += 1
        s.zones[0, OWNED, INDEX["workshop"]] += 1
        s.play("workshop", buylist="province | gold")
        got = s.zones[0, DISCARD] - before
        if gained is None:  # no supply pile holds a card that fits: nothing
            assert got.sum() == 0
        else:
            assert got[INDEX[gained]] == 1 and got.sum() == 1
            s.piles[0, INDEX[gained]] = 0


def test_artisan_gains_into_hand_and_tops_a_card():
    s = State(kingdom=("artisan", "laboratory")).hand(artisan=1, estate=1, copper=1)
    s.ts[ACTIONS] = 2
    s.play("artisan", buylist="laboratory | silver")
    assert s.count(OWNED, "laboratory") == 1
    assert s.top(1) == ["estate"] and s.count(HAND, "laboratory") == 1
    s = State(kingdom=("artisan", "laboratory")).hand(artisan=1, estate=1, copper=1)
    s.play("artisan", buylist="laboratory | silver")
    assert s.top(1) == ["laboratory"]  # no action left to play it now


def test_cellar_discards_junk_and_draws_as_many():
    s = State(kingdom=("cellar",)).hand(cellar=1, estate=2, curse=1, copper=1).deck(
        ["gold", "silver", "silver", "copper"])
    s.play("cellar")
    assert s.ts[ACTIONS] == 1 and s.hand_size() == 4
    assert s.count(DISCARD, "estate") == 2 and s.count(HAND, "gold") == 1


def test_moat_draws_two():
    s = State(kingdom=("moat",)).hand(moat=1).deck(DECK)
    s.play("moat")
    assert s.hand_size() == 2 and s.ts[ACTIONS] == 0


def test_decision_errors_name_the_parameter_and_its_range():
    with pytest.raises(InputError, match=r"chapel_max = 5: expected int in \[0, 4\]"):
        check_decision("chapel_max", 5)
    with pytest.raises(InputError, match="unknown decision parameter 'nope'"):
        check_decision("nope", 1)
    with pytest.raises(InputError, match="not an Action"):
        play_order(["gold"])
    assert default_play_order()[0] == INDEX["throne-room"]


@pytest.mark.parametrize("given, shown", [("9", "9"), (" 9 ", "9"), (9, "9"),
                                          (np.int64(9), "9"), (9.0, "9.0"), ("2.5", "2.5"),
                                          (2.5, "2.5"), ("x", "x")])
def test_a_refused_decision_value_is_shown_as_given(given, shown):
    """Text from the command line is named as typed, not as the float it is stored as, and
    a non-integer for an int parameter is refused like a value out of range."""
    with pytest.raises(InputError) as err:
        check_decision("chapel_max", given)
    assert str(err.value) == f"decision parameter chapel_max = {shown}: expected int in [0, 4]"
    assert check_decision("chapel_max", "3") == check_decision("chapel_max", 3.0) == 3.0


def test_a_strategys_set_section_names_a_refused_value_as_written():
    from games.dominion._strategy import parse_strategy

    for text in ("9", "2.5"):
        with pytest.raises(InputError, match=rf"^decision parameter chapel_max = {text}: "):
            parse_strategy(f"province | chapel | silver | set: chapel_max={text}")


def _play_mirror(buylist: str, kingdom: tuple[str, ...], games: int, players: int = 2,
                 bots: list[BotSpec] | None = None):
    """Whole games by take_turn, cards checked after every turn; yields each final state."""
    supply = initial_supply(players, kingdom)
    bots = bots or [BotSpec(f"bot{k}", genome=buylist) for k in range(players)]
    comp = compile_bots(bots, supply)
    zones, draw, pinfo, piles, ts, rng = new_state(players, supply)
    seats = np.arange(players, dtype=np.int64)
    total = np.where(supply >= 0, supply, 0)
    total[INDEX["copper"]] += 7 * players
    total[INDEX["estate"]] += 3 * players
    for game in range(games):
        setup_game(np.uint64(500 + game), supply, 5, zones, draw, pinfo, piles, rng)
        for turn in range(100 * players):
            p = turn % players
            take_turn(p, p, comp.rules, comp.nrules, comp.amode, comp.bmode, comp.fparams,
                      comp.weights, comp.lparams, comp.dparams, comp.porder, seats, zones,
                      draw, pinfo, piles, ts, rng, *new_record(0))
            held = zones[:, OWNED].sum(axis=0)
            assert np.array_equal(held + np.maximum(piles[0], 0) + piles[1], total)
            assert zones.min() >= 0 and piles[0].min() >= -1
            for q in range(players):
                counts = zones[q, DISCARD] + zones[q, HAND] + zones[q, PLAY]
                counts = counts + np.bincount(draw[q, :pinfo[q, DLEN]], minlength=NC)
                assert np.array_equal(counts, zones[q, OWNED])
            if game_over(piles, END_STANDARD):
                break
        yield zones, piles


def test_double_witch_mirror_plays_to_the_end_giving_out_curses_and_conserving_vp():
    ended_on_curses = 0
    for zones, piles in _play_mirror("province | gold | witch:2 | silver", ("witch",), 30):
        assert game_over(piles, END_STANDARD)
        curses = zones[:, OWNED, INDEX["curse"]]
        assert curses.sum() + piles[0, INDEX["curse"]] == 10 and curses.sum() > 0
        ended_on_curses += piles[0, INDEX["curse"]] == 0
        for q in range(2):
            assert victory_points(q, zones) == int(zones[q, OWNED] @ VP)
    assert ended_on_curses >= 15  # two Witches each give out the ten Curses in most games


def test_workshop_gardens_games_end_and_score_gardens():
    kingdom = ("workshop", "gardens")
    for zones, piles in _play_mirror("province | gardens | workshop | estate@gains<=6 | copper",
                                     kingdom, 10):
        assert game_over(piles, END_STANDARD)
        for q in range(2):
            cards = int(zones[q, OWNED].sum())
            base = int(zones[q, OWNED] @ VP)
            assert victory_points(q, zones) == base + zones[q, OWNED, INDEX["gardens"]] * (
                cards // 10)


def test_base_set_kingdom_random_games_conserve_cards():
    kingdom = ("throne-room", "vassal", "library", "sentry", "harbinger", "artisan", "bandit",
               "bureaucrat", "militia", "witch")
    for zones, piles in _play_mirror("province | gold | artisan:1 | witch:1 | throne-room:2 "
                                     "| library:1 | sentry:1 | bandit:1 | militia:1 | silver",
                                     kingdom, 10):
        assert zones[:, OWNED].min() >= 0 and piles[0].min() >= -1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_bots_play_every_base_set_card_conserving_cards(players):
    kingdoms = (("artisan", "bandit", "bureaucrat", "cellar", "chapel", "council-room",
                 "gardens", "harbinger", "library", "merchant"),
                ("militia", "mine", "moat", "moneylender", "poacher", "remodel", "sentry",
                 "throne-room", "vassal", "witch"),
                ("throne-room", "vassal", "library", "witch", "workshop", "festival",
                 "laboratory", "market", "smithy", "village"))
    for kingdom in kingdoms:
        bots = [BotSpec("random")] * (players - 1) + [BotSpec("heuristic")]
        ended = sum(bool(game_over(piles, END_STANDARD))
                    for _, piles in _play_mirror("", kingdom, 6, players, bots))
        assert ended >= 1
