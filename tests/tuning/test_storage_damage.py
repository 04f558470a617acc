"""Damaged journals: a cut-off last record is repaired, every other damage is one clear line."""

from __future__ import annotations

import os
from pathlib import Path

import optuna
import pytest

from games.core import InputError
from tuning._spec import load_spec
from tuning.study._runner import run_study
from tuning.study._storage import open_storage


@pytest.fixture
def journal(make_spec, tmp_path) -> tuple[Path, Path]:
    """A finished 3-trial study: (spec path, journal path)."""
    spec_path = make_spec(name="dmg", trials=3, games=100, block=50, reevaluate_games=100)
    path = tmp_path / "dmg.journal"
    run_study(load_spec(spec_path), str(path))
    return spec_path, path


def _records(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def _trials(path: Path) -> int:
    summaries = optuna.get_all_study_summaries(open_storage(str(path)).storage)
    return summaries[0].n_trials


def _one_line_error(result, *fragments: str) -> None:
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]


def test_cut_off_last_record_is_repaired_and_the_next_run_appends_cleanly(journal, cli):
    spec_path, path = journal
    good = _records(path)
    with path.open("r+b") as fh:  # cut the last record in the middle, as a full disk does
        fh.truncate(path.stat().st_size - len(good[-1]) // 2)
    result = cli("run", str(spec_path), "--storage", str(path), "--trials", "4")
    assert result.returncode == 0, result.stderr
    notes = [line for line in result.stderr.splitlines() if "repaired journal" in line]
    assert len(notes) == 1 and f"kept the {len(good) - 1} complete record(s)" in notes[0]
    after = _records(path)
    assert after[: len(good) - 1] == good[:-1]  # every complete record kept as it was
    assert all(line.endswith(b"\n") for line in after)
    assert _trials(path) == 4
    again = cli("report", str(spec_path), "--storage", str(path), "--out",
                str(path.parent / "r"))
    assert again.returncode == 0 and "repaired" not in again.stderr, again.stderr


def test_record_missing_only_its_newline_is_kept(journal, capsys):
    _, path = journal
    good = path.read_bytes()
    path.write_bytes(good[:-1])
    open_storage(str(path))
    assert path.read_bytes() == good
    assert "added it" in capsys.readouterr().err


def test_nul_bytes_after_the_last_record_are_removed(journal, capsys):
    _, path = journal
    good = path.read_bytes()
    path.write_bytes(good + b"\0" * 512)
    assert _trials(path) == 3
    assert path.read_bytes() == good
    assert "removed an incomplete last record" in capsys.readouterr().err


def _damage(kind: str, path: Path) -> str:
    """Damage ``path`` in one way; return the line number the error must name."""
    lines = _records(path)
    if kind == "binary":
        path.write_bytes(bytes(range(256)) * 4)
        return "line 1"
    if kind == "foreign-json":
        path.write_text('{\n  "name": "not a journal",\n  "values": [1, 2]\n}\n')
        return "line 1"
    if kind == "foreign-record":
        path.write_text('{"name": "not a journal"}\n')
        return "line 1"
    if kind == "undecodable":
        lines[4] = lines[4][:10] + b"\xff" + lines[4][10:]
    elif kind == "bad-json-middle":
        lines[4] = lines[4][: len(lines[4]) // 2] + b"\n"
    path.write_bytes(b"".join(lines))
    return "line 5"


@pytest.mark.parametrize("kind", ["binary", "foreign-json", "foreign-record", "undecodable",
                                  "bad-json-middle"])
def test_damage_is_one_line_naming_the_file_and_line(journal, kind):
    _, path = journal
    where = _damage(kind, path)
    before = path.read_bytes()
    with pytest.raises(InputError) as info:
        open_storage(str(path))
    assert str(path) in str(info.value) and where in str(info.value)
    assert path.read_bytes() == before  # damage is reported, never "repaired" away


@pytest.mark.parametrize("command", ["run", "report", "dashboard"])
def test_damaged_journal_through_the_cli(journal, cli, command):
    spec_path, path = journal
    _damage("bad-json-middle", path)
    args = {"run": ["run", str(spec_path), "--storage", str(path)],
            "report": ["report", str(spec_path), "--storage", str(path), "--out",
                       str(path.parent / "r")],
            "dashboard": ["dashboard", "--storage", str(path), "--port", "1"]}[command]
    _one_line_error(cli(*args), str(path), "line 5")


def test_binary_journal_through_the_cli(journal, cli):
    spec_path, path = journal
    _damage("binary", path)
    _one_line_error(cli("run", str(spec_path), "--storage", str(path)), str(path), "line 1")


def test_record_that_cannot_be_replayed_is_named(journal):
    _, path = journal
    with path.open("ab") as fh:
        fh.write(b'{"op_code": 4, "worker_id": "w"}\n')  # create-trial without its study
    number = len(_records(path))
    with pytest.raises(InputError, match=f"line {number}"):
        open_storage(str(path))


def test_dashboard_refuses_a_missing_storage(tmp_path, cli):
    missing = tmp_path / "typo.journal"
    _one_line_error(cli("dashboard", "--storage", str(missing)), "does not exist")
    assert not missing.exists()
    with pytest.raises(InputError, match="does not exist"):
        open_storage(str(missing), create=False)
    assert not missing.exists()


def test_run_refuses_a_storage_in_a_missing_folder(make_spec, tmp_path, cli):
    spec_path = make_spec(name="nofolder", trials=2, games=100)
    target = tmp_path / "no" / "such" / "x.journal"
    _one_line_error(cli("run", str(spec_path), "--storage", str(target)), "does not exist")
    assert not (tmp_path / "no").exists()


def test_default_runs_folder_is_still_created(make_spec, tmp_path, cli):
    spec_path = make_spec(name="fresh", trials=2, games=100, reevaluate_games=100)
    result = cli("run", str(spec_path), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "runs" / "fresh.journal").is_file()


def test_journal_that_is_a_directory_or_unreadable(tmp_path):
    with pytest.raises(InputError, match="directory"):
        open_storage(str(tmp_path))
    locked = tmp_path / "locked.journal"
    locked.write_text("")
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):  # root reads anything
            pytest.skip("running as a user that can read any file")
        with pytest.raises(InputError, match="locked.journal"):
            open_storage(str(locked))
    finally:
        locked.chmod(0o644)
