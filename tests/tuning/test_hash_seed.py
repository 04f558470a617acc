"""A seeded evolution and a seeded study give the same JSON in fresh interpreters with
different PYTHONHASHSEED values: no result depends on the hash order of strings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VARYING = ("seconds", "time", "storage", "checkpoint", "log", "eta", "share")


def _run(args: list[str], hash_seed: str, tmp: Path) -> Any:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    env.pop("TABLETUNE_GAMES", None)
    proc = subprocess.run([sys.executable, "-m", "tuning.cli", *args, "--json"], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return _strip(json.loads(proc.stdout))


def _strip(data: Any) -> Any:
    """Drop timings and paths: the only fields allowed to differ between the runs."""
    if isinstance(data, dict):
        return {k: _strip(v) for k, v in data.items() if not any(w in k for w in VARYING)}
    if isinstance(data, list):
        return [_strip(v) for v in data]
    return data


def test_evolution_and_study_ignore_hash_seed(tmp_path: Path) -> None:
    outs = []
    for hash_seed in ("0", "4242"):
        evo = _run(["evolve", "deckbuilder-buylist", "-g", "2", "-p", "8", "--seed", "3",
                    "--checkpoint", str(tmp_path / f"ck{hash_seed}.pkl")], hash_seed, tmp_path)
        study = _run(["run", "deckbuilder-heuristic", "--trials", "6", "--seed", "3",
                      "--storage", str(tmp_path / f"s{hash_seed}.journal")], hash_seed, tmp_path)
        outs.append((evo, study))
    assert outs[0][0] == outs[1][0]
    assert outs[0][1] == outs[1][1]
    assert outs[0][0]["best_fitness"] > 0 and outs[0][1]["trials_completed"] == 6
