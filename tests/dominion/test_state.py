"""Dominion's turn-level API (games.dominion._state): each card against its printed text
through moves, set-up and the end of the game, seeded random playouts with every attack and
Gardens, views that hide what a player cannot see, and a search player through views."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from games.dominion import _state as machine
from games.dominion._cards import CARDS, INDEX, IS_TREASURE, KEYS
from games.dominion._moves import Move
from tests.dominion.oracle import state as oracle
from tests.dominion.oracle.effects import DECISIONS
from tests.dominion.oracle.table import SplitMix

DominionState = machine.DominionState


@pytest.fixture(autouse=True, params=["machine", "oracle"])
def implementation(request, monkeypatch):
    """Every test here runs on the State (which steps the rule machine) and on the oracle
    (the independent pure-Python implementation it is checked against)."""
    monkeypatch.setitem(globals(), "DominionState", (machine if request.param == "machine"
                                                     else oracle).DominionState)
    return request.param


def put(st, p: int, *, hand=None, deck=None, discard=None) -> None:
    """Set ``p``'s hand, draw pile (bottom first) or discard pile by hand."""
    if hasattr(st, "set_cards"):
        st.set_cards(p, hand=hand, deck=deck, discard=discard)
        return
    for name, cards in (("hand", hand), ("deck", deck), ("discard", discard)):
        if cards is not None:
            getattr(st, name)[p] = list(cards)


def reseed(st, seed: int) -> None:
    """A new stream for the game's future shuffles."""
    if hasattr(st, "set_cards"):
        st.rng[0] = np.uint64(seed)
    else:
        st.rng = SplitMix(seed)

EVERY_KINGDOM_CARD = tuple(c.key for c in CARDS if c.kingdom)
ATTACKS_AND_GARDENS = ("militia", "witch", "bandit", "bureaucrat", "gardens", "moat",
                       "throne-room", "library", "sentry", "chapel")
# every attack and Gardens again, with the other cards that ask for a decision
ATTACKS_AND_THE_REST = ("militia", "witch", "bandit", "bureaucrat", "gardens", "cellar",
                        "harbinger", "merchant", "vassal", "workshop", "moneylender",
                        "poacher", "remodel", "mine", "artisan", "council-room", "steward")
DONE = Move("done")


def ids(*names: str) -> list[int]:
    """Card indices from keys, ``"copper:3"`` for three."""
    out = []
    for name in names:
        key, _, k = name.partition(":")
        out += [INDEX[key]] * int(k or 1)
    return out


def names(cards: list[int]) -> list[str]:
    return sorted(KEYS[c] for c in cards)


def deal(hand: tuple[str, ...], deck: tuple[str, ...] = (), *, players: int = 2,
         kingdom: tuple[str, ...] = EVERY_KINGDOM_CARD, others: tuple[str, ...] = (),
         discard: tuple[str, ...] = (), seed: int = 0) -> DominionState:
    """Seat 0 to act with ``hand``, ``deck`` listed top first (nothing below it) and
    ``discard``; every other seat holds ``others`` (its deal when empty)."""
    st = DominionState.new(players, kingdom, rng=np.random.default_rng(seed))
    put(st, 0, hand=ids(*hand), deck=ids(*deck)[::-1], discard=ids(*discard))
    for q in range(1, players):
        if others:
            put(st, q, hand=ids(*others))
    if hasattr(st, "restart_turn"):
        st.restart_turn()
    else:
        st.phase = 0  # the action phase
    st.refresh()
    return st


def do(st: DominionState, *moves: str) -> DominionState:
    """Apply moves given as text (``"play smithy"``, ``"done"``)."""
    for text in moves:
        verb, _, card = text.partition(" ")
        st.apply(Move(verb, card))
    return st


def moves(st: DominionState) -> set[str]:
    return {str(m) for m in st.legal_moves()}


