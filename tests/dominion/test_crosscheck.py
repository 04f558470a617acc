"""The cross-check against pyminion: the plan's decisions and tie rule, the pyminion players
and runner (seeded, seats rotated, blocks independent), and one cheap match-up on which both
engines agree within their intervals."""

from __future__ import annotations

import json
import logging
import random

import numpy as np
import pytest

from games.core import BotSpec
from games.dominion._bots import NAMED
from games.dominion._cards import BASE_SET_KEYS
from games.dominion._strategy import parse_strategy
from games.dominion.crosscheck import _compare as compare
from games.dominion.crosscheck import _lineup as lineup
from games.dominion.crosscheck import _rules as rules
from games.dominion.crosscheck._players import CARD, KEY, keys, make_player
from games.dominion.crosscheck._runner import CrossGame, play, play_one
from games.dominion.game import GAME
from games.outcomes import Outcomes


def test_junk_order_and_the_victims_choices():
    hand = ["gold", "copper", "silver", "estate", "curse", "province", "duchy", "smithy"]
    assert rules.junk_order(hand) == ["curse", "estate", "duchy", "province", "copper",
                                      "silver", "smithy", "gold"]
    assert rules.militia_discards(["gold", "copper", "estate", "silver", "curse"]) == [
        "curse", "estate"]
    assert rules.militia_discards(["gold", "copper", "silver"]) == []
    assert rules.bureaucrat_topdeck(["province", "gardens", "copper", "estate"]) == "estate"
    assert rules.bureaucrat_topdeck(["province", "gardens", "duchy"]) == "gardens"
    assert rules.bureaucrat_topdeck(["copper", "curse"]) is None
    assert rules.bandit_trash(["gold", "silver"]) == "silver"
    assert rules.bandit_trash(["copper", "gold"]) == "gold"
    assert rules.bandit_trash(["copper", "estate"]) is None


def test_chapel_keeps_the_money_floor_and_the_card_limit():
    # 7 Coppers ($7): one Copper may go (keeping $6), after every Curse and Estate
    assert rules.chapel_trash(["copper", "estate", "copper", "curse", "silver"], 7) == [
        "curse", "estate", "copper"]
    assert rules.chapel_trash(["copper", "copper", "copper"], 6) == []
    assert rules.chapel_trash(["curse", "curse", "estate", "estate", "estate"], 9) == [
        "curse", "curse", "estate", "estate"]


def test_tie_rule_most_vp_then_fewer_turns_else_shared():
    assert rules.seat_outcomes([30, 24], [17, 17]) == [1, -1]
    assert rules.seat_outcomes([30, 30], [17, 16]) == [-1, 1]
    assert rules.seat_outcomes([30, 30], [17, 17]) == [0, 0]
    assert rules.seat_outcomes([12, 30, 30], [9, 9, 9]) == [-1, 0, 0]


def test_buy_lists_are_the_named_bots_of_our_engine():
    for name, text in lineup.BOTS.items():
        if name in NAMED:  # the named bots our engine offers follow the same lists
            assert parse_strategy(NAMED[name][0]) == parse_strategy(text), name
    assert lineup.kingdom_of(("chapel-witch", "big-money")) == ("chapel", "witch")
    assert lineup.kingdom_of(("big-money", "big-money")) == ()
    assert lineup.kingdom_of(("workshop-gardens-standard",)) == ("gardens", "workshop")


def _game(bots=("double-militia", "big-money"), seed=3):
    rng = random.Random(seed)
    players = [make_player(b, lineup.BOTS[b], rng) for b in bots]
    game = CrossGame(players, lineup.kingdom_of(bots))
    game.start()
    return game, players


