"""A study is resolved once: a command turns its spec and flags into one typed value, and
nothing below checks, settles or parses any part of it again. The study's identity comes
from the options as the game checked them, so a default written out is the same study."""

from __future__ import annotations

import collections
from pathlib import Path

import optuna
import pytest

from games import capabilities, registry
from games.core import InputError
from tuning import _limits as limits
from tuning import _spec as spec_mod
from tuning import _spec_checks as spec_checks
from tuning._overrides import apply_items
from tuning._spec import load_spec
from tuning.commands import study as study_command
from tuning.evaluation import _scoring as scoring
from tuning.evolution._runner import settings_from_spec, spec_fingerprint
from tuning.study._opening import fingerprint
from tuning.study._storage import open_storage


@pytest.fixture
def counted(monkeypatch):
    """Counts, by kind, every check, settling and parse a command makes in this process."""
    counts: collections.Counter[str] = collections.Counter()

    def count(owner, name, label, key=None):
        original = getattr(owner, name)

        def wrapper(*args, **kwargs):
            counts[label if key is None else f"{label} {key(args, kwargs)}"] += 1
            return original(*args, **kwargs)
        monkeypatch.setattr(owner, name, wrapper)

    count(registry.Game, "check_options", "game options checked")
    # the quadratic game settles nothing of its own: the settle capability's neutral hook
    count(capabilities.Neutral, "settle_options", "game options settled")
    count(spec_mod, "parse_spec", "spec parsed")
    count(scoring, "parse_pool", "opponents parsed")
    # every check of a flag or key names it: the command's (limits, seed) and the spec's
    count(limits.Limit, "check", "checked", lambda a, k: a[2])
    count(study_command, "check_seed", "checked", lambda a, k: a[1])
    for name in ("check_int", "check_jobs", "check_seed_at", "check_choice"):
        count(spec_checks, name, "checked", lambda a, k: a[1])
        if hasattr(spec_mod, name):
            count(spec_mod, name, "checked", lambda a, k: a[1])
    return counts


def test_a_run_with_an_option_checks_each_thing_once(make_spec, tmp_path, main, counted):
    path = make_spec(name="quad", trials=3, games=100, block=50, reevaluate_games=100)
    code, out, err = main("run", str(path), "--storage", str(tmp_path / "q.journal"),
                          "--option", "noise=0.3", "--trials", "3", "-j", "1",
                          "--seed", "2")
    assert code == 0, err
    assert "3 complete" in out and "study quad." in err  # a study of its own options
    assert counted["game options checked"] == 1
    assert counted["game options settled"] == 1
    assert counted["spec parsed"] == 1
    assert counted["opponents parsed"] == 1
    for flag in ("--trials", "--jobs", "--seed"):
        assert counted[f"checked {flag}"] == 1, (flag, counted)
    # the spec file's own keys are checked once each too
    assert counted["checked evaluation.seed"] == counted["checked optuna.trials"] == 1
    assert all(n == 1 for key, n in counted.items() if key.startswith("checked ")), counted
    counted.clear()  # its report reads the spec once too
    code, _, err = main("report", str(path), "--storage", str(tmp_path / "q.journal"),
                        "--option", "noise=0.3", "--out", str(tmp_path / "report"))
    assert code == 0, err
    assert counted["spec parsed"] == counted["game options checked"] == 1
    # settled with the spec's seed, then with the one the stored run was given (--seed 2)
    assert counted["game options settled"] == 2


def _spec(tmp_path: Path, game: str, folder: str) -> Path:
    """The quadratic spec with ``game`` as its [game] table (noise's default is 0.1)."""
    from tests.tuning.conftest import quad_spec

    where = tmp_path / folder
    where.mkdir()
    path = quad_spec(where, name="quad", trials=2, games=100, block=50, reevaluate_games=100)
    path.write_text(path.read_text().replace("noise = 0.2", game))
    return path


