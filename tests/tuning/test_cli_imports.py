"""The command line imports only what a command uses: `--help` and `studies` load no game
and no numba (so they start in a fraction of a second, `benchmarks/cli_startup.py`), and a
command that plays one game loads that game alone.

Each command runs through the console script's entry point in a fresh interpreter, which
then prints the modules it holds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from games import catalog

#: runs ``main()`` with ``sys.argv`` as set before it; prints the exit code and every module
#: imported (tests/tuning/test_cli_lazy.py puts its own set-up in front of it)
RUN_AND_LIST_MODULES = """
from tuning.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
sys.stdout.flush()
print("\\nMODULES " + json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""
_PROBE = """
import json, sys
sys.argv = ["tabletune", *json.loads(sys.argv[1])]
""" + RUN_AND_LIST_MODULES


def _modules(*args: str) -> tuple[int, set[str]]:
    """Exit status and loaded modules of ``tabletune ARGS`` in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != "TABLETUNE_GAMES"}
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(list(args))],
                          capture_output=True, text=True, env=env, timeout=300)
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("MODULES "))
    data = json.loads(line.removeprefix("MODULES "))
    return data["code"], set(data["modules"])


def _games_loaded(modules: set[str]) -> set[str]:
    return {name for name in catalog.BUILTIN
            if any(m == f"games.{name}" or m.startswith(f"games.{name}.") for m in modules)}


@pytest.mark.parametrize("args", [("--help",), ("studies",), ("studies", "--json"),
                                  ("run", "--help")])
def test_help_and_studies_import_no_game_and_no_numba(args):
    code, modules = _modules(*args)
    assert code in (0, None)
    assert _games_loaded(modules) == set()
    heavy = {m for m in modules if m.split(".")[0] in ("numba", "numpy", "optuna", "deap",
                                                       "matplotlib", "pydantic")}
    assert not heavy, sorted(heavy)[:5]


def test_play_dominion_imports_dominion_alone():
    code, modules = _modules("play", "dominion", "--bots", "big-money,smithy-big-money",
                             "-n", "20", "--json")
    assert code in (0, None)
    assert _games_loaded(modules) == {"dominion"}


def test_play_help_lists_every_game():
    done = subprocess.run([sys.executable, "-m", "tuning.cli", "play", "--help"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    for name in catalog.BUILTIN:
        assert name in done.stdout