# ---- set-up, turns and the end of the game
@pytest.mark.parametrize(("players", "victory", "curses"), [(2, 8, 10), (3, 12, 20),
                                                             (4, 12, 30)])
def test_set_up_follows_the_printed_rules(players, victory, curses):
    st = DominionState.new(players, ("gardens", "witch"))
    s = st.supply
    assert s[INDEX["curse"]] == curses and s[INDEX["gardens"]] == victory
    assert s[INDEX["estate"]] == s[INDEX["duchy"]] == s[INDEX["province"]] == victory
    assert s[INDEX["copper"]] == 60 - 7 * players and s[INDEX["witch"]] == 10
    assert s[INDEX["smithy"]] == -1  # not in this kingdom
    for p in range(players):
        assert Counter(names(st.hand[p] + st.deck[p])) == {"copper": 7, "estate": 3}
        assert len(st.hand[p]) == 5


def test_a_turn_plays_actions_then_treasures_then_buys():
    st = deal(("village", "smithy", "copper", "estate", "estate"),
              ("silver", "gold", "copper", "copper", "estate"))
    assert moves(st) == {"play village", "play smithy", "end-actions"}
    do(st, "play village")
    assert st.actions == 2 and "silver" in names(st.hand[0])
    do(st, "play smithy")  # no Action left in hand: the action phase ends by itself
    assert {"play copper", "play silver", "play gold", "play-treasures", "buy copper",
            "buy curse", "end-turn"} == moves(st)
    do(st, "play gold")
    assert st.coins == 3 and "buy silver" in moves(st) and "buy gold" not in moves(st)
    do(st, "play-treasures")
    assert st.coins == 3 + 2 + 3
    do(st, "buy gold")  # the only buy: the turn ends, seat 1 moves
    assert st.current_player() == 1 and st.turns == [1, 0]
    assert st.owned(0)[INDEX["gold"]] == 2 and len(st.hand[0]) == 5  # reshuffled


def test_no_treasure_after_the_first_buy_and_extra_buys_spend_what_is_left():
    st = deal(("festival", "copper", "copper", "copper", "silver"), kingdom=("festival",))
    do(st, "play festival", "play copper", "play copper", "play copper", "buy silver")
    # $2 left, the Silver stays in hand
    assert moves(st) == {"buy copper", "buy curse", "buy estate", "end-turn"}
    assert st.coins == 2 and st.buys == 1


def test_the_game_ends_after_the_turn_that_takes_the_last_province():
    st = deal(("gold", "gold", "silver", "copper", "copper"))
    st.supply[INDEX["province"]] = 1
    st.refresh()
    do(st, "play-treasures", "buy province")
    assert st.is_terminal() and st.legal_moves() == [] and st.current_player() == -1
    assert st.returns() == [1.0, 0.0] and st.scores() == [6.0, 3.0]


def test_three_empty_piles_curses_included_end_the_game():
    st = deal(("copper", "copper", "copper", "estate", "estate"))
    for card in ("curse", "gardens"):
        st.supply[INDEX[card]] = 0
    st.supply[INDEX["estate"]] = 1
    st.refresh()
    do(st, "play-treasures", "buy estate")
    assert st.is_terminal()


def test_a_vp_tie_goes_to_fewer_turns_else_it_is_shared():
    for tiebreak, want in ((True, [0.0, 1.0]), (False, [0.5, 0.5])):
        st = DominionState.new(2, ("smithy",), rng=np.random.default_rng(1),
                               tiebreak=tiebreak)
        st.supply[INDEX["province"]] = 1
        put(st, 0, hand=ids("gold:3"), deck=ids("estate:3"))
        put(st, 1, hand=[], deck=ids("province", "estate:3"))
        st.refresh()
        do(st, "play-treasures", "buy province")  # seat 0: 9 VP in 1 turn, seat 1: 9 in 0
        assert st.scores() == [9.0, 9.0] and st.returns() == want


