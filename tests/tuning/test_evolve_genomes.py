"""Genome operators keep genomes valid; text forms round-trip through the games' parsers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import BotSpec, InputError
from tuning.evolution._genomes import make_kind

DOMINION = make_kind("dominion", "dominion-buylist", {"max_entries": 6, "max_limit": 4})


def _walk(kind, rng, steps):
    """Random genomes pushed through many mutations and crossovers; all must stay valid."""
    pool = [kind.random(rng) for _ in range(4)]
    for _ in range(steps):
        if rng.random() < 0.5:
            i = rng.randrange(len(pool))
            before = list(pool[i])
            pool[i] = kind.mutate(pool[i], rng)
            assert pool[i] is not before
        else:
            i, j = rng.sample(range(len(pool)), 2)
            pool[i], pool[j] = kind.crossover(pool[i], pool[j], rng)
        for g in pool:
            kind.validate(g)
    return pool


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), steps=st.integers(1, 40))
def test_dominion_operators_keep_genomes_valid_and_texts_parse(rng, steps):
    from games.dominion._buylist import format_buylist, parse_buylist

    for genes in _walk(DOMINION, rng, steps):
        text = DOMINION.to_text(genes)
        assert DOMINION.from_text(text) == genes
        assert format_buylist(parse_buylist(text)) == text


@settings(max_examples=30, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_dominion_operators_do_not_touch_their_inputs(rng):
    a, b = DOMINION.random(rng), DOMINION.random(rng)
    a0, b0 = [tuple(x) for x in a], [tuple(x) for x in b]
    DOMINION.mutate(a, rng)
    DOMINION.crossover(a, b, rng)
    assert a == a0 and b == b0


def test_dominion_mutation_reaches_every_operator():
    import random

    rng = random.Random(1)
    g = DOMINION.from_text("province@<=8 | duchy@gains<=4 | estate@gains<=2 | gold | "
                           "duchy@gains<=6 | smithy:1 | smithy:2@cards>=16 | silver")
    seen = set()
    for _ in range(400):
        m = DOMINION.mutate(g, rng)
        if m[0] != g[0]:
            seen.add("threshold")
        if len(m) > len(g):
            seen.add("insert")
        if len(m) < len(g):
            seen.add("delete")
        if len(m) == len(g) and m[1:] != g[1:]:
            if sorted(m[1:]) == sorted(g[1:]):
                seen.add("order")
            elif [e[0] for e in m[1:]] != [e[0] for e in g[1:]]:
                seen.add("card")
            elif [e[1] for e in m[1:]] != [e[1] for e in g[1:]]:
                seen.add("count")
            else:
                seen.add("gate")
    assert seen == {"threshold", "insert", "delete", "order", "count", "card", "gate"}


def test_dominion_genome_expresses_smithy_big_money():
    from games.dominion._bots import NAMED
    from games.dominion._buylist import parse_buylist

    text = "province@<=8@money>=16 | " + NAMED["smithy-big-money"][0].split(" | ", 1)[1]
    genes = DOMINION.from_text(text)
    assert genes[0] == (8, 4, 2, 16)
    assert genes[1:] == [("gold", 0, 0), ("duchy", 0, 6), ("smithy", 1, 0), ("smithy", 2, 16),
                         ("silver", 0, 0)]
    # same rules as the named bot, whose Province gate reads money > 15
    named = parse_buylist(NAMED["smithy-big-money"][0]).rules
    assert parse_buylist(DOMINION.to_text(genes)).rules[1:] == named[1:]


def test_dominion_genome_plays_like_the_bot_it_writes():
    """The genome's text and the named bot buy the same way: identical games."""
    import numpy as np

    from games import registry
    from games.dominion._bots import spec_from_text

    text = ("province@<=8@money>=16 | duchy@gains<=4 | estate@gains<=2 | gold | "
            "duchy@gains<=6 | smithy:1 | smithy:2@cards>=16 | silver")
    game = registry.get("dominion")
    options = game.check_options({"kingdom": ["default"]})
    bm = spec_from_text("big-money")
    a = game.play([BotSpec("g", genome=DOMINION.to_text(DOMINION.from_text(text))), bm],
                  options, 5, 0, 60)
    b = game.play([spec_from_text("smithy-big-money"), bm], options, 5, 0, 60)
    assert np.array_equal(a.bot_result(), b.bot_result())
    assert np.array_equal(a.bot_score(), b.bot_score())  # the same VP too


