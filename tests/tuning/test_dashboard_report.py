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
from tuning.commands.study import resolve_dashboard_storage
from tuning.reporting.page import markdown_table
from tuning.reporting.study import build_study_report
from tuning.spec import load_spec
from tuning.study.runner import run_study
from tuning.study.storage import open_storage


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
