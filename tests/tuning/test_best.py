"""``best:STUDY[@STORAGE]`` plays a study's or an evolution's result wherever a bot goes."""

from __future__ import annotations

import json

import pytest

from games.core import InputError
from tuning._best import resolve_best, resolve_opponents, split_ref
from tuning._spec import load_spec
from tuning.commands._play import split_bots
from tuning.study._runner import run_study


def _play(*args: str) -> tuple[int, str, str]:
    """``tabletune play quadratic ARGS`` (the test game registers after the CLI is built)."""
    import typer
    from typer.testing import CliRunner

    from games import registry
    from tuning.commands._play import make_play_command

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
    # an option the command line leaves alone is the study's (noise 0.2, default 0.1)
    assert got["options"]["noise"] == 0.2 and "this match plays" not in err
    code, out, _ = _play("--bots", f"{text};bowl", "-n", "300", "--seed", "5", "--json",
                         "--noise", "0.2")
    direct = list(json.loads(out)["bots"].values())[0]
    assert got["bots"][ref]["wins"] == direct["wins"]
    assert got["bots"][ref]["mean_score"] == direct["mean_score"]
    # a typed option wins, and the study's game options that the match changes are named
    code, out, err = _play("--bots", f"{ref},bowl", "-n", "30", "--noise", "0.1", "--json")
    assert code == 0 and json.loads(out)["options"]["noise"] == 0.1
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
    from tuning.reporting._summary import study_summary, write_summary
    from tuning.study._runner import load_study

    path, journal, summary = finished
    work = tmp_path / "clone"  # a fresh clone: the report is committed, runs/ is not
    written = write_summary(work / "reports" / "tuned",
                            study_summary(load_study(load_spec(path), journal)))
    data = json.loads(written.read_text())
    assert data["best_params"] == summary.best["params"] and data["seed"] == 1
    assert data["best_value_games"] == 400 and data["best_value_seed"] > 0
    monkeypatch.chdir(work)
    published = resolve_best(f"best:{path}")
    assert published.text == resolve_best(f"best:{path}@{journal}").text
    assert "published run.json" in published.note and f"trial {summary.best['trial']}" in \
        published.note and f"root seed {data['best_value_seed']}" in published.note
    written.write_text(json.dumps(summary.to_dict()))  # a `run --json` record reads too
    assert resolve_best(f"best:{path}").text == published.text
    (work / "runs").mkdir()
    (work / "runs" / "tuned.journal").write_text("")  # a journal of its own wins
    with pytest.raises(InputError):
        resolve_best(f"best:{path}")  # (an empty journal holds no study)
    (work / "runs" / "tuned.journal").unlink()
    written.write_text("{\"best_params\": 3}")
    with pytest.raises(InputError, match="not a published study summary"):
        resolve_best(f"best:{path}")


def test_an_evolution_report_publishes_what_best_plays(tmp_path, monkeypatch):
    from tests.tuning.test_evolve_parallel import SPEC  # registers its toy-evolve game
    from tuning.evaluation import WorkerPool
    from tuning.evolution._runner import build_evolution
    from tuning.reporting import build_evolution_report

    path = tmp_path / "studies" / "toy-evolution.toml"
    path.parent.mkdir()
    path.write_text(SPEC)
    ck = tmp_path / "ck" / "evolution.ckpt"
    with WorkerPool() as pool:
        build_evolution(load_spec(path), pool, generations=2, checkpoint=ck).run()
    work = tmp_path / "clone"
    report = build_evolution_report(load_spec(path), ck, work / "reports" / "toy-evolution")
    data = json.loads((work / "reports" / "toy-evolution" / "run.json").read_text())
    assert data["best_genome"] == report["best_genome"] and data["generations"] == 2
    assert data["best_fitness_games"] == 60 and data["seed"] == 5
    monkeypatch.chdir(work)  # no runs/ here: the published summary stands in
    published = resolve_best(f"best:{path}")
    assert published.text == resolve_best(f"best:{path}@{ck}").text == report["best_genome"]
    assert "published run.json" in published.note and "generation 2" in published.note
    (work / "reports" / "toy-evolution" / "run.json").write_text("{\"best_genome\": 7}")
    with pytest.raises(InputError, match="not a published evolution summary"):
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
    spec = load_spec(against)  # loading keeps the reference as text ...
    assert spec.evaluation.opponents == (f"best:{path}@{journal}",)
    params = summary.best["params"]
    assert resolve_opponents(spec).evaluation.opponents == (  # ... a run resolves it
        f"bowl:x={params['x']!r},y={params['y']!r},k={params['k']}",)
    selfish = tmp_path / "selfish.toml"
    selfish.write_text(path.read_text().replace(
        "[evaluation]\n", f"[evaluation]\nopponents = [\"best:{selfish}\"]\n", 1))
    with pytest.raises(InputError, match="names its own result"):
        resolve_opponents(load_spec(selfish))


