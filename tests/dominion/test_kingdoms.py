"""Kingdoms by name (games.dominion._kingdoms): spellings, presets, the seeded random draw,
the refusals, and the same through `tabletune play dominion` and a study spec."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from games import registry
from games.core import BotSpec, InputError
from games.dominion import _cards as cards
from games.dominion import _kingdoms as kingdoms
from games.dominion._cards import BASE_SET_KEYS, CARDS, DEFAULT_KINGDOM
from games.dominion._kingdoms import PRESETS, draw_random, parse_kingdom, random_pool
from tuning.cli import app

runner = CliRunner()
EVERY_KINGDOM_CARD = tuple(c.key for c in CARDS if c.kingdom)


@pytest.fixture
def all_playable(monkeypatch: pytest.MonkeyPatch) -> None:
    """As once the engine plays every base-set card: KINGDOM_KEYS holds every kingdom card."""
    monkeypatch.setattr(cards, "KINGDOM_KEYS", EVERY_KINGDOM_CARD)


def test_no_kingdom_is_seed_001s_and_none_is_empty():
    from games.dominion import parse_kingdom as exported
    assert exported is parse_kingdom
    assert parse_kingdom(None) == DEFAULT_KINGDOM and parse_kingdom("none") == ()


def test_any_reasonable_spelling(all_playable):
    assert parse_kingdom("Throne Room, council_room,MOAT , Worker's Village") == (
        "throne-room", "council-room", "moat", "workers-village")
    assert parse_kingdom(["Witch", "gardens"]) == ("witch", "gardens")


def test_presets_are_ten_base_set_cards_and_take_any_spelling(all_playable):
    rulebook = [n for n in PRESETS if n not in ("default", "blog", "sources", "all", "attack")]
    assert len(rulebook) == 6
    for name in rulebook:
        keys = PRESETS[name]
        assert len(keys) == 10 and len(set(keys)) == 10 and set(keys) <= set(BASE_SET_KEYS)
        assert parse_kingdom(name) == keys
    assert parse_kingdom("Silver & Gold") == PRESETS["silver-and-gold"]
    assert parse_kingdom("sleight of hand") == PRESETS["sleight-of-hand"]
    assert parse_kingdom("First Game") == PRESETS["first-game"]
    assert parse_kingdom("stanford") == parse_kingdom("seed001") == DEFAULT_KINGDOM
    assert parse_kingdom("seed004") == ("smithy", "steward")
    # together the six recommended kingdoms use every card of the base set
    covered = set().union(*(set(PRESETS[n]) for n in rulebook))
    assert covered == set(BASE_SET_KEYS)
    attack = parse_kingdom("Attack")
    assert len(set(attack)) == 10 and {"witch", "militia", "moat"} <= set(attack)


def test_sources_kingdoms_need_no_new_card():
    assert parse_kingdom("default") == DEFAULT_KINGDOM
    assert parse_kingdom("blog") == ("smithy", "steward")
    sources = parse_kingdom("sources")  # a named pool may hold more than ten cards
    assert len(sources) == 11 and set(sources) == {*DEFAULT_KINGDOM, "steward"}


def test_all_is_every_playable_card(monkeypatch):
    assert parse_kingdom("all") == tuple(cards.KINGDOM_KEYS)
    monkeypatch.setattr(cards, "KINGDOM_KEYS", EVERY_KINGDOM_CARD)
    assert parse_kingdom("All") == EVERY_KINGDOM_CARD and len(EVERY_KINGDOM_CARD) > 10


def test_random_is_seeded_and_draws_ten_distinct_cards():
    first = parse_kingdom("random", seed=7)
    assert first == parse_kingdom("random", seed=7) == draw_random(7)
    assert len(first) == 10 == len(set(first))
    assert {parse_kingdom("random", seed=s) for s in range(8)} != {first}
    assert parse_kingdom("random:7") == first  # random:N: seed N whatever the run's seed
    assert parse_kingdom("random:7", seed=99) == first
    pool, source = random_pool()
    if not set(BASE_SET_KEYS) <= set(cards.KINGDOM_KEYS):
        assert pool == tuple(cards.KINGDOM_KEYS) and "not every base-set card" in source
    assert set(first) <= set(pool)


def test_random_draws_from_the_base_set_once_every_card_is_playable(all_playable):
    pool, source = random_pool()
    assert pool == BASE_SET_KEYS and "26" in source
    drawn = {card for s in range(40) for card in draw_random(s)}
    assert drawn <= set(BASE_SET_KEYS) and len(drawn) == 26


@pytest.mark.parametrize("text, message", [
    ("smithy,no-such-card", "unknown kingdom card 'no-such-card'"),
    ("smithy, village, Smithy", "'Smithy' is listed twice"),
    ("smithy,gold", "'gold' is a basic card"),
    ("curse", "'curse' is a basic card"),
    ("big-kingdom", "unknown kingdom preset or card 'big-kingdom'"),
    ("random:x", "random:N needs a whole number"),
    ("random", "drawn with the run's seed"),
])
def test_bad_kingdoms_name_what_is_wrong(text, message):
    with pytest.raises(InputError, match=message):
        parse_kingdom(text)


def test_more_than_ten_cards_and_cards_not_playable_yet(all_playable, monkeypatch):
    with pytest.raises(InputError, match="at most 10 cards, got 11"):
        parse_kingdom(",".join(BASE_SET_KEYS[:11]))
    monkeypatch.setattr(cards, "KINGDOM_KEYS", ("smithy", "village"))
    with pytest.raises(InputError, match="'chapel' is not implemented"):
        parse_kingdom("smithy,chapel")
    with pytest.raises(InputError, match=r"'cellar' \(preset first-game\) is not implemented"):
        parse_kingdom("first-game")


def test_the_game_draws_a_random_kingdom_with_the_runs_seed():
    game = registry.get("dominion")
    checked = game.check_options({"kingdom": "random"})
    assert tuple(checked["kingdom"]) == ("random",)
    settled, notes = game.settle_options(checked, 5)
    assert tuple(settled["kingdom"]) == draw_random(5)
    assert len(notes) == 1 and ", ".join(draw_random(5)) in notes[0]
    assert game.settle_options(game.check_options({}), 5)[1] == []
    bots = [BotSpec("big-money"), BotSpec("big-money-ultimate")]  # basic cards only
    drawn = game.play(bots, checked, 5, 0, 40)  # a Python caller: drawn in play itself
    fixed = game.play(bots, settled, 5, 0, 40)
    assert (drawn.outcome == fixed.outcome).all() and (drawn.turns == fixed.turns).all()


def _play(*args: str):
    return runner.invoke(app, ["play", "dominion", *args])


def test_cli_lists_presets_and_says_which_cards_were_drawn():
    listing = _play("--kingdom", "list")
    assert listing.exit_code == 0, listing.output
    for name in PRESETS:
        assert name in listing.stdout
    assert "Silver & Gold" in listing.stdout and "random" in listing.stdout
    args = ["--bots", "big-money,big-money-ultimate", "-n", "40", "-s", "3", "--kingdom",
            "random", "--json"]
    one, two = _play(*args), _play(*args)
    assert one.exit_code == 0, one.output
    data = json.loads(one.stdout)
    assert tuple(data["options"]["kingdom"]) == draw_random(3)
    assert data["notes"] and ", ".join(draw_random(3)) in data["notes"][0]
    assert json.loads(two.stdout)["bots"] == data["bots"]


@pytest.mark.parametrize("kingdom, message", [
    ("smithy,no-such-card", "unknown kingdom card 'no-such-card'"),
    ("smithy,smithy", "listed twice"),
    ("smithy,province", "'province' is a basic card"),
    ("village,smithy,market,festival,laboratory,bazaar,woodcutter,great-hall,harem,steward,"
     "workers-village", "at most 10 cards, got 11"),
    ("big-kingdom", "unknown kingdom preset or card 'big-kingdom'"),
])
def test_cli_refuses_bad_kingdoms_in_one_line(kingdom, message):
    res = _play("--bots", "big-money", "-n", "5", "--kingdom", kingdom)
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_a_spec_names_a_kingdom_the_same_way(tmp_path: Path):
    from tuning._spec import load_spec
    from tuning.evolution._runner import genome_kind

    text = Path("studies/dominion-buylist.toml").read_text(encoding="utf-8")
    spec_path = tmp_path / "random-kingdom.toml"
    spec_path.write_text(text.replace('kingdom = "default"', 'kingdom = "random"'),
                         encoding="utf-8")
    spec = load_spec(spec_path)
    drawn = draw_random(spec.evaluation.seed)
    assert tuple(spec.checked_options()["kingdom"]) == drawn
    assert tuple(spec.scorer().options["kingdom"]) == drawn
    assert genome_kind(spec).kingdom == drawn
    spec_path.write_text(text.replace('kingdom = "default"', 'kingdom = "Seed 004"'),
                         encoding="utf-8")
    assert tuple(load_spec(spec_path).checked_options()["kingdom"]) == ("smithy", "steward")
    spec_path.write_text(text.replace('kingdom = "default"', 'kingdom = "nowhere"'),
                         encoding="utf-8")
    with pytest.raises(InputError, match="game.kingdom: unknown kingdom preset"):
        load_spec(spec_path)


def test_listing_marks_cards_not_playable_yet(monkeypatch):
    monkeypatch.setattr(cards, "KINGDOM_KEYS", ("smithy", "village"))
    lines = kingdoms.preset_lines()
    first = next(line for line in lines if line.startswith("first-game"))
    assert "not playable yet" in first and "cellar" in first.split("not playable yet")[1]
