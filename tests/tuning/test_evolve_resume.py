"""Evolution runner: exact resume after a stop or a signal, refused checkpoints."""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import numpy as np
import pytest

from games.core import InputError, game_seeds
from tuning.evolution._checkpoint import MAGIC
from tuning.evolution._engine import Evolution, EvolutionInterrupted, EvolveSettings, Score


class ToyKind:
    """Eight digits; crossover swaps a tail, mutation moves one digit by one."""

    name = "toy"

    def random(self, rng):
        return [rng.randrange(10) for _ in range(8)]

    def mutate(self, genes, rng):
        out = list(genes)
        i = rng.randrange(len(out))
        out[i] = min(9, max(0, out[i] + rng.choice((-1, 1))))
        return out

    def crossover(self, a, b, rng):
        k = rng.randrange(1, len(a))
        return a[:k] + b[k:], b[:k] + a[k:]

    def to_text(self, genes):
        return "".join(map(str, genes))

    def from_text(self, text):
        return [int(c) for c in text]

    def validate(self, genes):
        if len(genes) != 8 or not all(0 <= g <= 9 for g in genes):
            raise ValueError("bad toy genome")

    def seed_genomes(self):
        return [[0] * 8]


def toy_evaluator(texts, opponents):
    """Noisy fitness on common random numbers: digit sum plus per-game noise."""
    out = []
    noise = np.random.Generator(np.random.PCG64(int(game_seeds(7, 1)[0]))).normal(size=50)
    for text in texts:
        target = sum(int(c) for c in text) / 72 + 0.1 * len(opponents)
        # each candidate sees the same games but reacts to them differently
        w = (int(text) % 97) / 97
        per_game = target + 0.05 * noise * (w - 0.5)
        out.append(Score(float(per_game.mean()), float(per_game.std(ddof=1) / 50**0.5), 50))
    return out


def _settings(**kw):
    base = dict(generations=6, population=10, offspring=10, hall_of_fame=4, seed=3,
                checkpoint_every=1)
    base.update(kw)
    return EvolveSettings(**base)


def _run(tmp: Path, resume=False, progress=None, **kw):
    if resume:  # as in a fresh process: nothing may rely on the generators' current state
        random.seed(12345)
        np.random.seed(54321)
    evo = Evolution(ToyKind(), toy_evaluator, _settings(**kw), checkpoint=tmp / "c.ckpt",
                    fingerprint="toy-1", study="toy", progress=progress)
    return evo.run(resume=resume)


def _strip(rows):
    return [{k: v for k, v in r.items() if k not in ("seconds", "games_per_s")} for r in rows]


@pytest.mark.parametrize("algorithm", ["mu_plus_lambda", "mu_comma_lambda", "simple"])
def test_stop_and_resume_equals_uninterrupted(tmp_path, algorithm):
    full = _run(tmp_path / "a", algorithm=algorithm)
    assert full.generation == 6 and len(full.logbook) == 7
    _run(tmp_path / "b", generations=3, algorithm=algorithm)
    resumed = _run(tmp_path / "b", resume=True, algorithm=algorithm)
    assert resumed.hall_of_fame == full.hall_of_fame
    assert resumed.population == full.population
    assert _strip(resumed.logbook) == _strip(full.logbook)
    # the search moved: the best is better than the all-zero seed genome
    assert full.hall_of_fame[0][1].mean > toy_evaluator(["0" * 8], [])[0].mean


def test_ctrl_c_and_sigterm_checkpoint_then_resume(tmp_path):
    full = _run(tmp_path / "a", pool_size=2, pool_every=2)

    def ctrl_c(row):
        if row["gen"] == 2:
            raise KeyboardInterrupt

    with pytest.raises(EvolutionInterrupted) as info:
        _run(tmp_path / "b", progress=ctrl_c, pool_size=2, pool_every=2)
    assert info.value.generation == 2

    def sigterm(row):
        if row["gen"] == 4:
            os.kill(os.getpid(), signal.SIGTERM)

    with pytest.raises(EvolutionInterrupted) as info:
        _run(tmp_path / "b", resume=True, progress=sigterm, pool_size=2, pool_every=2)
    assert info.value.generation == 4
    resumed = _run(tmp_path / "b", resume=True, pool_size=2, pool_every=2)
    assert resumed.hall_of_fame == full.hall_of_fame
    assert _strip(resumed.logbook) == _strip(full.logbook)
    assert (tmp_path / "b" / "c.log").read_text().count("gen   6/6") == 1


def _log_generations(path: Path) -> list[int]:
    return [int(line.split()[1].split("/")[0]) for line in path.read_text().splitlines()]


def test_log_matches_the_run_after_restart_and_resume(tmp_path):
    _run(tmp_path, generations=3)
    _run(tmp_path, generations=3)  # a fresh start over the same files (--restart)
    assert _log_generations(tmp_path / "c.log") == [0, 1, 2, 3]

    def stop(row):
        if row["gen"] == 5:
            raise KeyboardInterrupt

    # checkpoints at 3 only: the log's generations 4-5 are evolved and logged again on resume
    with pytest.raises(EvolutionInterrupted):
        _run(tmp_path / "k", progress=stop, checkpoint_every=3, generations=6)
    (tmp_path / "k" / "c.ckpt").unlink()
    _run(tmp_path / "k", generations=3, checkpoint_every=3)
    with (tmp_path / "k" / "c.log").open("a") as fh:  # lines a killed run wrote past it
        fh.write("gen   4/6  best 0.1\ngen   5/6  best 0.1\n")
    _run(tmp_path / "k", resume=True, checkpoint_every=3, generations=6)
    assert _log_generations(tmp_path / "k" / "c.log") == [0, 1, 2, 3, 4, 5, 6]


def test_checkpoint_every_k_keeps_last_multiple(tmp_path):
    def stop(row):
        if row["gen"] == 5:
            raise KeyboardInterrupt

    with pytest.raises(EvolutionInterrupted) as info:
        _run(tmp_path, progress=stop, checkpoint_every=3)
    # generation 5 completed, so the interrupt handler saves it even between multiples
    assert info.value.generation == 5
    full = _run(tmp_path / "full")
    assert _run(tmp_path, resume=True).hall_of_fame == full.hall_of_fame


def test_corrupt_and_foreign_checkpoints_are_refused(tmp_path):
    _run(tmp_path, generations=1)
    path = tmp_path / "c.ckpt"
    good = path.read_bytes()
    with pytest.raises(InputError, match="another spec"):
        Evolution(ToyKind(), toy_evaluator, _settings(), checkpoint=path,
                  fingerprint="toy-2", study="toy").run(resume=True)
    path.write_bytes(good[:-20])
    with pytest.raises(InputError, match="corrupt"):
        _run(tmp_path, resume=True)
    flipped = bytearray(good)
    flipped[-5] ^= 0xFF
    path.write_bytes(bytes(flipped))
    with pytest.raises(InputError, match="corrupt"):
        _run(tmp_path, resume=True)
    path.write_bytes(b"hello")
    with pytest.raises(InputError, match="not a tabletune"):
        _run(tmp_path, resume=True)
    path.unlink()
    with pytest.raises(InputError, match="no checkpoint"):
        _run(tmp_path, resume=True)
    assert good.startswith(MAGIC)


def test_bad_settings_are_input_errors():
    with pytest.raises(InputError, match="algorithm"):
        EvolveSettings(algorithm="nsga")
    with pytest.raises(InputError, match="cxpb"):
        EvolveSettings(cxpb=0.8, mutpb=0.5)
