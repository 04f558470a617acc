"""One meaning per short flag across every command (the generated game commands included);
the old spellings kept for earlier docs are hidden and listed in LEGACY_SHORT_FLAGS."""

from __future__ import annotations

from typing import Any

import typer
from typer.testing import CliRunner

from tuning.cli import app
from tuning.commands._apps import LEGACY_SHORT_FLAGS


def _commands(group: Any, path: tuple[str, ...] = ()) -> list[tuple[str, Any]]:
    if hasattr(group, "list_commands"):  # a group (Typer 0.29 vendors its own click)
        out = []  # the game groups build their commands when asked: ask for each
        for name in group.list_commands(None):
            out += _commands(group.get_command(None, name), (*path, name))
        return out
    return [(" ".join(path), group)]


def _flags() -> tuple[dict[str, set[tuple[str, str]]], list[tuple[str, str, str]]]:
    """short flag -> {(command, long option)} of visible options; hidden short flags."""
    shown: dict[str, set[tuple[str, str]]] = {}
    hidden: list[tuple[str, str, str]] = []
    for command, cmd in _commands(typer.main.get_command(app)):
        for param in cmd.params:
            if getattr(param, "param_type_name", "") != "option":
                continue
            names = [*param.opts, *param.secondary_opts]
            shorts = [n for n in names if len(n) == 2 and n[0] == "-" and n[1] != "-"]
            longs = [n for n in names if n.startswith("--")]
            for short in shorts:
                if param.hidden:
                    hidden.append((command, short, param.name or ""))
                else:
                    shown.setdefault(short, set()).add((command, longs[0]))
    return shown, hidden


def test_every_visible_short_flag_means_one_long_option_everywhere():
    shown, _ = _flags()
    clashes = {s: sorted(uses) for s, uses in shown.items() if len({u[1] for u in uses}) > 1}
    assert not clashes, clashes
    # the spellings the README shows
    expect = {"-n": "--games", "-p": "--param", "-s": "--seed", "-j": "--jobs", "-b": "--bots",
              "-g": "--generations", "-P": "--population", "-t": "--turns"}
    for short, long in expect.items():
        assert {u[1] for u in shown[short]} == {long}, short
    assert ("play dominion", "--param") in shown["-p"]
    assert ("play thegame", "--param") in shown["-p"]
    assert ("run", "--seed") in shown["-s"] and ("evolve", "--seed") in shown["-s"]


def test_hidden_short_flags_are_the_listed_old_spellings():
    shown, hidden = _flags()
    assert {(c, s) for c, s, _ in hidden} == set(LEGACY_SHORT_FLAGS)
    for command, short, _ in hidden:
        # never two options of one command on one flag
        assert command not in {c for c, _ in shown.get(short, set())}


def test_old_population_spelling_still_works_and_is_hidden(tmp_path):
    runner = CliRunner()
    help_text = runner.invoke(app, ["evolve", "--help"], terminal_width=200).stdout
    assert "-P" in help_text and " -p " not in help_text
    ck = tmp_path / "ck.pkl"
    res = runner.invoke(app, ["evolve", "deckbuilder-buylist", "-g", "1", "-p", "4",
                              "--checkpoint", str(ck), "--json"])
    assert res.exit_code == 0, res.output
    new = runner.invoke(app, ["evolve", "deckbuilder-buylist", "-g", "1", "-P", "4",
                              "--checkpoint", str(tmp_path / "ck2.pkl"), "--json"])
    assert new.exit_code == 0, new.output
    import json
    assert json.loads(res.stdout)["best_genome"] == json.loads(new.stdout)["best_genome"]
    both = runner.invoke(app, ["evolve", "deckbuilder-buylist", "-g", "1", "-P", "4", "-p", "6",
                               "--checkpoint", str(tmp_path / "ck3.pkl")])
    assert both.exit_code != 0 and "disagree" in str(both.exception)


def test_param_short_flag_in_every_play_command():
    runner = CliRunner()
    res = runner.invoke(app, ["play", "thegame", "--player", "recovery-fallback", "-p",
                              "alpha=5", "-n", "20", "--json"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["play", "deckbuilder", "--strategy", "heuristic", "-p",
                              "province_left=22", "-t", "12", "-n", "20", "--json"])
    assert res.exit_code == 0, res.output
