"""Report figures agree with their sources: the dashboard, the stored evaluations, the page.

A figure shown in a report page equals the stored evaluation it comes from; the report's
parameter importances are the dashboard's; the history plot's range is set by the trial
values, not by the re-evaluation's interval; long genomes wrap instead of being clipped.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
import urllib.request
from html import escape
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, make_server

import optuna
import pytest

from tuning._spec import load_spec
from tuning.reporting._page import html_page
from tuning.reporting._readme_page import is_readme_page
from tuning.reporting._stored import read_stored, stored_evaluations
from tuning.reporting._study import build_study_report, history_axes, value_limits
from tuning.study._runner import run_study
from tuning.study._storage import open_storage

ROOT = Path(__file__).resolve().parents[2]
REPORTS = ROOT / "reports"


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def finished(make_shared_spec, tmp_path_factory):
    """A small finished study over the test game, its journal and a scratch folder."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLETUNE_GAMES", str(Path(__file__).resolve().parent / "quadratic_game.py"))
        spec = load_spec(make_shared_spec(name="figures", trials=16, games=200, block=50))
        tmp = tmp_path_factory.mktemp("figures")
        journal = str(tmp / "figures.journal")
        run_study(spec, journal)
        yield spec, journal, tmp


def _get(app, path: str) -> dict:
    server = make_server("127.0.0.1", 0, app, handler_class=_Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}{path}",
                                    timeout=60) as resp:
            return json.loads(resp.read())
    finally:
        server.shutdown()
        server.server_close()


def test_report_importances_are_the_dashboards(finished):
    import optuna_dashboard
    spec, journal, tmp = finished
    result = build_study_report(spec, journal, tmp / "report")
    storage = open_storage(journal).storage
    study_id = optuna.load_study(study_name=spec.name, storage=storage)._study_id
    shown = _get(optuna_dashboard.wsgi(storage),
                 f"/api/studies/{study_id}/param_importances")["param_importances"][0]
    dashboard = {row["name"]: row["importance"] for row in shown}
    assert result["importances"] and set(dashboard) == set(result["importances"])
    for name, value in result["importances"].items():
        assert dashboard[name] == pytest.approx(value, abs=1e-12), name
    html = (tmp / "report" / "index.html").read_text()
    assert "PED-ANOVA, as optuna-dashboard computes it" in html


def test_dashboard_note_and_attributes_state_the_reevaluated_value(finished):
    import optuna_dashboard
    spec, journal, _ = finished
    study = optuna.load_study(study_name=spec.name, storage=open_storage(journal).storage)
    best = study.user_attrs["reevaluation"]["best"]
    assert study.user_attrs["reevaluated_best_value"] == best["mean"]
    assert study.user_attrs["reevaluated_best_ci95"] == best["ci95"]
    seed = study.user_attrs["reevaluation"]["seed"]
    assert study.user_attrs["reevaluated_on"] == f"400 fresh games, root seed {seed}"
    confirmed = study.user_attrs["confirmation"]
    assert study.user_attrs["confirmed_best_value"] == confirmed["mean"]
    assert study.user_attrs["confirmed_on"] == (f"400 further fresh games, root seed {seed}, "
                                                "games 400..799")
    note = optuna_dashboard.get_note(study)
    assert f"**{confirmed['mean']:.4f}**" in note and f"root seed {seed}" in note
    assert f"Selection value (re-evaluated over 400 fresh games, root seed {seed}" in note
    assert f"{best['mean']:.4f}" in note
    assert f"search value (200 games, seed {spec.evaluation.seed})" in note
    # a note the user adds below is kept when the block is rewritten
    from tuning.study._note import show_reevaluation
    optuna_dashboard.save_note(study, note + "my own remark\n")
    assert not show_reevaluation(study)
    assert optuna_dashboard.get_note(study).endswith("my own remark\n")


