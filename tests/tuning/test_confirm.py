"""Reported bests are confirmed on seeds that neither the search nor the selection played.

A study's best is picked by re-evaluating its top candidates; the figure it is reported by
comes from a further, disjoint seed set. Same for an evolution's hall of fame. Records from
before confirmations (journals, run.json) still load, labelled as selection values.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from games.core import game_seeds
from tuning._spec import load_spec
from tuning.evaluation import derived_seed, opponent_seed
from tuning.evaluation._scoring import Scorer
from tuning.study._runner import open_study, run_study

STUDIES = Path(__file__).resolve().parents[2] / "studies"
TOY_EVOLVE = Path(__file__).resolve().parent / "test_evolve_parallel.py"


@pytest.fixture()
def played(monkeypatch):
    """Every (root seed, first game, count) block a scorer plays, in order."""
    calls: list[tuple[int, int, int]] = []
    block = Scorer.block

    def spy(self, bot, seed, start, count):
        calls.append((int(seed), int(start), int(count)))
        return block(self, bot, seed, start, count)

    monkeypatch.setattr(Scorer, "block", spy)
    return calls


def _games(calls, root, low=0, high=None):
    """The game indices played on ``root`` within [low, high)."""
    out = set()
    for seed, start, count in calls:
        if seed == root:
            out.update(i for i in range(start, start + count)
                       if i >= low and (high is None or i < high))
    return out


def _seeds(root: int, start: int, count: int, pool: int) -> np.ndarray:
    """The per-game seeds that games ``start..start+count-1`` of ``root`` are dealt from,
    through an opponent pool of ``pool`` entries as the scorer maps them."""
    if pool <= 1:
        return game_seeds(root, count, start)
    index = np.arange(start, start + count)
    parts = []
    for j in range(pool):
        local = index[index % pool == j] // pool  # contiguous in entry j's own seed set
        if local.size:
            parts.append(game_seeds(opponent_seed(root, j), int(local.size), int(local[0])))
    return np.concatenate(parts)


def test_study_confirms_on_games_after_the_reevaluation(make_spec, tmp_path, played):
    spec = load_spec(make_spec(trials=6, reevaluate_games=300, pruner="none"))
    summary = run_study(spec, str(tmp_path / "c.journal"))
    study, _ = open_study(spec, str(tmp_path / "c.journal"), create=False)
    root = derived_seed(spec.evaluation.seed, "reevaluate")
    # search: the study's own root; re-evaluation: games 0..299 of another; confirmation:
    # games 300..599 of that one, played once, by the selected best alone
    assert root != spec.evaluation.seed
    assert _games(played, root, 0, 300) == set(range(300))
    confirm = [c for c in played if c[0] == root and c[1] >= 300]
    assert _games(confirm, root) == set(range(300, 600))
    assert sum(c[2] for c in confirm) == 300
    stored = study.user_attrs["confirmation"]
    assert (stored["seed"], stored["start"], stored["games"]) == (root, 300, 300)
    best = summary.best
    assert best["confirmed"] and best["trial"] == stored["trial"]
    assert (best["mean"], best["ci95"], best["games"]) == (
        stored["mean"], stored["ci95"], 300)
    assert best["selection_value"] == study.user_attrs["reevaluation"]["best"]["mean"]


def test_confirm_games_is_a_spec_field(make_spec, tmp_path, played):
    path = make_spec(trials=3, reevaluate_games=200, pruner="none")
    path.write_text(path.read_text().replace("reevaluate_games = 200",
                                             "reevaluate_games = 200\nconfirm_games = 120"))
    spec = load_spec(path)
    assert spec.evaluation.confirmations == 120
    run_study(spec, str(tmp_path / "g.journal"))
    root = derived_seed(spec.evaluation.seed, "reevaluate")
    assert _games(played, root, 200) == set(range(200, 320))
    bad = path.read_text().replace("confirm_games = 120", "confirm_games = 0")
    path.write_text(bad)
    with pytest.raises(Exception, match="confirm_games"):
        load_spec(path)


def test_committed_studies_confirm_on_disjoint_seeds():
    """For every ready-made study, the per-game seeds of its search, re-evaluation and
    confirmation sets (opponent pools mapped as the scorer plays them) share none."""
    for path in sorted(STUDIES.glob("*.toml")):
        ev = load_spec(path).evaluation
        pool = len(ev.opponents)
        root = derived_seed(ev.seed, "reevaluate")
        search = _seeds(ev.seed, 0, ev.games, pool)
        chosen = _seeds(root, 0, ev.reevaluate_games, pool)
        confirmed = _seeds(root, ev.reevaluate_games, ev.confirmations, pool)
        assert confirmed.size == ev.confirmations and np.unique(confirmed).size == confirmed.size
        assert not np.intersect1d(confirmed, chosen).size, path.name
        assert not np.intersect1d(confirmed, search).size, path.name


def test_dashboard_note_and_summary_show_the_confirmed_value(make_spec, tmp_path):
    import optuna_dashboard

    from tuning.reporting._summary import study_summary
    from tuning.study._runner import load_study

    spec = load_spec(make_spec(trials=4, reevaluate_games=200, pruner="none"))
    store = str(tmp_path / "n.journal")
    run_study(spec, store)
    loaded = load_study(spec, store)
    study = loaded.study
    confirmed = study.user_attrs["confirmation"]
    selection = study.user_attrs["reevaluation"]["best"]
    assert study.user_attrs["confirmed_best_value"] == confirmed["mean"]
    assert study.user_attrs["reevaluated_best_value"] == selection["mean"]
    note = optuna_dashboard.get_note(study)
    assert f"**{confirmed['mean']:.4f}**" in note
    assert "Selection value (re-evaluated over 200 fresh games, root seed" in note
    run = study_summary(loaded)
    assert run["best_value"] == confirmed["mean"] and run["best_confirmed"]
    assert (run["best_value_games"], run["best_value_start"]) == (200, 200)
    assert run["best_selection_value"] == selection["mean"]


def test_a_study_from_before_confirmations_loads_and_is_confirmed_on_demand(
        make_spec, tmp_path, monkeypatch):
    import importlib

    from tuning.study._confirm import describe

    module = importlib.import_module("tuning.study._reevaluate")

    spec = load_spec(make_spec(trials=4, reevaluate_games=200, pruner="none"))
    store = str(tmp_path / "old.journal")
    with monkeypatch.context() as m:  # a run as it was before confirmations existed
        m.setattr(module, "confirm", lambda *a, **k: {})
        run_study(spec, store)
    study, _ = open_study(spec, store, create=False)
    assert "confirmation" not in study.user_attrs
    best = module.best_result(study)
    selected = study.user_attrs["reevaluation"]["best"]
    assert not best["confirmed"] and best["mean"] == selected["mean"]
    assert "the selection value, not confirmed yet" in describe(best)
    data = module.reevaluate(study, spec)  # what `tabletune report` does
    assert data["best"] == selected  # the selection is kept, only the confirmation is new
    best = module.best_result(study)
    assert best["confirmed"] and best["selection_value"] == selected["mean"]
    assert best["mean"] == study.user_attrs["confirmation"]["mean"]
    assert "confirmed on 200 further fresh games" in describe(best)


def test_an_old_published_summary_is_labelled_as_the_selection_value(tmp_path, monkeypatch):
    from tuning._best import _from_published

    spec = load_spec(STUDIES / "dominion-heuristic.toml")
    old = {"best_params": {}, "best_value": 0.5999, "best_trial": 7,
           "best_value_ci": [0.5933, 0.6066], "best_value_games": 20000,
           "best_value_seed": 11, "best_reevaluated": True}
    path = tmp_path / "run.json"
    path.write_text(json.dumps(old))
    how = _from_published(spec, path).how
    assert "0.5999" in how and "the selection value, not confirmed" in how
    path.write_text(json.dumps({**old, "best_value": 0.5959, "best_confirmed": True,
                                "best_selection_value": 0.5999}))
    how = _from_published(spec, path).how
    assert "0.5959 (confirmed on 20,000 further fresh games" in how
    assert "selection value 0.5999" in how


def test_evolution_best_is_confirmed_after_its_selection(tmp_path, monkeypatch, played):
    from tuning.evaluation import WorkerPool
    from tuning.evolution._engine import EvolutionResult, Score
    from tuning.evolution._runner import best_of, settings_from_spec, spec_identity

    monkeypatch.setenv("TABLETUNE_GAMES", str(TOY_EVOLVE))
    text = TOY_EVOLVE.read_text().split('SPEC = """', 1)[1].split('"""', 1)[0]
    path = tmp_path / "toy-evolution.toml"
    path.write_text(text.replace("reevaluate_games = 60", "reevaluate_games = 60\n"
                                 "confirm_games = 50"))
    spec = load_spec(path)
    hof = [("99999990", Score(1.0, 0.1, 40, 0.0)), ("99999909", Score(1.0, 0.1, 40, 0.0))]
    result = EvolutionResult(generation=3, hall_of_fame=hof, logbook=[], population=[],
                             seconds=0.0)
    with WorkerPool(1) as pool:
        found = best_of(spec, result, pool)
    root = derived_seed(spec.evaluation.seed, "reevaluate")
    assert _games(played, root, 0, 60) == set(range(60))  # both members: the selection
    confirm = [c for c in played if c[0] == root and c[1] >= 60]
    assert _games(confirm, root) == set(range(60, 110)) and sum(c[2] for c in confirm) == 50
    assert found.text in ("99999990", "99999909") and found.start == 60
    assert (found.selection.games, found.confirmed.games) == (60, 50)
    assert found.confirmed.mean != found.selection.mean
    # a checkpoint from before confirmations still matches: confirm_games is not part of it
    settings = settings_from_spec(spec)
    plain = load_spec(STUDIES / "dominion-buylist.toml")
    assert "confirm_games" not in spec_identity(spec, settings)["evaluation"]
    assert spec_identity(spec, settings)["evaluation"].keys() == \
        spec_identity(plain, settings_from_spec(plain))["evaluation"].keys()


def test_report_confirms_a_published_best_without_its_journal(make_spec, tmp_path, main,
                                                              monkeypatch):
    from tuning.evaluation import evaluate

    spec = load_spec(make_spec(name="pub", trials=1, reevaluate_games=150))
    monkeypatch.chdir(tmp_path)  # a fresh clone: reports/pub/ but no runs/pub.journal
    folder = tmp_path / "reports" / "pub"
    folder.mkdir(parents=True)
    params = {"x": 0.3, "y": 0.6, "k": 4}
    root = derived_seed(spec.evaluation.seed, "reevaluate")
    old = {"study": "pub", "optimizer": "optuna", "best_trial": 3, "best_params": params,
           "best_value": 0.9, "best_value_ci": [0.85, 0.95], "best_value_games": 150,
           "best_value_seed": root, "best_reevaluated": True, "best_exact": False}
    (folder / "run.json").write_text(json.dumps(old))
    (folder / "README.md").write_text("# Study report: pub\n\nnoisy quadratic bowl\n")
    status, out, _ = main("report", str(spec.path), "--publish")
    assert status == 0 and "confirmed" in out
    run = json.loads((folder / "run.json").read_text())
    expected = evaluate(spec.scorer(), spec_bot(spec, params), games=150, seed=root,
                        block=50, start=150)
    assert run["best_value"] == pytest.approx(expected.mean) and run["best_confirmed"]
    assert (run["best_value_start"], run["best_value_games"]) == (150, 150)
    assert (run["best_selection_value"], run["best_selection_ci"]) == (0.9, [0.85, 0.95])
    readme = (folder / "README.md").read_text()
    assert f"Result: {run['best_value']:.4f} (confirmed on 150 further fresh games" in readme
    assert "selection value 0.9000" in readme
    main("report", str(spec.path), "--publish")  # once: a confirmed summary stays as it is
    assert json.loads((folder / "run.json").read_text()) == run


def spec_bot(spec, params):
    from tuning.evaluation import candidate_bot
    return candidate_bot({"strategy": spec.strategy, "params": params})
