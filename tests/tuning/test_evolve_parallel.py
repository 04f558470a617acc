"""Evolution through the spec and joblib layers: identical results with 1 and 2 jobs, CLI.

This file doubles as the toy objective adapter (loaded by file path in the workers):
a genome of eight digits scores its digit sum plus per-game noise on common random numbers.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest

from games import registry
from games.core import game_seeds


class ToyEvolveGame(registry.Game):
    """Eight-digit genomes score their digit sum plus per-game noise (common random
    numbers), a little more against a bigger table."""

    in_contract_suite = False  # a stand-in for the tuning tests, not a real game
    name = "toy-evolve"
    player_counts = (1, 2)
    objectives = ("mean_score",)

    def bots(self):
        return {n: registry.BotInfo(n, "opponent") for n in ("a", "b")}

    def parse_bot(self, text):
        return registry.BotSpec(text, genome=text) if text.isdigit() else super().parse_bot(text)

    def check_bot(self, spec):
        return spec if spec.genome is not None else super().check_bot(spec)

    def play(self, bots, options, seed, start, count, *, rotate=True):
        # a delay from the environment (not a setting of the run) lets a test stop it midway
        time.sleep(float(os.environ.get("TABLETUNE_TEST_DELAY", "0")))
        digits = np.array([int(c) for c in bots[0].genome], dtype=float)
        seeds = game_seeds(seed, count, start)
        noise = np.array([np.random.Generator(np.random.PCG64(int(s))).normal(size=8)
                          for s in seeds])
        score = (noise * 0.3 + 1.0) @ digits / 72 + 0.01 * (len(bots) - 1)
        return registry.Outcomes(start, np.zeros((count, 1), dtype=np.int64),
                                 np.zeros((count, 1), dtype=np.int8), score[:, None],
                                 np.ones(count, dtype=np.int64), np.zeros(count, dtype=bool))

    def genome_kinds(self):
        return {"toy-digits": lambda options: ToyKind()}


class ToyKind:
    name = "toy-digits"

    def random(self, rng):
        return [rng.randrange(10) for _ in range(8)]

    def mutate(self, genes, rng):
        out = list(genes)
        out[rng.randrange(8)] = rng.randrange(10)
        return out

    def crossover(self, a, b, rng):
        k = rng.randrange(1, 8)
        return a[:k] + b[k:], b[:k] + a[k:]

    def to_text(self, genes):
        return "".join(map(str, genes))

    def from_text(self, text):
        return [int(c) for c in text]

    def validate(self, genes):
        assert len(genes) == 8

    def seed_genomes(self):
        return []


SPEC = """
[study]
name = "toy-evolution"
game = "toy-evolve"
optimizer = "deap"
objective = "mean_score"

[evaluation]
games = 40
block = 10
seed = 5
reevaluate_top = 2
reevaluate_games = 60
opponents = ["a", "b"]

[deap]
generations = 3
population = 6
offspring = 8
hall_of_fame = 3

