"""``--option NAME=VALUE`` on run/report/evolve: game options given on the command line make a
study of their own (STUDY.HASH) that report and best: read back, never mixed with the
spec's own study; a bad name or value is one line with exit status 2."""

from __future__ import annotations

import optuna
import pytest

from games.core import InputError
from tuning._best import resolve_best
from tuning._overrides import apply_items, parse_items, split_derived, with_game_options
from tuning._spec import load_spec
from tuning.study._storage import open_storage, study_names


def test_other_options_name_a_study_of_their_own(make_spec):
    spec = load_spec(make_spec(name="quad"))
    same = with_game_options(spec, {"noise": "0.2"})  # the spec's own value: same study
    assert same is spec
    other = with_game_options(spec, {"noise": "0.3"})
    base, digest = split_derived(other.name)
    assert base == "quad" and len(digest) == 8
    assert other.game_options["noise"] == "0.3" and other.raw["game"]["noise"] == "0.3"
    # the same options in another spelling make the same study; another value another one
    assert apply_items(spec, ["noise=0.30"]).name == other.name
    assert apply_items(spec, ["noise=0.4"]).name not in (other.name, spec.name)


@pytest.mark.parametrize(("items", "words"), [
    (["noise"], "expected NAME=VALUE"),
    (["noise=0.3", "noise=0.4"], "given twice"),
    (["colour=red"], "--option colour: unknown option for quadratic; allowed: noise"),
    (["noise=-1"], "--option noise: -1.0 is below the minimum 0"),
    (["noise=loud"], "--option noise: expected a number"),
])
def test_bad_options_are_one_line(make_spec, items, words):
    spec = load_spec(make_spec(name="quad"))
    with pytest.raises(InputError, match=words):
        apply_items(spec, items)


def test_run_report_and_best_keep_the_studies_apart(make_spec, tmp_path, main, monkeypatch):
    path = make_spec(name="quad", trials=2, games=100, reevaluate_games=100)
    journal = str(tmp_path / "q.journal")
    code, out, err = main("run", str(path), "--storage", journal, "--option", "noise=0.3")
    assert code == 0, err
    derived = apply_items(load_spec(path), ["noise=0.3"]).name
    assert f"study {derived}" in err and f"study {derived} on {journal}" in out
    code, _, err = main("run", str(path), "--storage", journal, "--trials", "3")
    assert code == 0, err
    assert sorted(study_names(open_storage(journal))) == sorted(["quad", derived])
    counts = {name: len(optuna.load_study(study_name=name, storage=open_storage(
        journal).storage).trials) for name in ("quad", derived)}
    assert counts == {"quad": 3, derived: 2}
    published = tmp_path / "reports" / derived
    code, out, err = main("report", str(path), "--storage", journal, "--option", "noise=0.3",
                          "--out", str(published))
    assert code == 0, err
    assert f"tabletune run {path} --option noise=0.3 --storage {journal}" in (
        published / "README.md").read_text()
    digest = split_derived(derived)[1]
    found = resolve_best(f"best:{path}.{digest}@{journal}")
    assert found.study == derived and found.options["noise"] == "0.3"
    assert found.text.startswith("bowl:")
    with pytest.raises(InputError, match="holds no study"):
        resolve_best(f"best:{path}.00000000@{journal}")
    monkeypatch.chdir(tmp_path)  # no runs/ here: the published summary gives it
    again = resolve_best(f"best:{path}.{digest}")
    assert again.text == found.text and "published report" in again.source


def test_run_refuses_a_bad_option_in_one_line(make_spec, main):
    code, out, err = main("run", str(make_spec(name="quad")), "-o", "noise=loud")
    assert code == 2 and out == ""
    assert err.strip() == "error: --option noise: expected a number, got 'loud'"


def test_items_parse_names_with_dashes():
    assert parse_items(["end-rule=provinces", " cap = 50 "]) == {"end_rule": "provinces",
                                                                "cap": "50"}