def test_pyminion_players_decide_as_the_plan_says():
    game, (me, other) = _game()
    decider = other.decider
    hand = [CARD[k] for k in ("gold", "copper", "estate", "silver", "curse")]
    picked = decider.discard_decision("", CARD["militia"], hand, other, game, 2, 2)
    assert [c.name for c in picked] == ["Curse", "Estate"]
    assert decider.binary_decision("", CARD["moat"], other, game) is True
    top = decider.topdeck_decision("", CARD["bureaucrat"],
                                   [CARD["province"], CARD["estate"]], other, game, 1, 1)
    assert [c.name for c in top] == ["Estate"]
    # buying: the first rule that is affordable, in stock and under its copy limit
    me.state.money = 4
    assert me.decider.buy_phase_decision([], me, game).name == "Militia"
    me.discard_pile.cards += [CARD["militia"]] * 2
    assert me.decider.buy_phase_decision([], me, game).name == "Silver"
    me.state.money = 2
    assert me.decider.buy_phase_decision([], me, game) is None
    # a Workshop gains what the buy list buys with $4: Gardens while they last
    g2, (w, _) = _game(("workshop-gardens", "big-money"))
    valid = [c for c in g2.supply.avaliable_cards() if c.get_cost(w, g2) <= 4]
    assert [c.name for c in w.decider.gain_decision("", CARD["workshop"], valid, w, g2, 1,
                                                    1)] == ["Gardens"]
    assert g2.supply.pile_length("Gardens") == 8  # the rulebook's two-player Victory pile


def test_gains_fall_back_to_the_dearest_useful_card_when_the_list_wants_nothing():
    game, (me, _) = _game(("big-money", "big-money"))
    valid = [CARD[k] for k in ("copper", "curse", "estate", "silver")]
    got = me.decider.gain_decision("", CARD["workshop"], valid, me, game, 1, 1)
    assert [c.name for c in got] == ["Silver"]
    assert rules.gain_fallback(["curse", "estate", "copper", "duchy"], 5) == "duchy"
    assert rules.gain_fallback(["curse", "estate", "copper"], 4) == "copper"
    assert rules.gain_fallback(["curse", "estate"], 4) == "estate"
    assert rules.gain_fallback(["curse", "silver"], 2) == "curse"
    assert rules.gain_fallback(["silver", "smithy"], 2) is None


def _play_in_pyminion(card: str, hand: list[str], buylist: str, kingdom: tuple[str, ...],
                      empty: tuple[str, ...] = ()) -> tuple[list[str], list[str]]:
    """Play ``card`` from a hand of ``card`` + ``hand`` in a fresh pyminion game as a bot
    of ``buylist`` (the piles ``empty`` emptied first): the discard pile and the trash."""
    rng = random.Random(5)
    players = [make_player(n, buylist, rng) for n in ("a", "b")]
    game = CrossGame(players, kingdom)
    game.start()
    for pile in game.supply.piles:
        if KEY[pile.name] in empty:
            pile.cards.clear()
    me = players[0]
    me.hand.cards = [CARD[k] for k in (card, *hand)]
    me.discard_pile.cards = []
    me.state.actions = 1
    CARD[card].play(me, game)
    return keys(me.discard_pile.cards), keys(game.trash.cards)


def test_pyminion_remodel_of_a_curse_gains_a_copper_for_big_money():
    discard, trash = _play_in_pyminion("remodel", ["curse", "copper"], lineup.BOTS["big-money"],
                                       ("remodel", "smithy"))
    assert trash == ["curse"] and discard == ["copper"]


def test_pyminion_workshop_falls_back_to_the_dearest_useful_card_then_copper():
    nothing = "province | gold"  # matches nothing at $4
    discard, _ = _play_in_pyminion("workshop", [], nothing, ("workshop", "cellar"),
                                   empty=("silver", "workshop"))
    assert discard == ["cellar"]
    discard, _ = _play_in_pyminion("workshop", [], nothing, ("workshop", "cellar"),
                                   empty=("silver", "workshop", "cellar"))
    assert discard == ["copper"]  # only Coppers, Estates and Curses fit $4


def test_runner_rotates_seats_and_replays_the_same_games_in_any_blocks():
    bots = ("double-witch", "big-money")
    whole = play(bots, 11, 0, 6)
    assert whole.seating.tolist() == [[0, 1], [1, 0]] * 3
    parts = Outcomes.concat([play(bots, 11, 0, 2), play(bots, 11, 2, 4)])
    for name in ("seating", "outcome", "score", "turns", "capped"):
        assert np.array_equal(getattr(whole, name), getattr(parts, name)), name
    assert not np.array_equal(play(bots, 12, 0, 6).score, whole.score)
    for vp, res in zip(whole.score, whole.outcome, strict=True):
        assert (res >= 0).any() and np.all(vp[res >= 0] == vp.max())
    assert whole.turns.min() >= 5 and not whole.capped.any()