def test_bot_texts_split_around_best_references():
    assert split_bots("best:x@runs/a.journal,big-money") == ["best:x@runs/a.journal",
                                                              "big-money"]
    assert split_bots("best:x@postgresql://u:p@h/db,bowl:x=1,y=2") == [
        "best:x@postgresql://u:p@h/db", "bowl:x=1,y=2"]
    assert split_bots("province@8 | gold@6;best:x") == ["province@8 | gold@6", "best:x"]
    assert split_ref("best:x@postgresql://u:p@h/db") == ("x", "postgresql://u:p@h/db")
    assert split_ref("best:x") == ("x", None)


def _published_results() -> list[tuple[str, str, str]]:
    """(study, game, optimizer) of every committed report folder made from a study spec in
    studies/ whose result `best:` plays (Optuna studies and DEAP evolutions)."""
    import tomllib

    from tuning._spec import STUDIES_DIR

    root = STUDIES_DIR.parent
    found = []
    for path in sorted(STUDIES_DIR.glob("*.toml")):
        study = tomllib.loads(path.read_text(encoding="utf-8"))["study"]
        if (root / "reports" / study["name"]).is_dir() and \
                study.get("optimizer", "optuna") in ("optuna", "deap"):
            found.append((study["name"], study["game"], study.get("optimizer", "optuna")))
    return found


@pytest.mark.parametrize("study, game, optimizer", _published_results())
def test_every_published_result_plays_from_its_summary_alone(study, game, optimizer, tmp_path,
                                                             monkeypatch, main):
    from tuning._spec import STUDIES_DIR
    from tuning.reporting._summary import STATED, read_summary

    source = STUDIES_DIR.parent / "reports" / study / "run.json"
    assert source.is_file(), f"reports/{study}/ has no run.json: best:{study} cannot play"
    data = read_summary(source, optimizer)
    assert data["study"] == study and not [k for k in STATED[optimizer] if k not in data]
    clone = tmp_path / "clone"  # the summary alone: no runs/, no other report file
    (clone / "reports" / study).mkdir(parents=True)
    (clone / "reports" / study / "run.json").write_bytes(source.read_bytes())
    monkeypatch.chdir(clone)
    found = resolve_best(f"best:{study}", game)
    assert found.source == f"{clone / 'reports' / study / 'run.json'} (published report)"
    value = data["best_value" if optimizer == "optuna" else "best_fitness"]
    assert f"{value:.4f}" in found.note
    code, out, err = main("play", game, "--bots", f"best:{study}", "-n", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["games"] == 2 and "published run.json" in err


def test_the_line_says_which_source_it_plays_and_published_picks_the_report(
        finished, tmp_path, monkeypatch):
    """After a local run, ``best:STUDY`` plays it and says so, naming the reference that
    plays the published result; ``best:STUDY@published`` plays that whatever runs/ holds."""
    import shutil

    from tuning.reporting._summary import study_summary, write_summary
    from tuning.study._runner import load_study

    path, journal, summary = finished
    work = tmp_path / "clone"
    written = write_summary(work / "reports" / "tuned",
                            study_summary(load_study(load_spec(path), journal)))
    data = json.loads(written.read_text())
    data["best_params"] = {**data["best_params"], "k": 2 if data["best_params"]["k"] == 1
                           else 1}
    written.write_text(json.dumps(data))  # the published best differs from the local one
    monkeypatch.chdir(work)
    published = resolve_best(f"best:{path}")  # no runs/ here: the published summary
    assert published.kind == "published" and "k=" in published.text
    assert "(tuned, published run.json reports/tuned/run.json: trial" in published.note
    assert "a local run stands in" not in published.note
    (work / "runs").mkdir()
    shutil.copy(journal, work / "runs" / "tuned.journal")  # as after a local `run`
    local = resolve_best(f"best:{path}")
    assert local.kind == "journal" and local.text != published.text
    assert "(tuned, local journal runs/tuned.journal: trial" in local.note
    assert f"a local run stands in for the published result, which best:{path}@published " \
           "plays" in local.note
    chosen = resolve_best(f"best:{path}@published")
    assert chosen.kind == "published" and chosen.text == published.text
    assert chosen.note.startswith(f"best:{path}@published = {published.text} (tuned, "
                                  "published run.json reports/tuned/run.json")
    given = resolve_best(f"best:{path}@{journal}")  # a storage named: no pointer
    assert given.kind == "journal" and "stands in" not in given.note
    written.unlink()
    assert "stands in" not in resolve_best(f"best:{path}").note  # nothing published
    with pytest.raises(InputError, match="tuned has no published result: no "
                                         "reports/tuned/run.json"):
        resolve_best(f"best:{path}@published")


def test_an_evolution_line_names_its_local_checkpoint(tmp_path, main):
    ck = tmp_path / "ck.pkl"
    code, _, err = main("evolve", "deckbuilder-buylist", "-g", "1", "-P", "4", "--seed", "3",
                        "--checkpoint", str(ck), "--json")
    assert code == 0, err
    found = resolve_best(f"best:deckbuilder-buylist@{ck}", "deckbuilder")
    assert found.kind == "checkpoint" and f"local checkpoint {ck}" in found.note
    published = resolve_best("best:deckbuilder-buylist@published", "deckbuilder")
    assert published.kind == "published" and "published run.json" in published.note
