"""Loading a spec reads and checks a file; its ``best:`` opponents are resolved when a run
starts (:func:`tuning._best.resolve_opponents`), never while it is loaded or listed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tuning._best
from games.core import InputError
from tuning._best import resolve_opponents
from tuning._spec import load_spec

ROOT = Path(__file__).resolve().parents[2]
RUNNERS = ("tuning._best", "tuning.study._runner", "tuning.evolution._runner", "optuna")


def _against(path: Path, ref: str, name: str) -> Path:
    """A copy of the quadratic spec ``path`` named ``name`` whose opponent is ``ref``."""
    other = path.parent / f"{name}.toml"
    text = path.read_text().replace(f'name = "{path.stem}"', f'name = "{name}"', 1)
    other.write_text(text.replace("[evaluation]\n",
                                  f"[evaluation]\nopponents = [\"{ref}\"]\n", 1))
    return other


@pytest.fixture
def no_resolving(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any resolution of a ``best:`` reference fails the test."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"best: resolved while loading: {args}")
    monkeypatch.setattr(tuning._best, "resolve_best", refuse)


def test_loading_keeps_a_reference_as_text_and_imports_no_runner(make_spec, tmp_path):
    # the study named has never run: resolving it now would fail (no journal)
    unrun = make_spec(name="unrun")
    against = _against(unrun, f"best:{unrun}", "against")
    code = ("import sys; from tuning._spec import load_spec; "
            f"s = load_spec({str(against)!r}); "
            f"print(list(s.evaluation.opponents), [m for m in {RUNNERS!r} if m in sys.modules])")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"['best:{unrun}'] []"
    assert not (tmp_path / "runs").exists()


def test_loading_checks_only_the_reference_text(make_spec, no_resolving):
    unrun = make_spec(name="unrun")
    for ref, fragment in (("best:", "expected best:STUDY"),
                          (f"best:{unrun}@", "expected best:STUDY"),
                          ("best:no-such-study", "no study spec 'no-such-study'")):
        with pytest.raises(InputError, match="evaluation.opponents") as info:
            load_spec(_against(unrun, ref, "bad"))
        assert fragment in str(info.value) and len(str(info.value).splitlines()) == 1
    # a storage is not looked at: it is read when a run starts
    missing = f"best:{unrun}@{unrun.parent}/none.journal"
    assert load_spec(_against(unrun, missing, "ok")).evaluation.opponents == (missing,)


def test_an_unresolved_reference_cannot_reach_a_run(make_spec):
    unrun = make_spec(name="unrun")
    spec = load_spec(_against(unrun, f"best:{unrun}", "against"))
    from tuning.study._runner import fingerprint
    for use in (spec.scorer, lambda: fingerprint(spec)):
        with pytest.raises(InputError, match="is not resolved yet"):
            use()
    assert resolve_opponents(load_spec(unrun)) == load_spec(unrun)  # nothing to resolve


def test_studies_lists_a_spec_with_a_reference_without_resolving_it(make_spec, main,
                                                                   monkeypatch, no_resolving):
    unrun = make_spec(name="unrun")
    selfish = _against(unrun, f"best:{unrun.parent}/selfish.toml", "selfish")
    against = _against(unrun, f"best:{unrun}", "against")
    import tuning._spec
    listed = [against, selfish]
    monkeypatch.setattr(tuning._spec, "list_specs", lambda *a: listed)
    try:  # where the listing finds the spec files, once it reads them without loading them
        import tuning._spec_files
        monkeypatch.setattr(tuning._spec_files, "list_specs", lambda *a: listed)
    except ImportError:
        pass
    code, out, err = main("studies", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [(r["name"], r["valid"]) for r in rows] == [("against", True), ("selfish", True)]


def test_a_spec_naming_itself_is_refused_in_one_line_when_the_run_starts(make_spec, main,
                                                                         tmp_path):
    unrun = make_spec(name="unrun")
    selfish = _against(unrun, f"best:{tmp_path}/selfish.toml", "selfish")
    load_spec(selfish)  # loading it is fine: nothing is resolved yet
    code, out, err = main("run", str(selfish), "--storage", f"{tmp_path}/s.journal")
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert f"{selfish}: evaluation.opponents: best:" in err
    assert "names its own result" in err
    assert not (tmp_path / "s.journal").exists()
    code, out, err = main("report", str(selfish), "--out", f"{tmp_path}/report")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"{selfish}: evaluation.opponents: best:" in err and "names its own" in err


def test_an_evolution_naming_itself_is_refused_when_it_starts(toy_spec, main, tmp_path):
    toy_spec.write_text(toy_spec.read_text().replace(
        'opponents = ["a", "b"]', f'opponents = ["a", "best:{toy_spec}"]'))
    assert load_spec(toy_spec).evaluation.opponents == ("a", f"best:{toy_spec}")
    code, out, err = main("evolve", str(toy_spec), "--checkpoint", f"{tmp_path}/e.ckpt")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"{toy_spec}: evaluation.opponents: best:" in err and "names its own" in err
    assert not (tmp_path / "e.ckpt").exists()


def test_a_cycle_of_references_is_refused_when_the_run_starts(make_spec, tmp_path):
    unrun = make_spec(name="unrun")
    first = _against(unrun, f"best:{tmp_path}/second.toml", "first")
    second = _against(unrun, f"best:{first}", "second")
    for spec in (first, second):
        with pytest.raises(InputError, match="names its own result") as info:
            resolve_opponents(load_spec(spec))
        assert str(info.value).startswith(f"{spec}: evaluation.opponents: best:")