@pytest.mark.parametrize("text", [
    "gold | silver",
    "province@<=8 | duchy@gains<=4 | estate@gains<=2 | gold@money>=3",
    "province@<=8 | duchy:2@gains<=4 | estate@gains<=2 | gold",
    "province@<=9 | duchy@gains<=4 | estate@gains<=2 | gold",
    "province@<=8 | duchy@<=4 | estate@gains<=2 | gold",  # Duchy on Provinces left
    "province@<=8 | duchy@gains<=4 | estate@gains<=2 | steward",
    "province@<=8 | duchy@gains<=4 | estate@gains<=2 | duchy",  # a late Duchy needs a gate
    "province@<=8 | duchy@gains<=4 | estate@gains<=2 | smithy@cards>=40",
    "province@<=8 | duchy@gains<=4 | estate@gains<=2 | smithy@cards>=12.5",
    "province@<=8 | duchy@gains<=4 | estate@gains<=2 | smithy@cards>=12@turn>=3",
])
def test_dominion_texts_outside_the_genome_are_refused(text):
    with pytest.raises(InputError):
        DOMINION.from_text(text)


DECKBUILDER = make_kind("deckbuilder", "deckbuilder-buylist",
                        {"turns": 12, "max_entries": 5, "max_count": 6})


@settings(max_examples=60, deadline=None)
@given(rng=st.randoms(use_true_random=False), steps=st.integers(1, 40))
def test_deckbuilder_operators_keep_genomes_valid_and_texts_parse(rng, steps):
    from games.deckbuilder._rules import BuyRule

    for genes in _walk(DECKBUILDER, rng, steps):
        text = DECKBUILDER.to_text(genes)
        assert DECKBUILDER.from_text(text) == genes
        assert BuyRule.parse(text, DECKBUILDER.card_set).text() == text


@pytest.mark.parametrize("text", [
    "gold@5",  # money below the card's cost
    "platinum@9",
    "silver@3,left<=13",  # longer than the 12-turn game
    "silver@3,left<=4,left>=6",
    " | ".join(["silver@3"] * 6),
])
def test_deckbuilder_texts_outside_the_genome_are_refused(text):
    with pytest.raises(InputError):
        DECKBUILDER.from_text(text)


def exact(text: str, turns: int, objective: str = "mean_score") -> float:
    from tuning.evaluation import Scorer
    return Scorer.build("deckbuilder", {"turns": turns}, objective).exact(
        BotSpec("g", genome=text))


def optimum(turns: int) -> float:
    from games.deckbuilder import optimal_value
    return optimal_value(turns)


def test_deckbuilder_exact_fitness_orders_known_rules():
    picky = exact("province@8 | gold@6 | silver@3", 12)
    passive = exact("copper@0", 12)
    assert passive == 3.0  # never buys a victory card: the three starting Estates
    assert passive < picky <= optimum(12) + 1e-9
    frac = exact("province@8 | gold@6 | silver@3", 12, "fraction_of_optimum")
    assert frac == pytest.approx(picky / optimum(12))


def test_deckbuilder_evolution_climbs_towards_the_optimum(tmp_path):
    from tuning._spec import load_spec
    from tuning.evaluation import WorkerPool
    from tuning.evolution._runner import build_evolution

    spec_path = tmp_path / "db.toml"
    spec_path.write_text('[study]\ngame = "deckbuilder"\noptimizer = "deap"\n'
                         'objective = "mean_score"\n[game]\nturns = 10\n'
                         '[evaluation]\ngames = 1\nblock = 1\n'
                         '[deap]\ngenerations = 8\npopulation = 16\noffspring = 16\n'
                         '[genome]\nkind = "deckbuilder-buylist"\n'
                         'seed_genomes = ["province@8 | gold@6 | silver@3"]\n')
    result = build_evolution(load_spec(spec_path), WorkerPool(),
                             checkpoint=tmp_path / "c.ckpt").run()
    best = [r["best"] for r in result.logbook]
    assert best == sorted(best)  # exact fitness: the best so far never drops
    picky = exact("province@8 | gold@6 | silver@3", 10)
    top_text, top = result.hall_of_fame[0]
    assert picky < top.mean <= optimum(10) + 1e-9
    assert exact(top_text, 10) == top.mean