def test_witch_curses_reach_the_opponent_in_pyminion():
    game, (witch, money) = _game(("double-witch", "big-money"), seed=4)
    play_one(game, 100)
    curses = [p.get_card_count(CARD["curse"]) for p in (witch, money)]
    assert curses[0] == 0 and curses[1] > 0
    assert curses[1] + game.supply.pile_length("Curse") == 10
    assert 1 <= witch.get_card_count(CARD["witch"]) <= 2


def test_our_tie_rule_gives_pyminions_own_winners():
    for seed in range(6):
        game, players = _game(("workshop-gardens", "big-money"), seed=seed)
        vp, turns, capped = play_one(game, 100)
        winners = game.get_winners()
        expected = [(0 if len(winners) > 1 else 1) if p in winners else -1 for p in players]
        assert rules.seat_outcomes(vp, turns) == expected and not capped


def test_importing_pyminion_leaves_the_root_logger_alone():
    assert logging.getLogger().getEffectiveLevel() > logging.INFO  # pyminion sets INFO


def test_rates_differences_and_agreement():
    a, b = compare.Rate(60, 10, 30), compare.Rate(40, 0, 60)
    assert a.score == pytest.approx(0.65) and a.games == 100
    d, lo, hi = compare.difference(a, b)
    assert d == pytest.approx(0.25) and lo > 0 and hi < 0.5
    assert not compare.agree(a, b) and compare.agree(a, compare.Rate(62, 8, 30))


def test_a_cheap_match_up_agrees_between_the_engines():
    bots = ["smithy-big-money", "big-money"]
    opts = GAME.check_options({"kingdom": ["smithy"]})
    ours = GAME.play([BotSpec(b) for b in bots], opts, 9, 0, 2000)
    theirs = play(bots, 9, 0, 300)
    row = compare.side_by_side(ours, theirs)
    assert row["agree"], row
    assert 0.85 < row["ours"]["score"] < 0.98 and 0.85 < row["pyminion"]["score"] < 0.98


class SerialPool:
    """The pool protocol of ``Settings.pool`` (``jobs``, an ordered ``map``), in-process."""

    jobs = 1

    def map(self, fn, tasks):
        return [fn(*task) for task in tasks]


def test_the_reproduction_plays_every_match_up_and_rewrites_its_readme(tmp_path):
    from games.dominion.reproduce import baseset
    from games.reproduction import Settings

    sizes = {"games": 40, "pyminion-games": 6, "calibration-games": 4}
    settings = Settings(game="dominion-baseset", sizes=sizes, given=sizes, pool=SerialPool(),
                        parts=baseset.PARTS, all_parts=baseset.PARTS)
    (tmp_path / "notes.md").write_text("## Notes\n\nHand-written.\n")
    baseset.reproduce(tmp_path, settings)
    data = json.loads((tmp_path / "data.json").read_text())
    rows = data["rows"]
    assert [tuple(r["bots"]) for r in rows] == [*lineup.MATCHUPS, *baseset.STOCK_PILES,
                                                 *lineup.EXTRA_MATCHUPS]
    assert [r["stock_piles"] for r in rows] == [False] * 12 + [True] + [False] * 8
    assert {k for r in rows for k in r["kingdom"]} == set(BASE_SET_KEYS)  # every card
    smithy = rows[11]
    assert smithy["ours"]["games"] == 40 and smithy["pyminion"]["games"] == 6
    assert smithy["speed_ratio"] > 1
    readme = (tmp_path / "README.md").read_text()
    assert data["calibration"]["pyminion_big_money"] > 0
    assert "--size games=40 --size pyminion-games=6" in readme and readme.endswith(
        "Hand-written.\n")
    baseset.reproduce(tmp_path, Settings(game="dominion-baseset", from_json=True))
    assert (tmp_path / "README.md").read_text() == readme
