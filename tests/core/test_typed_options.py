"""Typed options (issue 27, item 3): every built-in game's check returns a frozen dataclass
declared once beside the game, its schema derived from it, and the generic layer still
reads any game's options as a mapping."""

from __future__ import annotations

import dataclasses
import json
import pickle
import re
from pathlib import Path

import pytest

from games import registry
from games.core import InputError
from games.options import FrozenOptions, GameOptions, option, options_schema

ROOT = Path(__file__).resolve().parents[2]
BUILT_IN = ("deckbuilder", "dominion", "splendor", "thegame")


@pytest.mark.parametrize("name", BUILT_IN)
def test_check_options_returns_the_games_frozen_dataclass(name):
    game = registry.get(name)
    opts = game.check_options({})
    assert type(opts) is game.options_type and dataclasses.is_dataclass(opts)
    assert isinstance(opts, GameOptions)
    fields = dataclasses.fields(opts)
    assert [f.name for f in fields] == [o.name for o in game.options]  # the schema derives
    for f, o in zip(fields, game.options, strict=True):
        assert f.default == o.default  # one default, declared once
        assert getattr(opts, f.name) == opts[f.name]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(opts, fields[0].name, None)
    again = game.check_options(opts)  # checked options check again to the same
    assert again == opts and type(again) is type(opts)
    assert pickle.loads(pickle.dumps(opts)) == opts  # workers get them as they are
    assert json.loads(json.dumps(opts.as_dict(), default=list)) is not None
    assert registry.typed(game, opts) is opts and registry.typed(game, {}) == opts


def test_typed_values_and_a_mapping_view():
    dom = registry.get("dominion").check_options({"cap": "50", "tiebreak": "no"})
    assert dom.cap == 50 and dom.tiebreak is False and dom.solo == 0
    assert dict(dom) == dom.as_dict() and dom == dom.as_dict()
    assert {**dom, "cap": 60}["cap"] == 60 and set(dom) == {o.name for o in
                                                             registry.get("dominion").options}
    deck = registry.get("deckbuilder").check_options({"turns": 20})
    assert deck.turns == 20 and deck.end_chance is None and deck.hand_size == 5
    game = registry.get("thegame").check_options({"players": 3})
    assert (game.players, game.depth, game.expert, game.short_turn) == (3, 0, False, True)
    assert registry.get("splendor").check_options({"refill": "sampled"}).refill == "sampled"
    with pytest.raises(InputError, match="game.cap"):
        registry.get("splendor").check_options({"cap": 0})


def test_a_game_with_a_schema_only_gets_frozen_options():
    class SchemaOnly(registry.Game):
        name = "schema-only-for-options"
        options = (registry.Option("cap", int, 40, "rounds", low=1),)

    opts = SchemaOnly().check_options({"cap": 7})
    assert isinstance(opts, FrozenOptions) and opts.cap == 7 and opts["cap"] == 7
    assert opts == {"cap": 7} and pickle.loads(pickle.dumps(opts)) == opts
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.cap = 8


def test_a_declared_type_gives_the_schema_and_the_flags():
    @dataclasses.dataclass(frozen=True, eq=False)
    class Declared(GameOptions):
        rounds: int = option(12, "rounds to play", low=1, high=99, flag="--rounds")
        rule: str = option("a", "which rule", choices=("a", "b"))
        chance: float | None = option(None, "an end chance", kind=float)
        names: tuple[str, ...] = option(("x",), "names")

    schema = {o.name: o for o in options_schema(Declared)}
    assert schema["rounds"].kind is int and schema["rounds"].cli_flag == "--rounds"
    assert schema["rule"].choices == ("a", "b") and schema["chance"].kind is float
    assert schema["names"].kind is list and schema["names"].default == ("x",)

    class WithType(registry.Game):
        name = "declared-for-options"
        options_type = Declared

    assert [o.name for o in WithType.options] == ["rounds", "rule", "chance", "names"]
    opts = WithType().check_options({"names": "p, q"})
    assert opts.names == ("p", "q") and opts.rounds == 12 and opts.chance is None


def test_the_scorer_checks_changed_options_again():
    from tuning.evaluation._scoring import Scorer

    scorer = Scorer.build("thegame", {}, "win_rate").with_options(players=2)
    assert isinstance(scorer.options, registry.get("thegame").options_type)
    assert scorer.options.players == 2


GAME_CODE = ("games/deckbuilder/game.py", "games/deckbuilder/_genome.py",
             "games/dominion/game.py", "games/dominion/_genome.py", "games/dominion/_state.py",
             *sorted(f"games/dominion/turns/{p.name}"
                     for p in (ROOT / "games/dominion/turns").glob("*.py")),
             "games/thegame/game.py", "games/splendor/game.py", "games/splendor/_trace.py")


def test_game_code_reads_attributes_and_writes_no_default_again():
    names = {o.name for g in BUILT_IN for o in registry.get(g).options}
    for path in GAME_CODE:
        text = (ROOT / path).read_text(encoding="utf-8")
        for name in names:
            assert not re.search(rf"""\.get\(\s*["']{name}["']\s*,""", text), (path, name)


def test_the_dominion_state_takes_its_default_rules_from_the_options():
    """The turn-level state's own keywords default to the declared options (not a second
    copy of them), and ``from_options`` reads a plain mapping through the game's check."""
    import inspect

    from games.dominion._state import DominionState

    game = registry.get("dominion")
    defaults = game.check_options({})
    params = inspect.signature(DominionState.new).parameters
    for name in ("end_rule", "tiebreak", "cap", "solo"):
        assert params[name].default == getattr(defaults, name), name
    st = DominionState.from_options({"cap": 7, "tiebreak": "no", "kingdom": "smithy"}, 3, 2)
    assert (st.cap, st.tiebreak, st.end_rule, st.solo) == (7, False, "standard", 0)
    with pytest.raises(InputError, match="game.cap"):
        DominionState.from_options({"cap": 0}, 3, 2)
