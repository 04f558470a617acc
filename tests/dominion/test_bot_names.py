"""The standard bots answer to the names Dominion players use, in any case, spacing or
hyphenation; our own names keep working; `tabletune bots dominion` shows each bot's usual
name and rules."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from games import registry
from games.bot_names import bot_key, find_bot
from games.dominion._named_bots import COMMUNITY, NAMED
from tuning.cli import app

GAME = registry.get("dominion")

PLAYERS_SAY = {
    "Double Witch": "double-witch",
    "Militia Big Money": "double-militia",
    "Chapel/Witch": "chapel-witch",
    "Chapel Witch": "chapel-witch",
    "Laboratory Big Money": "laboratory-big-money",
    "Lab Big Money": "laboratory-big-money",
    "Council Room Big Money": "council-room-big-money",
    "Moneylender Big Money": "moneylender-big-money",
    "Bandit Big Money": "bandit-big-money",
    "Workshop/Gardens": "workshop-gardens",
    "Gardens/Workshop": "workshop-gardens-standard",
    "Standard Workshop/Gardens": "workshop-gardens-standard",
    "Moat Big Money": "moat-big-money",
    "Moat against attacks": "moat-big-money",
    "Big Money": "big-money",
    "Smithy Big Money": "smithy-big-money",
    "Big Money Ultimate": "big-money-ultimate",
    "BMU": "big-money-ultimate",
}


@pytest.mark.parametrize(("said", "name"), PLAYERS_SAY.items())
def test_community_names_in_any_spelling(said, name):
    for text in (said, said.lower(), said.upper(), said.replace(" ", "-"),
                 f"  {said.replace(' ', '_')} "):
        assert GAME.parse_bot(text).name == name, text
    assert GAME.parse_bot(f"{said}:play_witch=3").params == {"play_witch": 3}


def test_our_names_keep_working_and_no_two_bots_share_a_name():
    keys: dict[str, str] = {}
    for name, info in GAME.bots().items():
        assert GAME.parse_bot(info.example or name).name == name
        for key in {bot_key(name), *(bot_key(a) for a in info.aliases)}:
            assert keys.setdefault(key, name) == name, (key, name, keys[key])
    assert set(COMMUNITY) <= set(NAMED)


def test_an_unknown_name_is_still_refused():
    assert find_bot("Double Witches", GAME.bots()) is None
    assert find_bot(" - ", GAME.bots()) is None
    with pytest.raises(registry.InputError, match="unknown bot 'Militia Big Mony'"):
        GAME.parse_bot("Militia Big Mony")


def test_bots_listing_shows_usual_names_and_rules():
    res = CliRunner().invoke(app, ["bots", "dominion"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "Militia Big Money" in res.output and "Chapel/Witch" in res.output
    row = next(line for line in res.output.splitlines() if "double-witch" in line)
    assert "Double Witch" in row and "province | gold | witch:2 | silver" in row
    one = CliRunner().invoke(app, ["bots", "dominion", "chapel witch"],
                             env={"COLUMNS": "200"})
    assert one.exit_code == 0, one.output
    assert "chapel-witch: " in one.output
    assert "also called: Chapel/Witch, Chapel Witch" in one.output


def test_play_takes_community_names():
    res = CliRunner().invoke(app, ["play", "dominion", "--bots",
                                   "Militia Big Money,double witch", "-n", "40", "--json",
                                   "--kingdom", "witch,militia"])
    assert res.exit_code == 0, res.output
    assert '"double-militia"' in res.stdout and '"double-witch"' in res.stdout
