"""`tabletune --help` imports no command module and draws the same pages as before.

The top-level group lists its commands from ``tuning.commands._lazy.COMMANDS``; these tests
hold that table to the command modules (names, order, modules, summaries) and compare the
pages drawn lazily with those drawn from the whole app. Help pages are drawn without
``rich.markdown`` and ``rich.traceback`` (``tuning.commands._rich_help``); the pages must
not change for it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
import typer.main

from games import catalog
from tests.tuning.test_cli_imports import RUN_AND_LIST_MODULES
from tuning.commands import _lazy as lazy
from tuning.commands import _rich_help as rich_help

_RUN = """
import json, sys
mode, args = sys.argv[1], json.loads(sys.argv[2])
if mode == "whole":
    import tuning.cli
    tuning.cli.app  # every command module imported first
elif mode == "plain-rich":
    import typer.rich_utils  # Typer's own import, stand-ins unused
elif mode == "untabled":
    from tuning.commands import _lazy as lazy
    del lazy.COMMANDS["studies"]  # as if a new command's line were forgotten
sys.argv = ["tabletune", *args]
""" + RUN_AND_LIST_MODULES


def _tabletune(mode: str, *args: str) -> tuple[str, str, int, set[str]]:
    """stdout (before the probe's line), stderr, exit status and loaded modules of
    ``tabletune ARGS`` in a fresh interpreter; ``mode``: lazy, whole, plain-rich or
    untabled."""
    env = {**os.environ, "COLUMNS": "120"}
    env.pop("TABLETUNE_GAMES", None)
    done = subprocess.run([sys.executable, "-c", _RUN, mode, json.dumps(list(args))],
                          capture_output=True, text=True, env=env, timeout=300)
    out, _, probe = done.stdout.rpartition("\nMODULES ")
    data = json.loads(probe)
    return out, done.stderr, data["code"], set(data["modules"])


def test_the_table_names_every_command_its_module_and_summary_in_help_order():
    from tuning.cli import app

    modules = {c.name: c.callback.__module__ for c in app.registered_commands}
    modules.update({g.name: g.typer_instance.info.cls.__module__
                    for g in app.registered_groups})
    assert {name: f"tuning.commands.{e.module}" for name, e in lazy.COMMANDS.items()} \
        == modules
    built = typer.main.get_command(app)
    assert list(built.commands) == list(lazy.COMMANDS)  # the order --help lists them in
    for name, command in built.commands.items():
        assert (command.help or "").split("\n\n")[0].strip() == lazy.COMMANDS[name].summary


def test_help_imports_no_command_module_and_lists_what_the_whole_app_lists():
    out, _, code, modules = _tabletune("lazy", "--help")
    assert code in (0, None)
    commands = {m for m in modules if m.startswith("tuning.commands.")}
    assert commands <= {"tuning.commands._apps", "tuning.commands._flags",
                        "tuning.commands._lazy", "tuning.commands._output",
                        "tuning.commands._rich_help"}, sorted(commands)
    whole, _, _, _ = _tabletune("whole", "--help")
    assert out == whole
    for name in lazy.COMMANDS:
        assert f" {name} " in out


def test_a_command_imports_its_own_module_alone():
    _, _, code, modules = _tabletune("lazy", "studies", "--json")
    assert code in (0, None)
    assert "tuning.commands.study" in modules
    others = {f"tuning.commands.{e.module}" for e in lazy.COMMANDS.values()} \
        - {"tuning.commands.study"}
    assert not modules & others, sorted(modules & others)


@pytest.mark.parametrize("args", [("--help",), ("run", "--help"), ("evolve", "--help")])
def test_help_pages_need_no_markdown_and_look_as_with_typers_own_import(args):
    out, _, code, modules = _tabletune("lazy", *args)
    assert code in (0, None)
    assert "typer.rich_utils" in modules
    assert not {m for m in modules if m.split(".")[0] in ("markdown_it", "attr", "attrs")
                or m in ("rich.markdown", "rich.traceback")}
    plain, _, _, plain_modules = _tabletune("plain-rich", *args)
    assert "rich.markdown" in plain_modules  # the comparison is with Typer's own import
    assert out == plain and "Usage: tabletune" in out


GAME_LINES = [*((game, ("bots", game, "--json")) for game in sorted(catalog.BUILTIN)),
              ("deckbuilder", ("solve", "deckbuilder", "--turns", "5", "--json"))]


@pytest.mark.parametrize(("game", "args"), GAME_LINES, ids=[" ".join(a[:2]) for _, a in GAME_LINES])
def test_a_game_command_imports_its_game_alone(game, args):
    _, err, code, modules = _tabletune("lazy", *args)
    assert code in (0, None), err
    loaded = {name for name in catalog.BUILTIN
              if any(m == f"games.{name}" or m.startswith(f"games.{name}.") for m in modules)}
    assert loaded == {game}


def test_a_command_missing_from_the_table_still_runs():
    out, err, code, _ = _tabletune("untabled", "studies", "--json")
    assert code in (0, None), err
    assert {row["name"] for row in json.loads(out)} >= {"deckbuilder-heuristic"}


def test_a_near_miss_is_answered_with_the_command_meant():
    _, err, code, _ = _tabletune("lazy", "stuides")
    assert code == 2
    assert "No such command 'stuides'. Did you mean 'studies'?" in err


def test_stand_ins_build_and_read_the_real_classes():
    markdown = rich_help._stand_in("rich.markdown", "Markdown")("# title")
    from rich.markdown import Markdown
    from rich.traceback import Traceback

    assert type(markdown) is Markdown
    stand_in = rich_help._stand_in("rich.traceback", "Traceback")
    assert stand_in.from_exception == Traceback.from_exception
    with pytest.raises(AttributeError):
        stand_in.no_such_attribute  # noqa: B018