def test_a_game_stops_at_the_cap_after_the_last_seat_plays():
    st = DominionState.new(2, ("smithy",), rng=np.random.default_rng(1), cap=2)
    while not st.is_terminal():
        st.apply(st.legal_moves()[-1])  # end-actions, end-turn
    assert st.capped and st.turns == [2, 2]


# ---- the cards, each against its text
SIMPLE = {  # card: (+cards, +actions, +buys, +$) as printed
    "village": (1, 2, 0, 0), "smithy": (3, 0, 0, 0), "laboratory": (2, 1, 0, 0),
    "market": (1, 1, 1, 1), "festival": (0, 2, 1, 2), "council-room": (4, 0, 1, 0),
    "moat": (2, 0, 0, 0), "woodcutter": (0, 0, 1, 2), "great-hall": (1, 1, 0, 0),
    "workers-village": (1, 2, 1, 0), "bazaar": (1, 2, 0, 1), "merchant": (1, 1, 0, 0),
    "harbinger": (1, 1, 0, 0), "poacher": (1, 1, 0, 1), "militia": (0, 0, 0, 2),
    "witch": (2, 0, 0, 0), "vassal": (0, 0, 0, 2), "sentry": (1, 1, 0, 0),
    "cellar": (0, 1, 0, 0),
}


@pytest.mark.parametrize("card", sorted(SIMPLE))
def test_plus_cards_actions_buys_and_coins_as_printed(card):
    st = deal((card, "copper"), ("estate:6",), kingdom=(card,), others=("copper:3",))
    do(st, f"play {card}")
    if card in ("cellar", "sentry"):  # discard nothing; keep both looked-at Estates
        do(st, "done")
    cards, actions, buys, coins = SIMPLE[card]
    assert not st.stack and len(st.hand[0]) == 1 + cards
    assert (st.actions, st.buys, st.coins) == (actions, 1 + buys, coins)


def test_cellar_discards_any_number_then_draws_as_many():
    st = deal(("cellar", "estate", "estate", "curse", "copper"), ("silver", "silver", "gold"))
    do(st, "play cellar")
    assert moves(st) == {"discard copper", "discard estate", "discard curse", "done"}
    do(st, "discard estate", "discard estate", "discard curse", "done")
    assert names(st.hand[0]) == ["copper", "gold", "silver", "silver"]
    assert names(st.discard[0]) == ["curse", "estate", "estate"]


def test_chapel_trashes_up_to_four():
    st = deal(("chapel", "copper", "copper", "estate", "estate", "curse"))
    do(st, "play chapel", "trash estate", "trash estate", "trash curse", "trash copper")
    assert names(st.trash) == ["copper", "curse", "estate", "estate"]
    assert names(st.hand[0]) == ["copper"] and not st.stack  # no fifth trash offered
    st = deal(("chapel", "copper", "estate"))
    do(st, "play chapel", "trash estate", "done")
    assert names(st.hand[0]) == ["copper"] and names(st.trash) == ["estate"]


def test_moat_keeps_its_owner_out_of_an_attack():
    hand1 = ("moat", "estate", "estate", "copper", "copper")
    st = deal(("militia", "copper"), others=hand1)
    do(st, "play militia")
    assert st.current_player() == 1 and moves(st) == {"reveal moat", "done"}
    do(st, "reveal moat")
    assert len(st.hand[1]) == 5 and st.current_player() == 0 and st.coins == 2
    st = deal(("militia", "copper"), others=hand1)
    do(st, "play militia", "done")
    assert moves(st) == {"discard copper", "discard estate", "discard moat"}
    do(st, "discard estate", "discard estate")
    assert names(st.hand[1]) == ["copper", "copper", "moat"] and st.current_player() == 0


