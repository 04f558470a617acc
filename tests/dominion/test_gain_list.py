"""The strategy language's gain list (``gain:``): what a Workshop, Artisan, Remodel or Mine
gains, apart from what the buy list buys."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import BotSpec, InputError
from games.dominion._bots import compile_bots
from games.dominion._buylist import parse_buylist
from games.dominion._cards import INDEX, KEYS, initial_supply
from games.dominion._layout import GAIN_LIST
from games.dominion._named_bots import NAMED
from games.dominion._state import DominionState
from games.dominion._state_player import PolicyPlayer
from games.dominion._strategy import format_strategy, parse_strategy

STANDARD = NAMED["workshop-gardens-standard"][0]
KINGDOM = ("workshop", "gardens", "remodel", "mine", "artisan", "village", "smithy",
           "market", "cellar", "moat")


def test_a_gain_list_parses_formats_back_and_names_its_cards():
    s = parse_strategy(STANDARD)
    assert s.buylist == parse_buylist("workshop:8 | gardens | estate@empty>=1 | copper")
    assert s.gain == parse_buylist("gardens | workshop | estate | silver")
    assert parse_strategy(format_strategy(s)) == s
    assert "gain: gardens | workshop | estate | silver" in format_strategy(s)
    assert s.cards == {"workshop", "gardens", "estate", "copper", "silver"}
    assert not s.plain
    both = parse_strategy("province | gold | gain: gold | silver | play: workshop | "
                          "set: chapel_max=2")
    assert both.gain.cards == {"gold", "silver"} and both.play == ("workshop",)


@pytest.mark.parametrize("text, words", [
    ("province | gain: gardens | gain: silver", "given twice"),
    ("province | gain: | play: smithy", "without cards"),
    ("province | gain: gardenz", "gain list"),
    ("province | gain: silver@share>2", "gain list"),
    ("gain: gardens", "a buy list comes first"),
])
def test_a_bad_gain_list_is_refused_with_its_reason(text: str, words: str) -> None:
    with pytest.raises(InputError, match=words):
        parse_strategy(text)


def test_texts_without_a_gain_list_compile_as_before():
    supply = initial_supply(2, list(KINGDOM))
    comp = compile_bots([BotSpec("buylist", genome="province | gold | workshop | silver")],
                        supply)
    assert comp.nrules[0] == 4 and comp.rules.shape[1] == 4
    assert not (comp.rules[0, :, 0] == GAIN_LIST).any()
    gains = compile_bots([BotSpec("buylist", genome="province | gold | workshop | silver"
                                                    " | gain: gardens | estate")], supply)
    assert gains.nrules[0] == 4 and gains.rules.shape[1] == 7
    assert gains.rules[0, 4, 0] == GAIN_LIST and gains.rules[0, 4, 1] == 2
    assert np.array_equal(gains.rules[0, :4], comp.rules[0])


def _gained(text: str, card: str, hand: list[str]) -> list[str]:
    """What the bot ``text`` gains (and trashes, as ``-card``) when it plays ``card`` from
    ``hand`` on turn 1."""
    st = DominionState.new(2, KINGDOM, seed=3)
    st.set_cards(0, hand=[INDEX[c] for c in hand])
    st.restart_turn()
    st.refresh()
    before = st.owned(0)
    st.apply(("play", card))
    player = PolicyPlayer(BotSpec("buylist", genome=text), np.random.default_rng(0))
    while st.current_player() == 0 and st.phase == 0 and not st.is_terminal():
        st.apply(player.act(st))
    after = st.owned(0)
    gained = [KEYS[c] for c in range(len(after)) if after[c] > before[c]]
    return sorted(gained + [f"-{KEYS[c]}" for c in st.trash])


def test_workshop_gains_by_the_gain_list_and_by_the_buy_list_without_one():
    assert _gained("province | gold | silver | gain: gardens | silver", "workshop",
                   ["workshop", "copper", "copper", "estate", "estate"]) == ["gardens"]
    assert _gained("province | gold | silver", "workshop",
                   ["workshop", "copper", "copper", "estate", "estate"]) == ["silver"]


def test_a_gain_list_that_fits_nothing_falls_back_to_the_buy_list():
    assert _gained("province | gold | silver | gain: gold", "workshop",
                   ["workshop", "copper", "copper", "estate", "estate"]) == ["silver"]


def test_mine_takes_only_treasures_from_a_gain_list():
    hand = ["mine", "copper", "estate", "estate", "estate"]
    assert _gained("province | gold | silver", "mine", hand) == ["-copper", "silver"]
    silver = ["mine", "silver", "estate", "estate", "estate"]
    assert _gained("province | gold | silver", "mine", silver) == ["-silver", "gold"]
    # up to $6: Gardens is no treasure, so Mine skips it and takes a Silver for its Silver
    assert _gained("province | gold | silver | gain: gardens | silver", "mine",
                   silver) == ["-silver"]


def test_the_strategy_genome_evolves_a_gain_list_only_when_asked():
    import random

    from games.dominion._strategy_genome import DominionStrategy

    kingdom = ",".join(KINGDOM)
    plain = DominionStrategy({"kingdom": kingdom})
    assert len(plain.random(random.Random(1))) == 3
    with pytest.raises(InputError, match="not evolved here"):
        plain.from_text("province@<=8 | duchy@gains<=0 | estate@gains<=0 | silver"
                        " | gain: gardens")
    kind = DominionStrategy({"kingdom": kingdom, "max_gain": 3})
    rng = random.Random(7)
    genes = kind.random(rng)
    for _ in range(300):  # every operator keeps the genome valid
        genes = kind.mutate(genes, rng)
        kind.validate(genes)
        genes = kind.crossover(genes, kind.random(rng), rng)[0]
        kind.validate(genes)
    text = "province@<=8 | duchy@gains<=4 | estate@gains<=2 | workshop:6 | silver | gain: " \
           "gardens | workshop | estate"
    assert kind.to_text(kind.from_text(text)) == text
    assert parse_strategy(text).gain.cards == {"gardens", "workshop", "estate"}
    with pytest.raises(InputError, match="cards only"):
        kind.from_text(text.replace("gain: gardens", "gain: gardens:2"))