def test_dashboard_command_writes_the_note_of_an_older_study(finished, tmp_path):
    import optuna_dashboard

    from tuning.study._note import HEADING, note_reevaluations
    spec, journal, _ = finished
    copy = tmp_path / "old.journal"
    shutil.copy(journal, copy)
    storage = open_storage(str(copy)).storage
    study = optuna.load_study(study_name=spec.name, storage=storage)
    optuna_dashboard.save_note(study, "")  # as a study re-evaluated before notes existed
    assert note_reevaluations(storage) == []
    assert optuna_dashboard.get_note(study).startswith(HEADING)


def test_history_range_is_set_by_the_values_not_the_band():
    study = optuna.create_study(direction="maximize", study_name="band")
    values = [0.452 + 0.002 * i for i in range(20)]  # 0.452 .. 0.490
    for v in values:
        study.add_trial(optuna.trial.create_trial(
            params={"x": v}, distributions={"x": optuna.distributions.FloatDistribution(0, 1)},
            value=v))
    best = {"reevaluated": True, "trial": 19, "mean": 0.475, "ci95": [0.453, 0.497],
            "games": 2000}
    fig, ax = history_axes(study, best)
    lo, hi = ax.get_ylim()
    import matplotlib.pyplot as plt
    plt.close(fig)
    assert (lo, hi) == pytest.approx(value_limits(values, True, (0.475,)))
    assert lo > 0.452 and hi < 0.497  # the worst quarter and the interval's ends are off
    assert hi - lo < 0.8 * (0.497 - 0.453)
    assert not ax.patches  # no band spanning the plot: one point with its error bar
    labels = ax.get_legend_handles_labels()[1]
    assert any("0.4750, 95% CI 0.4530..0.4970 (2,000 fresh games)" in s for s in labels)


def test_value_limits_follow_the_better_trials():
    values = [0.3] * 5 + [0.9 + 0.01 * i for i in range(15)]
    lo, hi = value_limits(values, maximize=True)
    assert 0.3 < lo < 0.9 and hi == pytest.approx(1.04 + 0.08 * 0.14)
    lo, hi = value_limits([1.0, 2.0, 3.0], maximize=False, shown=(5.0,))
    assert lo < 1.0 and hi > 5.0
    assert value_limits([], True) is None


def test_report_page_shows_the_stored_evaluations(finished):
    spec, journal, tmp = finished
    out = tmp / "with-records"
    out.mkdir()
    record = {"game": "quadratic", "games": 1234, "seed": 2026, "bots": {
        "bowl": {"score": 0.61237, "score_ci": [0.6001, 0.6245]},
        "other": {"score": 0.38763, "score_ci": [0.3755, 0.3999]}}}
    (out / "eval-other.json").write_text(json.dumps(record))
    build_study_report(spec, journal, out)
    for page in ("index.html", "README.md"):
        text = (out / page).read_text()
        assert "eval-other.json" in text and "0.6124" in text and "0.6001 .. 0.6245" in text
        assert "2026" in text and "1234" in text


def test_a_damaged_record_is_named(tmp_path):
    from games.core import InputError
    (tmp_path / "eval-x.json").write_text("{}")
    with pytest.raises(InputError, match="eval-x.json: not a tabletune play --json record"):
        stored_evaluations(tmp_path)


@pytest.mark.parametrize("page", sorted(REPORTS.glob("*/index.html")),
                         ids=lambda p: p.parent.name)
def test_committed_pages_wrap_code_and_genomes(page):
    html = page.read_text(encoding="utf-8")
    css = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    pre = re.search(r"pre\s*\{([^}]*)\}", css).group(1)
    assert "white-space: pre-wrap" in pre and "overflow-wrap: anywhere" in pre
    assert css == re.search(r"<style>(.*?)</style>", html_page("t", []), re.S).group(1)