def test_militia_victims_discard_down_to_three_in_turn_order():
    st = deal(("militia",), players=3, others=("copper:3", "estate:2"))
    do(st, "play militia")
    assert st.current_player() == 1
    do(st, "discard estate", "discard estate")
    assert st.current_player() == 2
    do(st, "discard copper", "discard estate")
    assert [len(h) for h in st.hand[1:]] == [3, 3] and st.current_player() == 0


def test_harbinger_tops_a_card_from_the_discard_pile():
    st = deal(("harbinger",), ("silver", "copper"), discard=("gold", "estate", "copper"))
    do(st, "play harbinger")
    assert names(st.hand[0]) == ["silver"] and st.actions == 1
    assert moves(st) == {"topdeck copper", "topdeck gold", "topdeck estate", "done"}
    do(st, "topdeck gold")
    assert st.deck[0][-1] == INDEX["gold"] and "gold" not in names(st.discard[0])


def test_merchant_first_silver_gives_one_more_per_merchant():
    st = deal(("village", "merchant", "merchant", "silver", "silver"),
              ("copper", "copper", "copper"))
    do(st, "play village", "play merchant", "play merchant", "play silver")
    assert st.coins == 2 + 2
    do(st, "play silver")
    assert st.coins == 4 + 2
    do(st, "play-treasures")
    assert st.coins == 6 + 3


def test_vassal_discards_the_top_card_and_may_play_an_action_for_free():
    st = deal(("vassal",), ("smithy", "copper", "copper", "copper", "gold"))
    do(st, "play vassal")
    assert st.coins == 2 and moves(st) == {"play smithy", "done"}
    do(st, "play smithy")
    assert names(st.play[0]) == ["smithy", "vassal"] and len(st.hand[0]) == 3
    st = deal(("vassal",), ("gold", "copper"))
    do(st, "play vassal")
    assert names(st.discard[0]) == ["gold"] and not st.stack


def test_workshop_gains_a_card_costing_up_to_4():
    st = deal(("workshop",), kingdom=("workshop", "gardens", "smithy", "witch"))
    do(st, "play workshop")
    assert moves(st) == {f"gain {k}" for k in ("copper", "silver", "estate", "curse",
                                               "workshop", "gardens", "smithy")}
    do(st, "gain gardens")
    assert names(st.discard[0]) == ["gardens"] and st.supply[INDEX["gardens"]] == 7


def test_bureaucrat_tops_a_silver_and_victims_top_a_victory_card():
    st = deal(("bureaucrat",), players=3, others=("estate", "duchy", "copper:3"))
    put(st, 2, hand=ids("copper:5"))
    st.refresh()
    do(st, "play bureaucrat")
    assert st.deck[0][-1] == INDEX["silver"]
    assert st.current_player() == 1 and moves(st) == {"topdeck estate", "topdeck duchy"}
    do(st, "topdeck duchy")
    assert st.deck[1][-1] == INDEX["duchy"] and len(st.hand[2]) == 5  # no Victory: shown
    assert st.current_player() == 0


