"""`tabletune bots GAME [NAME ...]` for every built-in game: a listing of one row per bot
with its parameter count, parameter tables for the bots named (or all with --params), and
complete JSON."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from games import catalog, registry
from tuning.cli import app
from tuning.commands._bots import bot_rows, range_text

GAMES = sorted(catalog.BUILTIN)


def _run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("name", GAMES)
def test_the_listing_gives_each_bot_one_row_with_its_parameter_count(name):
    rows = bot_rows(registry.get(name))
    res = _run("bots", name)
    assert res.exit_code == 0, res.output
    body = [line for line in res.stdout.splitlines() if line.startswith("│")]
    assert len(body) == len(rows)  # piped output: one line per bot, nothing wraps
    for line, (bot, row) in zip(body, rows.items(), strict=True):
        assert re.fullmatch(rf"│ {re.escape(bot)} +│ .+ │ +{len(row['params'])} │", line), line
    assert f"tabletune bots {name} NAME, or --params" in res.stdout


@pytest.mark.parametrize("name", GAMES)
def test_a_named_bot_shows_every_parameter_with_its_default_and_range(name):
    rows = bot_rows(registry.get(name))
    bot, row = max(rows.items(), key=lambda item: len(item[1]["params"]))
    res = _run("bots", name, bot.upper())
    assert res.exit_code == 0, res.output
    assert f"{bot}: {len(row['params'])} parameters" in res.stdout
    for other in set(rows) - {bot}:
        assert f"{other}: " not in res.stdout
    lines = res.stdout.splitlines()
    for pname, param in row["params"].items():
        cells = next(re.split(r"\s*│\s*", line.strip("│ ")) for line in lines
                     if line.startswith(f"│ {pname} "))
        assert cells[1:] == [str(param["default"]) or '""', range_text(param)], cells


@pytest.mark.parametrize("name", GAMES)
def test_params_shows_every_bot_and_json_stays_complete(name):
    rows = bot_rows(registry.get(name))
    res = _run("bots", name, "--params")
    assert res.exit_code == 0, res.output
    for bot, row in rows.items():
        title = f"{bot}: {len(row['params'])} parameters" if row["params"] else f"{bot}: "
        assert title in res.stdout
    data = json.loads(_run("bots", name, "--json").stdout)
    assert data == json.loads(json.dumps(rows))  # every bot, every parameter
    first = next(iter(rows))
    assert list(json.loads(_run("bots", name, first, "--json").stdout)) == [first]


def test_an_unknown_bot_is_refused_with_one_line():
    name = GAMES[0]
    res = _run("bots", name, "no-such-bot")
    assert res.exit_code == 2
    assert res.stderr.strip().splitlines() == [
        f"error: unknown bot 'no-such-bot' for {name}; known bots: "
        f"{', '.join(registry.get(name).bots())}"]


def test_a_range_reads_as_bounds_choices_or_what_is_free():
    assert range_text({"default": 1.0, "low": 0.0, "high": 2.5}) == "0 .. 2.5"
    assert range_text({"default": "a", "choices": ["a", "b"]}) == "a | b"
    assert range_text({"default": ""}) == "text" and range_text({"default": 0.0}) == "any"
