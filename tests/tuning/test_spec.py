"""Study specs: shipped specs validate; each kind of mistake gives one clear line, exit 2."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from games.core import InputError
from tuning import _spec as spec_mod
from tuning._spec import list_specs, load_spec

GOOD = """
[study]
name = "t"
game = "dominion"
strategy = "heuristic"
objective = "win_rate"

[evaluation]
games = 100
block = 50
opponents = ["big-money"]

[space.province_money]
low = 12.0
high = 20.0
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.toml"
    path.write_text(textwrap.dedent(text))
    return path


def test_every_shipped_spec_validates():
    paths = list_specs()
    names = {p.stem for p in paths}
    assert {"dominion-heuristic", "deckbuilder-heuristic"} <= names
    for path in paths:
        spec = load_spec(path)
        assert spec.name and spec.game
        if spec.optimizer == "optuna":
            assert spec.space and spec.optuna.trials > 0


def test_shipped_studies_resolve_by_name_and_keep_their_settings():
    spec = load_spec("dominion-heuristic")
    assert spec.game == "dominion" and spec.strategy == "heuristic"
    assert spec.evaluation.opponents == ("smithy-big-money",)
    assert spec.evaluation.reevaluate_games == 20000
    deck = load_spec("deckbuilder-heuristic")
    assert deck.objective == "fraction_of_optimum" and deck.game_options["turns"] == 31


def test_good_spec_parses_with_defaults(tmp_path):
    spec = load_spec(write(tmp_path, GOOD))
    assert spec.name == "t" and spec.direction == "maximize"
    assert spec.optuna.sampler == "tpe" and spec.optuna.pruner == "wilcoxon"
    assert [b.name for (b,) in spec.scorer().pool] == ["big-money"]
    over = spec.with_overrides(trials=7, jobs=2, seed=9)
    assert (over.optuna.trials, over.evaluation.jobs, over.evaluation.seed) == (7, 2, 9)


MISTAKES = [
    ("unknown game", GOOD.replace('game = "dominion"', 'game = "chess"'),
     ["study.game", "unknown game 'chess'", "dominion"]),
    ("unknown strategy", GOOD.replace('strategy = "heuristic"', 'strategy = "clever"'),
     ["study.strategy", "unknown strategy 'clever'", "heuristic"]),
    ("unknown parameter", GOOD.replace("[space.province_money]", "[space.province_cash]"),
     ["space.province_cash", "unknown parameter", "province_money"]),
    ("bad range", GOOD.replace("high = 20.0", "high = 10.0"),
     ["space.province_money", "bad range", "low (12.0) must be below high (10.0)"]),
    ("range outside declared", GOOD.replace("high = 20.0", "high = 99.0"),
     ["space.province_money", "bad range", "[0.0, 30.0]"]),
    ("bad type", GOOD.replace("games = 100", 'games = "many"'),
     ["evaluation.games", "expected an integer", "'many'"]),
    ("bad param type",
     GOOD.replace("[space.province_money]", '[space.province_money]\ntype = "complex"'),
     ["space.province_money.type", "'complex' is not one of", "float, int, categorical"]),
    ("unknown key", GOOD.replace("games = 100", "games = 100\ngamez = 3"),
     ["evaluation.gamez", "unknown key", "reevaluate_games"]),
    ("unknown sampler", GOOD + '\n[optuna]\nsampler = "magic"\n',
     ["optuna.sampler", "'magic' is not one of", "tpe"]),
    ("unknown opponent", GOOD.replace('["big-money"]', '["nobody"]'),
     ["evaluation.opponents", "nobody"]),
    ("bad objective", GOOD.replace('"win_rate"', '"profit"'),
     ["study.objective", "'profit'", "win_rate"]),
    ("not toml", "[study\ngame = 1", ["not valid TOML"]),
]


@pytest.mark.parametrize("label,text,fragments", MISTAKES, ids=[m[0] for m in MISTAKES])
def test_each_mistake_names_file_key_and_allowed_values(tmp_path, label, text, fragments):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as err:
        load_spec(path)
    message = str(err.value)
    assert str(path) in message
    for fragment in fragments:
        assert fragment in message, (label, message)
    assert "\n" not in message


@pytest.mark.parametrize("label,text,fragments", MISTAKES[:6], ids=[m[0] for m in MISTAKES[:6]])
def test_cli_reports_spec_mistakes_in_one_line_with_exit_2(tmp_path, monkeypatch, capsys,
                                                          label, text, fragments):
    from tuning import cli
    path = write(tmp_path, text)
    monkeypatch.setattr(sys, "argv", ["tabletune", "run", str(path), "--trials", "1"])
    with pytest.raises(SystemExit) as exit_info:
        cli.main()
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    assert fragments[0] in captured.err
    assert captured.err.strip().startswith("error:")


def test_cli_subprocess_has_no_traceback(tmp_path, cli):
    path = write(tmp_path, MISTAKES[0][1])
    res = cli("run", str(path))
    assert res.returncode == 2
    assert "Traceback" not in res.stderr
    assert "unknown game 'chess'" in res.stderr


def test_unknown_study_name_lists_known_ones():
    with pytest.raises(InputError, match="dominion-heuristic"):
        spec_mod.resolve_path("no-such-study")


def test_bad_cli_override_is_refused(tmp_path):
    """Numbers are checked once, by the command (tuning._limits; test_bad_inputs); the
    backend when the study is resolved with the command line's flags."""
    with pytest.raises(InputError, match="--backend"):
        load_spec(write(tmp_path, GOOD), spec_mod.Flags(backend="spark"))
    with pytest.raises(InputError, match="--backend"):
        load_spec(write(tmp_path, GOOD)).with_overrides(backend="spark")