def test_gardens_counts_each_whole_ten_cards():
    st = deal(())
    for total in (39, 40):
        put(st, 0, deck=ids("gardens:2") + ids(f"copper:{total - 2}"), hand=[], discard=[])
        assert st.victory_points(0) == 2 * (total // 10)


def test_moneylender_trashes_a_copper_for_3():
    st = deal(("moneylender", "copper", "copper", "estate"))
    do(st, "play moneylender")
    assert moves(st) == {"trash copper", "done"}
    do(st, "trash copper", "play-treasures")
    assert st.coins == 3 + 1 and names(st.trash) == ["copper"]
    st = deal(("moneylender", "estate"))
    do(st, "play moneylender")  # no Copper: nothing to decide
    assert st.coins == 0 and not st.stack and not st.trash


def test_poacher_discards_a_card_per_empty_supply_pile():
    st = deal(("poacher", "copper", "estate", "estate", "silver"), ("gold",))
    st.supply[INDEX["curse"]] = st.supply[INDEX["smithy"]] = 0
    do(st, "play poacher")
    assert st.coins == 1 and moves(st) == {"discard copper", "discard estate",
                                           "discard silver", "discard gold"}
    do(st, "discard estate", "discard estate")
    assert names(st.hand[0]) == ["copper", "gold", "silver"]


def test_remodel_trashes_a_card_and_gains_one_costing_up_to_2_more():
    st = deal(("remodel", "gold", "estate"), kingdom=("remodel", "smithy"))
    do(st, "play remodel")
    assert moves(st) == {"trash gold", "trash estate"}
    do(st, "trash estate")
    assert moves(st) == {f"gain {k}" for k in ("copper", "silver", "estate", "curse",
                                               "remodel", "smithy")}
    st = deal(("remodel", "gold"), kingdom=("remodel",))
    do(st, "play remodel")  # one card: trashed without asking
    assert "gain province" in moves(st)
    do(st, "gain province")
    assert names(st.discard[0]) == ["province"] and names(st.trash) == ["gold"]


def test_throne_room_plays_an_action_twice_even_another_throne_room():
    st = deal(("throne-room", "smithy", "copper"), ("copper",) * 8)
    do(st, "play throne-room")
    assert moves(st) == {"throne smithy", "done"}
    do(st, "throne smithy")
    assert len(st.hand[0]) == 1 + 6 and names(st.play[0]) == ["smithy", "throne-room"]
    st = deal(("throne-room", "throne-room", "smithy", "village"), ("copper",) * 12)
    do(st, "play throne-room", "throne throne-room", "throne smithy", "throne village")
    assert len(st.hand[0]) == 6 + 2 and st.actions == 4
    st = deal(("throne-room", "copper"))
    do(st, "play throne-room")  # no other Action: nothing happens
    assert names(st.hand[0]) == ["copper"] and not st.stack


def test_throne_room_on_an_attack_lets_moat_answer_each_play():
    st = deal(("throne-room", "militia"), others=("moat", "copper:4"))
    do(st, "play throne-room", "throne militia")
    assert moves(st) == {"reveal moat", "done"}
    do(st, "reveal moat")
    assert moves(st) == {"reveal moat", "done"} and st.coins == 2
    do(st, "done", "discard copper", "discard copper")
    assert len(st.hand[1]) == 3 and st.coins == 4


def test_bandit_gains_a_gold_and_victims_trash_a_non_copper_treasure():
    st = deal(("bandit",))
    put(st, 1, deck=st.deck[1] + ids("gold", "silver"))  # silver on top
    st.refresh()
    do(st, "play bandit")
    assert names(st.discard[0]) == ["gold"] and st.current_player() == 1
    assert moves(st) == {"trash silver", "trash gold"}
    do(st, "trash silver")
    assert names(st.trash) == ["silver"] and names(st.discard[1]) == ["gold"]
    st = deal(("bandit",))
    put(st, 1, deck=st.deck[1] + ids("estate", "copper"))
    st.refresh()
    do(st, "play bandit")  # no treasure but Copper: both discarded
    assert not st.trash and names(st.discard[1]) == ["copper", "estate"]


def test_council_room_draws_for_everyone():
    st = deal(("council-room",), ("copper",) * 5, players=3)
    do(st, "play council-room")
    assert len(st.hand[0]) == 4 and st.buys == 2
    assert len(st.hand[1]) == len(st.hand[2]) == 6


def test_library_draws_to_seven_and_may_set_actions_aside():
    st = deal(("library", "copper", "copper"),
              ("smithy", "copper", "village", "copper", "copper", "gold", "silver"))
    do(st, "play library")
    assert moves(st) == {"set-aside smithy", "keep smithy"}
    do(st, "set-aside smithy", "keep village")
    assert names(st.hand[0]) == ["copper"] * 5 + ["gold", "village"]
    assert names(st.discard[0]) == ["smithy"] and not st.aside[0]


def test_mine_trashes_a_treasure_for_one_costing_up_to_3_more_into_hand():
    st = deal(("mine", "copper", "silver", "estate"), kingdom=("mine", "harem"))
    do(st, "play mine")
    assert moves(st) == {"trash copper", "trash silver", "done"}
    do(st, "trash silver")
    assert moves(st) == {"gain copper", "gain silver", "gain gold", "gain harem"}
    do(st, "gain gold")
    assert names(st.hand[0]) == ["copper", "estate", "gold"] and names(st.trash) == ["silver"]


def test_sentry_trashes_discards_and_orders_the_top_two():
    st = deal(("sentry",), ("copper", "estate", "gold", "silver"))
    do(st, "play sentry")
    assert moves(st) == {"trash estate", "trash gold", "discard estate", "discard gold",
                         "done"}
    do(st, "trash estate", "done")
    assert st.deck[0][-1] == INDEX["gold"] and names(st.trash) == ["estate"]
    st = deal(("sentry",), ("copper", "silver", "gold", "estate"))
    do(st, "play sentry", "done")
    assert moves(st) == {"topdeck silver", "topdeck gold"}
    do(st, "topdeck silver")
    assert st.deck[0][-2:] == ids("gold", "silver") and not st.looking[0]


def test_witch_curses_the_others_while_curses_last():
    st = deal(("witch",), ("copper", "copper"), players=3)
    st.supply[INDEX["curse"]] = 1
    do(st, "play witch")
    assert len(st.hand[0]) == 2 and st.supply[INDEX["curse"]] == 0
    assert names(st.discard[1]) == ["curse"] and names(st.discard[2]) == []


def test_artisan_gains_up_to_5_into_hand_then_tops_a_card():
    st = deal(("artisan", "copper"), kingdom=("artisan", "laboratory"))
    do(st, "play artisan")
    assert "gain laboratory" in moves(st) and "gain gold" not in moves(st)
    do(st, "gain laboratory")
    assert moves(st) == {"topdeck copper", "topdeck laboratory"}
    do(st, "topdeck laboratory")
    assert st.deck[0][-1] == INDEX["laboratory"] and names(st.hand[0]) == ["copper"]


def test_steward_offers_cards_coins_or_trashing_two():
    for choice, hand, coins, trashed in (("cards", 4, 0, 0), ("coins", 2, 2, 0),
                                         ("trash", 0, 0, 2)):
        st = deal(("steward", "estate", "curse"), ("copper", "copper"))
        do(st, "play steward")
        assert moves(st) == {"choose cards", "choose coins", "choose trash"}
        do(st, f"choose {choice}")
        if choice == "trash":
            do(st, "trash curse")  # then the last card goes without asking
        assert (len(st.hand[0]), st.coins, len(st.trash)) == (hand, coins, trashed)


def test_victory_points_of_every_victory_card():
    st = deal(())
    put(st, 0, hand=[], discard=[],
        deck=ids("estate", "duchy", "province", "curse", "great-hall", "harem"))
    assert st.victory_points(0) == 1 + 3 + 6 - 1 + 1 + 2


# ---- whole games
def census(st: DominionState) -> list[int]:
    """Count per card over the supply, every player's cards and the trash."""
    count = [max(k, 0) for k in st.supply]
    for p in range(st.n):
        for c, k in enumerate(st.owned(p)):
            count[c] += k
    for c in st.trash:
        count[c] += 1
    return count


def worth(owned: list[int]) -> int:
    """VP of a player's cards as printed (Gardens: 1 per whole 10 cards)."""
    return sum(CARDS[c].vp * k for c, k in enumerate(owned)) + \
        owned[INDEX["gardens"]] * (sum(owned) // 10)


def test_random_playouts_with_every_attack_and_gardens_keep_every_rule():
    """200 seeded games of uniformly random moves, 2-4 players, on two kingdoms with every
    attack and Gardens (between them every card that asks for a decision, and nearly every
    kind of decision is met): every card (so every VP) stays in the game, no pile or counter
    goes negative, nothing is left in play or set aside between turns, each seat's score
    is what its cards are worth, the winners hold the most VP, and a replay of the same
    moves gives the same game."""
    pick = np.random.default_rng(20)
    lengths, decisions = [], set()
    for g in range(200):
        players, kingdom = 2 + g % 3, (ATTACKS_AND_GARDENS, ATTACKS_AND_THE_REST)[g % 2]
        st = DominionState.new(players, kingdom, rng=np.random.default_rng(g))
        start = census(st)
        chosen = []
        while not st.is_terminal():
            if st.stack:
                decisions.add(st.stack[-1][0])
            legal = st.legal_moves()
            assert len(legal) >= 2 and len(set(legal)) == len(legal)
            assert min(st.actions, st.buys, st.coins, *st.supply) >= -1
            move = legal[int(pick.integers(len(legal)))]
            st.apply(move)
            chosen.append(move)
            if g < 10:
                assert census(st) == start
        assert census(st) == start and min(st.supply) >= -1 and not st.stack
        assert all(not st.play[p] and not st.aside[p] and not st.looking[p]
                   for p in range(players))
        scores, ret = st.scores(), st.returns()
        assert scores == [float(worth(st.owned(p))) for p in range(players)]
        winners = [p for p in range(players) if ret[p] > 0]
        assert winners and all(scores[p] == max(scores) for p in winners)
        assert all(ret[p] == (1.0 if len(winners) == 1 else 0.5) for p in winners)
        lengths.append(len(chosen))
        if g % 50 == 0:  # the same seed and moves give the same game
            twin = DominionState.new(players, kingdom, rng=np.random.default_rng(g))
            do(twin, *[str(m) for m in chosen])
            assert twin.key() == st.key() and twin.history == st.history
    # a Bandit victim chooses only between two different non-Copper treasures, which
    # random decks seldom hold (that choice is tested with the card)
    assert min(lengths) > 20 and decisions == set(DECISIONS) - {"bandit"}


def test_a_clone_is_independent_and_replays_the_same_game():
    st = DominionState.new(2, ATTACKS_AND_GARDENS, rng=np.random.default_rng(5))
    pick = np.random.default_rng(5)
    for _ in range(40):
        legal = st.legal_moves()
        st.apply(legal[int(pick.integers(len(legal)))])
    twin, before = st.clone(), st.key()
    rest = []
    while not st.is_terminal():
        legal = st.legal_moves()
        rest.append(legal[int(pick.integers(len(legal)))])
        st.apply(rest[-1])
    assert twin.key() == before
    for move in rest:
        twin.apply(move)
    assert twin.key() == st.key() and twin.returns() == st.returns()
    with pytest.raises(ValueError):
        twin.apply(Move("buy", "province"))


# ---- hidden information
def test_views_hide_draw_order_opponent_hands_and_opponent_discards(implementation):
    st = DominionState.new(2, ATTACKS_AND_GARDENS, rng=np.random.default_rng(3))
    pick = np.random.default_rng(3)
    for _ in range(60):
        legal = st.legal_moves()
        st.apply(legal[int(pick.integers(len(legal)))])
    put(st, 1, discard=st.discard[1] + ids("gold", "estate", "silver"))
    other = st.clone()
    put(other, 0, deck=other.deck[0][::-1])
    reseed(other, 99)  # future shuffles are hidden too
    # the oracle shows the top of an opponent's discard pile; the State shows its size only
    shown = 1 if implementation == "oracle" else 0
    below = other.discard[1][:len(other.discard[1]) - shown]
    pool = other.hand[1] + other.deck[1] + below
    pool = pool[1:] + pool[:1]
    sizes = len(other.hand[1]), len(other.deck[1])
    put(other, 1, hand=pool[:sizes[0]], deck=pool[sizes[0]:sum(sizes)],
        discard=pool[sum(sizes):] + other.discard[1][len(below):])
    assert other.key() != st.key()
    v1, v2 = st.view(0, np.random.default_rng(7)), other.view(0, np.random.default_rng(7))
    assert v1.key() == v2.key() and v1.history == []
    assert Counter(v1.hand[0]) == Counter(st.hand[0]) and v1.discard[0] == st.discard[0]
    assert len(v1.hand[1]) == len(st.hand[1]) and len(v1.discard[1]) == len(st.discard[1])
    if shown:
        assert v1.discard[1][-1] == INDEX["silver"]
    assert list(v1.supply) == list(st.supply) and v1.trash == st.trash
    seen = st.clone()  # what seat 0 sees changes its view
    put(seen, 0, hand=seen.hand[0] + ids("gold"))
    assert seen.view(0, np.random.default_rng(7)).key() != v1.key()


def test_a_view_can_be_played_to_the_end():
    st = DominionState.new(3, ATTACKS_AND_GARDENS, rng=np.random.default_rng(4))
    view = st.view(1, np.random.default_rng(4))
    while not view.is_terminal():
        view.apply(view.legal_moves()[0])
    assert view.returns() and not st.is_terminal()


# ---- a search player through the API
def one_ply(st: DominionState, rng: np.random.Generator) -> Move:
    """Search each move one ply deep on a view of the position: the move whose result
    leaves the mover with the most VP, then the most money beyond Copper owned (a greedy
    searcher; ties to the first move listed)."""
    me = st.current_player()
    view = st.view(me, rng)

    def value(move: Move) -> tuple[int, int]:
        after = view.child(move)
        owned = after.owned(me)
        return (after.victory_points(me), sum(CARDS[c].coin * k for c, k in enumerate(owned)
                                              if IS_TREASURE[c] and c != INDEX["copper"]))
    return max(view.legal_moves(), key=value)


def test_a_one_ply_search_player_beats_random_play():
    wins = 0
    for g in range(3):
        st = DominionState.new(2, ATTACKS_AND_GARDENS, rng=np.random.default_rng(g))
        rng = np.random.default_rng(100 + g)
        while not st.is_terminal():
            if st.current_player() == g % 2:
                st.apply(one_ply(st, rng))
            else:
                legal = st.legal_moves()
                st.apply(legal[int(rng.integers(len(legal)))])
        wins += st.returns()[g % 2] == 1.0
    assert wins == 3


def test_the_dominion_game_offers_its_state_to_the_contract_suite(implementation):
    if implementation == "oracle":
        pytest.skip("the game offers the State, not the oracle")
    from games import registry
    from games.capabilities import offers

    game = registry.get("dominion")
    assert offers(game, "state")
    st = game.new_state(game.check_options({"kingdom": ["smithy", "village"]}), 7, 2)
    again = game.new_state(game.check_options({"kingdom": ["smithy", "village"]}), 7, 2)
    assert isinstance(st, DominionState) and st.key() == again.key()
    assert st.supply[INDEX["smithy"]] == 10 and st.supply[INDEX["witch"]] == -1


def test_a_random_kingdom_is_drawn_with_the_seed_and_moves_may_be_plain_tuples(
        implementation):
    if implementation == "oracle":
        pytest.skip("the game offers the State, not the oracle")
    from games import registry

    game = registry.get("dominion")
    opts = game.check_options({"kingdom": "random"})
    a, b = game.new_state(opts, 11, 2), game.new_state(opts, 11, 2)
    drawn = game.settle_options(opts, 11)[0]["kingdom"]
    assert a.key() == b.key() and len(a.kingdom) == 10 == len(drawn)
    assert sorted(KEYS[c] for c in a.kingdom) == sorted(drawn)
    legal = a.legal_moves()
    a.apply(tuple(legal[-1]))
    b.apply(legal[-1])
    assert a.key() == b.key()