[genome]
kind = "toy-digits"
hall_of_fame_opponents = 1
pool_every = 2
"""


registry.register(ToyEvolveGame())


@pytest.fixture()
def toy_spec(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLETUNE_GAMES", str(Path(__file__).resolve()))
    path = tmp_path / "toy-evolution.toml"
    path.write_text(SPEC)
    return path


def _strip(rows):
    return [{k: v for k, v in r.items() if k not in ("seconds", "games_per_s")} for r in rows]


def test_one_and_two_jobs_give_identical_evolutions(toy_spec, tmp_path):
    from tuning._spec import load_spec
    from tuning.evaluation import WorkerPool
    from tuning.evolution._runner import build_evolution

    results = []
    for jobs in (1, 2):
        spec = load_spec(toy_spec).with_overrides(jobs=jobs)
        with WorkerPool(jobs) as pool:
            evo = build_evolution(spec, pool, checkpoint=tmp_path / f"j{jobs}" / "c.ckpt")
            results.append(evo.run())
    one, two = results
    assert one.hall_of_fame == two.hall_of_fame
    assert _strip(one.logbook) == _strip(two.logbook)
    assert one.logbook[-1]["games"] > 0 and one.generation == 3


def test_cli_json_resume_and_refusals(toy_spec, tmp_path):
    from typer.testing import CliRunner

    from tuning.cli import app

    runner = CliRunner()
    ck = tmp_path / "run" / "e.ckpt"
    first = runner.invoke(app, ["evolve", str(toy_spec), "--generations", "2", "--checkpoint",
                                str(ck), "--json"])
    assert first.exit_code == 0, first.output
    more = runner.invoke(app, ["evolve", str(toy_spec), "--generations", "4", "--checkpoint",
                               str(ck), "--resume", "--json"])
    assert more.exit_code == 0, more.output
    data = json.loads(more.stdout[more.stdout.index("{"):])
    assert data["study"] == "toy-evolution" and data["generations"] == 4
    assert len(data["best_genome"]) == 8 and data["best_genome"].isdigit()
    lo, hi = data["best_fitness_ci"]
    assert lo <= data["best_fitness"] <= hi and data["best_fitness_games"] == 60
    assert ck.with_suffix(".log").read_text().count("gen ") == 5
    # another seed means another spec: the checkpoint is refused, in one line, exit 2
    from tuning.cli import main  # noqa: F401  (the console script wraps InputError)
    bad = runner.invoke(app, ["evolve", str(toy_spec), "--seed", "9", "--checkpoint", str(ck),
                              "--resume"])
    assert bad.exit_code != 0 and "seed: checkpoint 5, now 9" in str(bad.exception)
    # a new run never silently replaces an existing checkpoint
    again = runner.invoke(app, ["evolve", str(toy_spec), "--checkpoint", str(ck)])
    assert again.exit_code != 0 and "--restart" in str(again.exception)


def test_report_of_an_evolution(toy_spec, tmp_path):
    from tuning._spec import load_spec
    from tuning.evaluation import WorkerPool
    from tuning.evolution._runner import build_evolution
    from tuning.reporting._evolution import build_evolution_report

    spec = load_spec(toy_spec)
    ck = tmp_path / "r" / "c.ckpt"
    result = build_evolution(spec, WorkerPool(), generations=2, checkpoint=ck).run()
    out = tmp_path / "report"
    summary = build_evolution_report(spec, ck, out)
    assert summary["generations"] == 2
    assert summary["best_genome"] in [t for t, _ in result.hall_of_fame]
    assert [b["opponent"] for b in summary["baselines"]] == ["a", "b"]
    assert all(b["games"] == 60 for b in summary["baselines"])
    page = (out / "index.html").read_text()
    assert "http://" not in page and "https://" not in page and "base64," in page
    readme = (out / "README.md").read_text()
    assert summary["best_genome"] in readme and "tabletune evolve toy-evolution" in readme
    assert (out / "fitness.png").read_bytes()[:4] == b"\x89PNG"
    # a profile record given to the report is quoted, kept as report data, and the
    # Regenerate block has the benchmark write under runs/, never into the report folder
    record = {"command": "python benchmarks/evolve_profile.py --study toy-evolution "
                         "--generations 2", "repeats": 1, "share_in_simulation": 0.95,
              "share_in_kernel": None, "exact": False, "generations": 2, "evals": 8,
              "wall": 1.0, "games": 480}
    (tmp_path / "ts.json").write_text(json.dumps(record))
    summary = build_evolution_report(spec, ck, out, time_share=tmp_path / "ts.json")
    readme = (out / "README.md").read_text()
    assert "95.0% of the evolution's wall time" in summary["time_share"]
    assert "--time-share runs/toy-evolution-time-share.json" in readme
    assert "--record" not in readme and (out / "time_share.json").is_file()
