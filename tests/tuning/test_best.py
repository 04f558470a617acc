"""``best:STUDY[@STORAGE]`` plays a study's or an evolution's result wherever a bot goes."""

from __future__ import annotations

import json

import pytest

from games.core import InputError
from tuning.best import resolve_best, split_ref
from tuning.commands.play import split_bots
from tuning.spec import load_spec
from tuning.study.runner import run_study


def _play(*args: str) -> tuple[int, str, str]:
    """``tabletune play quadratic ARGS`` (the test game registers after the CLI is built)."""
    import typer
    from typer.testing import CliRunner

    from games import registry
    from tuning.commands.play import make_play_command

    app = typer.Typer()
    app.command("quadratic")(make_play_command(registry.get("quadratic")))
    app.command("unused")(lambda: None)  # two commands: "quadratic" stays a command name
    res = CliRunner().invoke(app, ["quadratic", *args])
    return res.exit_code, res.stdout, res.stderr


@pytest.fixture
def finished(make_spec, tmp_path):
    path = make_spec(name="tuned", trials=6)
    journal = str(tmp_path / "tuned.journal")
    summary = run_study(load_spec(path), journal)
    return path, journal, summary


def test_best_of_a_study_plays_as_its_reevaluated_parameters(finished):
    path, journal, summary = finished
    assert summary.best["reevaluated"]
    params = summary.best["params"]
    text = f"bowl:x={params['x']!r},y={params['y']!r},k={params['k']}"
    ref = f"best:{path}@{journal}"
    code, out, err = _play("--bots", f"{ref},bowl", "-n", "300", "--seed", "5", "--json")
    assert code == 0, err
    got = json.loads(out)
    assert list(got["bots"]) == [ref, "bowl"]
    assert f"{ref} = {text}" in err and f"trial {summary.best['trial']}" in err
    code, out, _ = _play("--bots", f"{text};bowl", "-n", "300", "--seed", "5", "--json")
    direct = list(json.loads(out)["bots"].values())[0]
    assert got["bots"][ref]["wins"] == direct["wins"]
    assert got["bots"][ref]["mean_score"] == direct["mean_score"]
    # the study's game options that the match changes are named
    assert "tuned with noise = 0.2; this match plays noise = 0.1" in err


@pytest.mark.parametrize("ref, fragment", [
    ("best:no-such-study", "no study spec 'no-such-study'"),
    ("best:{path}@{tmp}/missing.journal", "does not exist"),
    ("best:{path}", "runs/tuned.journal does not exist: run the study first"),
    ("best:deckbuilder-heuristic@{tmp}/x.journal", "is a deckbuilder study, not quadratic"),
    ("best:", "expected best:STUDY"),
    ("best:{path}@", "expected best:STUDY"),
])
def test_missing_study_or_storage_is_one_line_exit_2(make_spec, tmp_path, monkeypatch, ref,
                                                       fragment):
    monkeypatch.chdir(tmp_path)
    path = make_spec(name="tuned", trials=2)
    ref = ref.format(path=path, tmp=tmp_path)
    code, out, err = _play("--bots", f"{ref},bowl", "-n", "10")
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and fragment in err, err
    assert "Traceback" not in err


def test_a_published_report_stands_in_for_a_missing_journal(finished, tmp_path, monkeypatch):
    path, journal, summary = finished
    work = tmp_path / "clone"  # a fresh clone: the report is committed, runs/ is not
    (work / "reports" / "tuned").mkdir(parents=True)
    (work / "reports" / "tuned" / "run.json").write_text(json.dumps(summary.to_dict()))
    monkeypatch.chdir(work)
    published = resolve_best(f"best:{path}")
    assert published.text == resolve_best(f"best:{path}@{journal}").text
    assert "published report" in published.note and f"trial {summary.best['trial']}" in \
        published.note
    (work / "runs").mkdir()
    (work / "runs" / "tuned.journal").write_text("")  # a journal of its own wins
    with pytest.raises(InputError):
        resolve_best(f"best:{path}")  # (an empty journal holds no study)
    (work / "runs" / "tuned.journal").unlink()
    (work / "reports" / "tuned" / "run.json").write_text("{\"best_params\": 3}")
    with pytest.raises(InputError, match="not a study run summary"):
        resolve_best(f"best:{path}")


def test_best_of_an_evolution_is_what_evolve_names(tmp_path, main):
    ck = tmp_path / "ck.pkl"
    code, out, err = main("evolve", "deckbuilder-buylist", "-g", "2",
                          "-P", "6", "--seed", "3", "--checkpoint", str(ck), "--json")
    assert code == 0, err
    evolved = json.loads(out)
    found = resolve_best(f"best:deckbuilder-buylist@{ck}", "deckbuilder")
    assert found.text == evolved["best_genome"]
    assert f"{evolved['best_fitness']:.4f} (exact)" in found.note
    code, out, err = main("play", "deckbuilder", "--bots",
                          f"best:deckbuilder-buylist@{ck}", "-t", "31", "-n", "50", "--json")
    assert code == 0, err
    assert list(json.loads(out)["bots"]) == [f"best:deckbuilder-buylist@{ck}"]
    code, _, err = main("play", "deckbuilder", "--bots",
                        f"best:deckbuilder-buylist@{tmp_path}/none.ckpt", "-n", "5")
    assert code == 2 and "has no checkpoint" in err and "tabletune evolve" in err


def test_spec_opponents_may_name_a_result(finished, tmp_path):
    path, journal, summary = finished
    text = path.read_text().replace("[evaluation]\n", "[evaluation]\nopponents = "
                                    f"[\"best:{path}@{journal}\"]\n", 1)
    against = tmp_path / "against.toml"
    against.write_text(text.replace('name = "tuned"', 'name = "against"'))
    spec = load_spec(against)
    params = summary.best["params"]
    assert spec.evaluation.opponents == (
        f"bowl:x={params['x']!r},y={params['y']!r},k={params['k']}",)
    selfish = tmp_path / "selfish.toml"
    selfish.write_text(path.read_text().replace(
        "[evaluation]\n", f"[evaluation]\nopponents = [\"best:{selfish}\"]\n", 1))
    with pytest.raises(InputError, match="names its own result"):
        load_spec(selfish)


def test_bot_texts_split_around_best_references():
    assert split_bots("best:x@runs/a.journal,big-money") == ["best:x@runs/a.journal",
                                                              "big-money"]
    assert split_bots("best:x@postgresql://u:p@h/db,bowl:x=1,y=2") == [
        "best:x@postgresql://u:p@h/db", "bowl:x=1,y=2"]
    assert split_bots("province@8 | gold@6;best:x") == ["province@8 | gold@6", "best:x"]
    assert split_ref("best:x@postgresql://u:p@h/db") == ("x", "postgresql://u:p@h/db")
    assert split_ref("best:x") == ("x", None)
