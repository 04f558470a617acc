"""A non-editable install ships the study specs: build the wheel, install it, list studies."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "games", "tuning", "studies")


def _run(*args: str | Path, cwd: Path, timeout: float = 120,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)


def _clean_env() -> dict[str, str]:
    """The environment without the checkout on PYTHONPATH or test-only objectives."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "TABLETUNE_OBJECTIVES", "VIRTUAL_ENV")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _dependency_dirs() -> list[str]:
    """The site-packages folders this interpreter imports the dependencies from.

    Inside a virtual environment these are the environment's own (``--system-site-packages``
    on a new venv would bring the base interpreter's instead, which lack numba and the rest);
    outside one they are the interpreter's."""
    return [p for p in sys.path if Path(p).name in ("site-packages", "dist-packages")]


def _borrow_dependencies(venv: Path, bin_dir: Path) -> None:
    """Let the new venv import this environment's dependencies (a ``.pth`` listing their
    folders, after its own site-packages) without their ``.pth`` files, so the editable
    install of the checkout stays out and the wheel alone provides ``tabletune``."""
    purelib = _run(bin_dir / "python", "-c",
                   "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                   cwd=venv).stdout.strip()
    (Path(purelib) / "_outer_dependencies.pth").write_text(
        "\n".join(_dependency_dirs()) + "\n")


@pytest.mark.slow
def test_installed_wheel_lists_the_study_specs(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCES:  # a clean copy: the build writes build/ and *.egg-info beside it
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, src / name, symlinks=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, src / name)
    dist = tmp_path / "dist"
    env = _clean_env()
    built = _run(sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", dist,
                 cwd=src, env=env)
    if built.returncode != 0 and "setuptools" in built.stdout + built.stderr \
            and ("Could not find" in built.stderr or "No matching distribution" in built.stderr):
        pytest.skip("the build backend (setuptools) cannot be fetched here")
    assert built.returncode == 0, built.stderr
    wheel = next(dist.glob("tabletune-*.whl"))
    shipped = {Path(n).name for n in zipfile.ZipFile(wheel).namelist()
               if n.startswith("tuning/studies/")}
    assert shipped == {p.name for p in (ROOT / "studies").glob("*.toml")}

    venv = tmp_path / "venv"
    assert _run(sys.executable, "-m", "venv", venv, cwd=tmp_path).returncode == 0
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    _borrow_dependencies(venv, bin_dir)
    installed = _run(bin_dir / "python", "-m", "pip", "install", "--no-deps", "-q", wheel,
                     cwd=tmp_path, env=env)
    assert installed.returncode == 0, installed.stderr
    away = tmp_path / "elsewhere"
    away.mkdir()
    # listing validates the specs, which imports the engines: skip their JIT compilation
    listed = _run(bin_dir / "tabletune", "studies", "--json", cwd=away,
                  env={**env, "NUMBA_DISABLE_JIT": "1"})
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)
    assert {r["name"] for r in rows} >= {"dominion-heuristic", "deckbuilder-buylist"}
    assert all(r["valid"] for r in rows), [r for r in rows if not r["valid"]]
    assert all(Path(r["path"]).resolve().is_relative_to(venv.resolve()) for r in rows)