@pytest.mark.parametrize("folder", sorted({p.parent for p in REPORTS.glob("*/eval-*.json")
                                           if (p.parent / "index.html").is_file()}),
                         ids=lambda p: p.name)
def test_committed_pages_show_their_stored_evaluations(folder):
    html = (folder / "index.html").read_text(encoding="utf-8")
    readme = (folder / "README.md").read_text(encoding="utf-8")
    for path in sorted(folder.glob("eval-*.json")):
        e = read_stored(path)
        row = (f"<td>{path.name}</td><td>{escape(e.bot)}</td><td>{escape(e.against)}</td>"
               f"<td>{e.games}</td>"
               f"<td>{e.seed}</td><td>{e.score:.4f}</td>"
               f"<td>{e.ci95[0]:.4f} .. {e.ci95[1]:.4f}</td>")
        assert row in html, path.name
        if is_readme_page(folder / "index.html"):  # the page is that README, rendered
            continue
        assert (f"| {path.name} | {e.bot} | {e.against} | {e.games} | {e.seed} | "
                f"{e.score:.4f} | {e.ci95[0]:.4f} .. {e.ci95[1]:.4f} |") in readme


@pytest.mark.parametrize("page", sorted(p for p in REPORTS.glob("*/index.html")
                                        if (p.parent / "importances.png").is_file()),
                         ids=lambda p: p.parent.name)
def test_committed_pages_name_the_importance_evaluator(page):
    from tuning.reporting._study import IMPORTANCE_NAME
    caption = re.search(r"<figcaption>([^<]*)\(<code>importances.png</code>\)",
                        page.read_text(encoding="utf-8")).group(1)
    assert IMPORTANCE_NAME in caption or "fANOVA, seed 0" in caption


def _percent(mean: float, lo: float, hi: float) -> str:
    return f"{100 * mean:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"


def test_project_readme_quotes_the_tuned_dominion_bot_as_its_report_stores_it():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    folder = REPORTS / "dominion-heuristic"
    for name in ("eval-big-money.json", "eval-big-money-ultimate.json"):
        e = read_stored(folder / name)
        assert _percent(e.score, *e.ci95) in readme, name
        assert f"{e.games:,} games each at seed {e.seed}" in readme
    best = re.search(r"\(best\), confirmed \| - \| ([\d.]+) \| ([\d.]+) \.\. ([\d.]+) \| "
                     r"(\d+) \|", (folder / "README.md").read_text(encoding="utf-8"))
    mean, lo, hi, games = (float(g) for g in best.groups())
    seed = re.search(r"root seed (\d+)", (folder / "README.md").read_text()).group(1)
    selection = json.loads((folder / "run.json").read_text())["best_selection_value"]
    assert (f"{_percent(mean, lo, hi)} against Smithy Big Money (its study's confirmation: "
            f"{int(games):,} further fresh games, root seed {seed}; selection value "
            f"{100 * selection:.1f}%)") in readme


def test_cli_names_the_reevaluated_value_and_the_dashboards_search_value(finished, main):
    spec, journal, _ = finished
    status, out, _ = main("run", str(spec.path), "--storage", journal)
    study = optuna.load_study(study_name=spec.name, storage=open_storage(journal).storage)
    data = study.user_attrs["reevaluation"]
    best = data["best"]
    confirmed = study.user_attrs["confirmation"]
    lo, hi = best["ci95"]
    clo, chi = confirmed["ci95"]
    assert status == 0
    assert (f"best (trial {best['trial']}): {confirmed['mean']:.4f}, 95% CI {clo:.4f}.."
            f"{chi:.4f} (confirmed on {confirmed['games']:,} further fresh games, root seed "
            f"{data['seed']} from game {data['games']:,}; selection value (re-evaluated on "
            f"{data['games']:,} games) {best['mean']:.4f}, 95% CI {lo:.4f}..{hi:.4f}; search "
            f"value, the dashboard's: {best['search_value']:.4f})") in " ".join(out.split())