def test_a_default_written_out_is_the_same_study(tmp_path, main):
    omitted = load_spec(_spec(tmp_path, "", "omitted"))
    written = load_spec(_spec(tmp_path, "noise = 0.1", "written"))
    spelled = load_spec(_spec(tmp_path, "noise = 0.10000", "spelled"))
    other = load_spec(_spec(tmp_path, "noise = 0.3", "other"))
    assert omitted.game_options == {} and written.game_options == {"noise": 0.1}
    assert fingerprint(omitted) == fingerprint(written) == fingerprint(spelled)
    assert fingerprint(other) != fingerprint(omitted)
    settings = settings_from_spec(omitted)
    assert spec_fingerprint(omitted, settings) == spec_fingerprint(written, settings)
    assert spec_fingerprint(other, settings) != spec_fingerprint(omitted, settings)
    # --option with the default: the spec's own study, no STUDY.HASH
    assert apply_items(omitted, ["noise=0.1"]) is omitted
    # a run of the spec without the key, then with the default written out: one study
    journal = str(tmp_path / "q.journal")
    code, _, err = main("run", str(tmp_path / "omitted" / "quad.toml"), "--storage", journal)
    assert code == 0, err
    code, out, err = main("run", str(tmp_path / "written" / "quad.toml"), "--storage",
                          journal, "--trials", "3")
    assert code == 0, err
    assert "3 complete" in out
    code, _, err = main("run", str(tmp_path / "other" / "quad.toml"), "--storage", journal)
    assert code == 2 and "made with other settings" in err


def test_a_study_stored_with_its_table_as_spelled_still_opens(tmp_path, main):
    """Studies stored before the identity was the checked options keep their mark."""
    path = _spec(tmp_path, "noise = 0.1", "written")
    spec = load_spec(path)
    journal = str(tmp_path / "q.journal")
    study = optuna.create_study(storage=open_storage(journal).storage, study_name="quad",
                                direction="maximize")
    old = fingerprint(spec, spec.game_options)
    assert old != fingerprint(spec)
    study.set_user_attr("fingerprint", old)
    code, out, err = main("run", str(path), "--storage", journal)
    assert code == 0, err
    assert "2 complete" in out


def test_nothing_below_the_command_checks_the_options_again(make_spec):
    spec = load_spec(make_spec(name="quad"))
    assert isinstance(spec.checked, registry.GameOptions)
    assert spec.scorer().options is spec.options  # as settled, not checked again
    assert spec.scorer().pool is spec.pool
    with pytest.raises(InputError, match="--option noise"):
        apply_items(spec, ["noise=-1"])


def test_an_evolution_with_a_seed_settles_its_options_once(toy_spec, tmp_path, main, counted):
    """``evolve --seed`` resolves the study with that seed from the start: its options are
    checked once and settled once (not with the spec's seed first, then again)."""
    code, _, err = main("evolve", str(toy_spec), "-g", "1", "-P", "4", "--seed", "9",
                        "--checkpoint", str(tmp_path / "e.ckpt"))
    assert code == 0, err
    assert counted["game options checked"] == 1
    assert counted["game options settled"] == 1
    assert counted["spec parsed"] == 1


def test_a_resumed_evolution_settles_its_options_once_with_its_checkpoint_seed(
        toy_spec, tmp_path, main, counted):
    """``evolve --resume`` with no ``--seed`` takes the seed its checkpoint's run was started
    with (9 here, not the spec's) and settles the options once, with that seed."""
    ckpt = str(tmp_path / "e.ckpt")
    code, _, err = main("evolve", str(toy_spec), "-g", "1", "-P", "4", "--seed", "9",
                        "--checkpoint", ckpt)
    assert code == 0, err
    counted.clear()
    seeds = []
    original = capabilities.Neutral.settle_options

    def settle(self, options, seed):
        seeds.append(seed)
        return original(self, options, seed)

    with pytest.MonkeyPatch.context() as patch:  # over the fixture's: records the seed
        patch.setattr(capabilities.Neutral, "settle_options", settle)
        code, out, err = main("evolve", str(toy_spec), "-g", "2", "--resume", "--checkpoint",
                              ckpt)
    assert code == 0, err
    assert seeds == [9]
    assert counted["game options checked"] == 1
    assert counted["spec parsed"] == 1
