"""The dashboard serves a study from our storage; reports are self-contained."""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, make_server

import pytest

from games.core import InputError
from tuning._spec import load_spec
from tuning.commands.study import resolve_dashboard_storage
from tuning.reporting._page import markdown_table
from tuning.reporting._study import build_study_report
from tuning.study._runner import run_study
from tuning.study._storage import open_storage


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def finished_study(make_spec, tmp_path):
    spec = load_spec(make_spec(name="dash", trials=8, games=200, block=50))
    journal = str(tmp_path / "dash.journal")
    run_study(spec, journal)
    return spec, journal


def test_dashboard_serves_the_study(finished_study):
    import optuna_dashboard
    spec, journal = finished_study
    app = optuna_dashboard.wsgi(open_storage(journal).storage)
    server = make_server("127.0.0.1", 0, app, handler_class=_Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/api/studies"
        with urllib.request.urlopen(url, timeout=30) as resp:
            assert resp.status == 200
            data = json.loads(resp.read())
    finally:
        server.shutdown()
        server.server_close()
    names = [s["study_name"] for s in data["study_summaries"]]
    assert spec.name in names


def test_dashboard_storage_must_exist(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        resolve_dashboard_storage(str(tmp_path / "missing.journal"))
    assert resolve_dashboard_storage("sqlite:///x.db") == "sqlite:///x.db"


def test_report_is_self_contained_and_names_existing_figures(finished_study, tmp_path):
    spec, journal = finished_study
    out = tmp_path / "report"
    result = build_study_report(spec, journal, out)
    html = (out / "index.html").read_text()
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert "http://" not in html and "https://" not in html
    named = set(re.findall(r'data-file="([^"]+)"', html))
    assert {"history.png", "importances.png", "candidates.png"} <= named
    for name in named:
        assert (out / name).is_file() and (out / name).read_bytes()[:4] == b"\x89PNG"
    assert html.count("data:image/png;base64,") == len(named)
    readme = (out / "README.md").read_text()
    assert "| candidate |" in readme and "tabletune report" in readme
    for name in re.findall(r"\(([\w-]+\.png)\)", readme):
        assert (out / name).is_file()
    assert result["best"]["reevaluated"] and sorted(result["figures"]) == sorted(named)


def test_report_of_a_missing_study_is_an_input_error(make_spec, tmp_path):
    spec = load_spec(make_spec(name="nothing"))
    with pytest.raises(InputError, match="does not exist"):
        build_study_report(spec, str(tmp_path / "missing.journal"), tmp_path / "r")
    assert not (tmp_path / "missing.journal").exists()
    (tmp_path / "empty.journal").touch()
    with pytest.raises(InputError, match="holds no study"):
        build_study_report(spec, str(tmp_path / "empty.journal"), tmp_path / "r")


def test_markdown_table_escapes_pipes():
    text = markdown_table(["a", "b"], [["x|y", 0.5]])
    assert "x\\|y" in text and text.splitlines()[1] == "|---|---|"


def test_report_cli_writes_into_out(finished_study, tmp_path, monkeypatch, capsys):
    import sys

    from tuning import cli
    spec, journal = finished_study
    out = tmp_path / "cli-report"
    monkeypatch.setattr(sys, "argv", ["tabletune", "report", str(spec.path), "--storage",
                                      journal, "--out", str(out)])
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 0
    assert (out / "index.html").is_file() and Path(out / "README.md").is_file()


def test_overhead_counts_a_process_overlapping_trials_once_and_processes_apart():
    import datetime as dt

    import optuna
    from optuna.distributions import FloatDistribution
    from optuna.trial import FrozenTrial, TrialState

    from tuning.reporting._study import overhead_share

    t0 = dt.datetime(2026, 11, 25, 9, 0, 0)

    def trial(number, start, end, spent, owner):
        return FrozenTrial(number=number, state=TrialState.COMPLETE, value=0.5,
                           datetime_start=t0 + dt.timedelta(seconds=start),
                           datetime_complete=t0 + dt.timedelta(seconds=end),
                           params={"x": 0.1}, distributions={"x": FloatDistribution(0, 1)},
                           user_attrs={"objective_seconds": spent},
                           system_attrs={"tabletune:owner": owner}, intermediate_values={},
                           trial_id=number)

    study = optuna.create_study()
    a, b = ["host", 1], ["host", 2]
    # process a claims trial 1 at 5 s while trial 0 plays until 10 s: 20 s covered, not 25;
    # process b's trial runs beside them and adds its own 10 s
    for t in (trial(0, 0, 10, 9.5, a), trial(1, 5, 20, 9.5, a), trial(2, 0, 10, 10.0, b)):
        study.add_trial(t)
    share, per_trial = overhead_share(study)
    assert share == pytest.approx(1 - 29.0 / 30.0)
    assert per_trial == pytest.approx(1.0 / 3)
