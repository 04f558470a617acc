"""One way to ask whether a game offers an optional capability: games.capabilities.offers."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from games import registry
from games.capabilities import CAPABILITIES, offers

ROOT = Path(__file__).resolve().parents[2]


class Bare(registry.Game):
    name = "bare-for-capabilities"


class Watching(Bare):
    def watch(self, bots: Any, options: Any, seed: int, index: int) -> str:
        return "a game"

    def tally(self, outcomes: Any, options: Any) -> dict[str, Any]:
        return {}


class Training(Bare):
    has_trainer = True


def test_a_game_offers_what_its_class_overrides_and_nothing_else():
    assert [c for c in CAPABILITIES if offers(Bare(), c)] == []
    assert [c for c in CAPABILITIES if offers(Watching(), c)] == ["watch", "tally"]
    assert [c for c in CAPABILITIES if offers(Training(), c)] == ["trainer"]


def test_the_built_in_games_offer_what_they_implement():
    have = {name: {c for c in CAPABILITIES if offers(registry.get(name), c)}
            for name in ("deckbuilder", "dominion", "splendor", "thegame")}
    assert {"solver", "exact", "state", "genomes"} <= have["deckbuilder"]
    assert {"genomes", "trainer", "state", "settle"} <= have["dominion"]
    assert "solver" not in have["dominion"] and "settle" not in have["splendor"]
    assert {"state", "watch"} <= have["splendor"] and "solver" not in have["splendor"]
    assert {"state", "tally"} <= have["thegame"] and "genomes" not in have["thegame"]


def test_no_capability_is_a_member_of_game_and_each_has_a_neutral_default():
    from games.capabilities import Neutral

    for name, row in CAPABILITIES.items():
        for member in (*row.hooks, *row.reads, *([row.flag] if row.flag else [])):
            assert not hasattr(registry.Game, member), (name, member)
            assert hasattr(Neutral, member), (name, member)
        assert all(need in CAPABILITIES for need in row.needs), name
        assert (row.module is None) == (not row.names), name


def test_the_core_of_game_is_small():
    """The description's own members (what every game has); everything optional is a
    capability of the table."""
    core = {n for n in vars(registry.Game) if not n.startswith("__")}
    assert core == {"name", "summary", "player_counts", "options_type", "options", "bots",
                    "play", "parse_bot", "check_bot", "check_options", "seats"}, sorted(core)


def test_use_gives_the_games_own_hook_else_the_neutral_default():
    from games.capabilities import use

    assert use(Bare(), "report").baselines({}) == {}
    assert use(Bare(), "tally").summarize_tally({"x": (0.5, (0.4, 0.6))}) == {"x": 0.5}
    assert use(Bare(), "exact").exact(None, {}, "win_rate") is None
    assert use(Watching(), "watch").watch([], {}, 0, 0) == "a game"
    with pytest.raises(registry.InputError, match="has no trainer"):
        use(Bare(), "trainer").trainer()
    with pytest.raises(AttributeError, match="not a member"):
        use(Bare(), "report").play  # noqa: B018
    line_up = use(registry.get("dominion"), "contract").contract_line_up()
    assert [b.name for b in line_up] == list(registry.get("dominion").golden_bots)


def test_the_table_in_the_module_text_lists_every_capability():
    import games.capabilities as module

    rows = {m.group(1) for line in module.__doc__.splitlines()
            if (m := re.match(r"``(\w+)``  ", line))}
    assert rows == set(CAPABILITIES)


def test_parts_are_found_by_presence_in_the_game_package():
    from games.capabilities import package_of, part

    for name in ("deckbuilder", "dominion", "splendor", "thegame"):
        game = registry.get(name)
        assert package_of(game) == f"games.{name}"
        assert offers(game, "openspiel") and offers(game, "compiling")
        assert part(game, "codec").game == name and part(game, "dealer") is not None
        assert isinstance(part(game, "compiling", "FIRST_USE_SECONDS"), int | float)
    assert part(Bare(), "codec") is None and not offers(Bare(), "codec")


def test_an_unknown_capability_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown capability 'solve'.*solver"):
        offers(Bare(), "solve")


def test_the_tuning_layer_asks_offers_and_nothing_else():
    """No hasattr on a game, no caught NotImplementedError, no comparison of a game's hook
    with the base class's: tuning/ asks games.capabilities.offers."""
    found = []
    for path in (ROOT / "tuning").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "hasattr" \
                    and "game" in ast.unparse(node.args[0]):
                found.append(f"{where} {ast.unparse(node)}")
            if isinstance(node, ast.ExceptHandler) and node.type is not None \
                    and "NotImplementedError" in ast.unparse(node.type):
                found.append(f"{where} except {ast.unparse(node.type)}")
            if isinstance(node, ast.Compare) and any(isinstance(o, ast.Is | ast.IsNot)
                                                     for o in node.ops):
                text = ast.unparse(node)
                if "Game." in text and "type(" in text:
                    found.append(f"{where} {text}")
    assert not found, found
