"""DEAP evolution runner: generations, hall of fame, logbook, checkpoint and exact resume.

The loop is DEAP's (mu + lambda), (mu, lambda) or simple algorithm written one generation at
a time so that a checkpoint can be cut between generations. Candidates go to the evaluator
as their text form (plain strings, so any joblib backend can ship them); fitness values come
back as :class:`Score`. All draws of the loop come from Python's ``random`` module (DEAP's
own generator); its state, numpy's legacy state, the population, the hall of fame, the
logbook and the opponent pool are checkpointed, so a resumed run ends exactly like an
uninterrupted one with the same seed.

Longer than 400 lines on purpose: the generation loop, its checkpoint payload and its
resume must change together (a resumed run has to end exactly like an uninterrupted one).
"""

from __future__ import annotations

import math
import operator
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from deap import algorithms, base, tools

from games.atomic import write_atomic
from games.core import Z95, InputError
from tuning._spec import DeapSpec, EvaluationSpec, GenomeSpec
from tuning._stopping import stop_signals
from tuning.evolution._checkpoint import check_matches, load_checkpoint, save_checkpoint
from tuning.evolution._deap_types import make_individual
from tuning.evolution._genomes import GenomeKind

ALGORITHMS = ("mu_plus_lambda", "mu_comma_lambda", "simple")
SELECTIONS = ("tournament", "best")


@dataclass(frozen=True)
class Score:
    """Fitness of one candidate: mean per-game score (or exact value) with its error."""

    mean: float
    stderr: float = 0.0
    games: int = 0
    seconds: float = field(default=0.0, compare=False)  # time inside the objective

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.mean - Z95 * self.stderr, self.mean + Z95 * self.stderr)


#: evaluator(texts, opponents) -> one Score per text, in order
Evaluator = Callable[[list[str], list[str]], list[Score]]


_DEAP, _GENOME = DeapSpec(), GenomeSpec()  # the spec tables' defaults, declared there


@dataclass(frozen=True)
class EvolveSettings:
    """The budget and operators of one evolution (the spec's [deap] table plus the seed,
    :func:`tuning.evolution._runner.settings_from_spec`); the defaults are the spec's."""

    generations: int = _DEAP.generations
    population: int = _DEAP.population
    offspring: int = _DEAP.population
    algorithm: str = _DEAP.algorithm
    cxpb: float = _DEAP.cxpb
    mutpb: float = _DEAP.mutpb
    selection: str = _DEAP.selection
    tournsize: int = _DEAP.tournament
    hall_of_fame: int = _DEAP.hall_of_fame
    checkpoint_every: int = _DEAP.checkpoint_every
    seed: int = EvaluationSpec.seed
    unique: bool = _DEAP.unique  # drop duplicate genomes before selecting survivors
    # hall-of-fame members added to the opponents (0: fixed opponents)
    pool_size: int = _GENOME.hall_of_fame_opponents
    pool_every: int = _GENOME.pool_every  # generations between refreshes of that pool
    direction: str = "maximize"

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise InputError(f"[deap] algorithm must be one of {list(ALGORITHMS)}, "
                             f"not {self.algorithm!r}")
        if self.selection not in SELECTIONS:
            raise InputError(f"[deap] selection must be one of {list(SELECTIONS)}, "
                             f"not {self.selection!r}")
        for name in ("generations", "checkpoint_every", "pool_every"):
            if getattr(self, name) < (0 if name == "generations" else 1):
                raise InputError(f"[deap] {name} must be positive, got {getattr(self, name)}")
        if self.population < 2 or self.offspring < 1 or self.hall_of_fame < 1:
            raise InputError("[deap] population must be >= 2, offspring and hall_of_fame >= 1")
        if self.algorithm == "mu_comma_lambda" and self.offspring < self.population:
            raise InputError("[deap] mu_comma_lambda needs offspring >= population")
        if not (0 <= self.cxpb <= 1 and 0 <= self.mutpb <= 1):
            raise InputError("[deap] cxpb and mutpb must lie in [0, 1]")
        if self.algorithm != "simple" and self.cxpb + self.mutpb > 1:
            raise InputError("[deap] cxpb + mutpb must be at most 1 for (mu +/, lambda)")

    def identity(self) -> dict[str, Any]:
        """What a checkpoint must share with a resumed run (everything but the budget)."""
        data = asdict(self)
        data.pop("generations")
        data.pop("checkpoint_every")
        return data


@dataclass
class EvolutionResult:
    """Outcome of a run: hall of fame (best first), logbook rows, final population."""

    generation: int
    hall_of_fame: list[tuple[str, Score]]
    logbook: list[dict[str, Any]]
    population: list[tuple[str, Score | None]]
    seconds: float
    finished: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


class EvolutionInterrupted(Exception):
    """Raised after Ctrl-C / SIGTERM once the checkpoint of the last generation is written.

    ``generation`` is -1 and ``path`` None when the stop came before generation 0 was
    complete, so no checkpoint was written.
    """

    def __init__(self, generation: int, path: Path | None) -> None:
        super().__init__(f"interrupted after generation {generation}")
        self.generation = generation
        self.path = path


class Evolution:
    """One evolution of a genome kind under an evaluator, resumable from a checkpoint."""

    def __init__(self, kind: GenomeKind, evaluator: Evaluator, settings: EvolveSettings, *,
                 opponents: Sequence[str] = (), checkpoint: str | Path | None = None,
                 fingerprint: str = "", spec_data: dict[str, Any] | None = None,
                 identity: dict[str, Any] | None = None, study: str = "evolution",
                 log_path: str | Path | None = None,
                 progress: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.kind = kind
        self.evaluator = evaluator
        self.settings = settings
        self.base_opponents = list(opponents)
        self.checkpoint = Path(checkpoint) if checkpoint else None
        self.fingerprint = fingerprint
        self.spec_data = spec_data or {}
        self.identity = identity  # what the fingerprint hashes: names a differing setting
        self.study = study
        self.log_path = Path(log_path) if log_path else (
            self.checkpoint.with_suffix(".log") if self.checkpoint else None)
        self.progress = progress
        self.toolbox = self._toolbox()
        self.generation = 0
        self.population: list[Any] = []
        self.hof = tools.HallOfFame(settings.hall_of_fame, similar=operator.eq)
        self.logbook: list[dict[str, Any]] = []
        self.pool: list[str] = []
        self._snapshot: dict[str, Any] | None = None
        self.loaded: dict[str, Any] | None = None  # a checkpoint already read, to resume
        self._cache: dict[tuple[str, tuple[str, ...]], Score] = {}
        self._games = 0  # games simulated since the last logbook row

    # ------------------------------------------------------------------ operators

    def _toolbox(self) -> base.Toolbox:
        tb = base.Toolbox()
        kind = self.kind

        def mate(a: Any, b: Any) -> tuple[Any, Any]:
            x, y = kind.crossover(list(a), list(b), random)
            a[:], b[:] = x, y
            return a, b

        def mutate(a: Any) -> tuple[Any]:
            a[:] = kind.mutate(list(a), random)
            return (a,)

        tb.register("mate", mate)
        tb.register("mutate", mutate)
        if self.settings.selection == "tournament":
            tb.register("select", tools.selTournament, tournsize=self.settings.tournsize)
        else:
            tb.register("select", tools.selBest)
        return tb

    def _individual(self, genes: list[Any], score: Score | None = None) -> Any:
        ind = make_individual(genes, self.settings.direction,
                              None if score is None else score.mean)
        ind.score = score
        return ind

    # ------------------------------------------------------------------ evaluation

    def _evaluate(self, individuals: Sequence[Any]) -> int:
        """Score individuals without a valid fitness; return how many were evaluated."""
        todo = [ind for ind in individuals if not ind.fitness.valid]
        key = tuple(self.pool)
        texts = sorted({self.kind.to_text(list(ind)) for ind in todo} -
                       {t for (t, k) in self._cache if k == key})
        if texts:
            state = random.getstate()  # evaluation must not consume the loop's draws
            scores = self.evaluator(texts, self.base_opponents + self.pool)
            random.setstate(state)
            if len(scores) != len(texts):
                raise RuntimeError("evaluator returned a wrong number of scores")
            for text, score in zip(texts, scores, strict=True):
                self._cache[(text, key)] = score
                self._games += score.games
        for ind in todo:
            score = self._cache[(self.kind.to_text(list(ind)), key)]
            ind.fitness.values = (score.mean,)
            ind.score = score
        return len(todo)

    def _refresh_pool(self) -> int:
        """Put the best hall-of-fame members among the opponents; re-score all on a change."""
        s = self.settings
        if s.pool_size <= 0 or self.generation % s.pool_every:
            return 0
        pool = [self.kind.to_text(list(ind)) for ind in self.hof.items[:s.pool_size]]
        if pool == self.pool:
            return 0
        self.pool = pool
        keep = [self._individual(list(ind)) for ind in self.hof.items]
        for ind in self.population:
            del ind.fitness.values
        evals = self._evaluate(self.population + keep)
        self.hof.clear()
        self.hof.update(keep)
        self.hof.update(self.population)
        return evals

    # ------------------------------------------------------------------ generations

    def _start(self) -> None:
        s = self.settings
        random.seed(s.seed)  # DEAP's operators draw from Python's random module
        genomes = [list(g) for g in self.kind.seed_genomes()][: s.population]
        while len(genomes) < s.population:
            genomes.append(self.kind.random(random))
        self.population = [self._individual(g) for g in genomes]
        started = time.perf_counter()
        evals = self._evaluate(self.population)
        self.hof.update(self.population)
        self._record(evals, time.perf_counter() - started)

    def _step(self) -> None:
        s = self.settings
        self.generation += 1
        started = time.perf_counter()
        evals = self._refresh_pool()
        if s.algorithm == "simple":
            chosen = [self.toolbox.clone(i) for i in self.toolbox.select(self.population,
                                                                          len(self.population))]
            offspring = algorithms.varAnd(chosen, self.toolbox, s.cxpb, s.mutpb)
        else:
            offspring = algorithms.varOr(self.population, self.toolbox, s.offspring,
                                         s.cxpb, s.mutpb)
        evals += self._evaluate(offspring)
        self.hof.update(offspring)
        if s.algorithm == "mu_plus_lambda":
            self.population = self.toolbox.select(self._distinct(self.population + offspring),
                                                  s.population)
        elif s.algorithm == "mu_comma_lambda":
            self.population = self.toolbox.select(self._distinct(offspring), s.population)
        else:
            self.population = offspring
        self.population = [self.toolbox.clone(i) for i in self.population]
        self._record(evals, time.perf_counter() - started)

    def _distinct(self, candidates: list[Any]) -> list[Any]:
        """Candidates for survival: one copy per genome first, duplicates only to fill mu.

        Without this, copies of one good genome crowd out the population (it collapses to
        one point, most visibly with exact, noise-free fitness).
        """
        if not self.settings.unique:
            return candidates
        seen: set[str] = set()
        first, extra = [], []
        for ind in candidates:
            key = self.kind.to_text(list(ind))
            (extra if key in seen else first).append(ind)
            seen.add(key)
        return first + extra[: max(0, self.settings.population - len(first))]

    def _record(self, evals: int, seconds: float) -> None:
        fits = np.array([ind.fitness.values[0] for ind in self.population])
        games, self._games = self._games, 0
        best = self.hof.items[0]
        row = {
            "gen": self.generation, "evals": evals, "best": float(best.fitness.values[0]),
            "best_stderr": float(best.score.stderr), "mean": float(fits.mean()),
            "std": float(fits.std()), "min": float(fits.min()), "max": float(fits.max()),
            "games": int(games), "seconds": round(seconds, 4),
            "games_per_s": float(games / seconds) if seconds > 0 else 0.0,
            "best_genome": self.kind.to_text(list(best)),
        }
        self.logbook.append(row)
        self._snapshot = self._payload()

    # ------------------------------------------------------------------ checkpoint

    def _payload(self) -> dict[str, Any]:
        def plain(ind: Any) -> tuple[list[Any], Score | None]:
            return list(ind), ind.score if ind.fitness.valid else None

        return {
            "format": "tabletune-evolution", "version": 1, "study": self.study,
            "fingerprint": self.fingerprint, "identity": self.identity, "spec": self.spec_data,
            "settings": asdict(self.settings), "generation": self.generation,
            "population": [plain(i) for i in self.population],
            "hall_of_fame": [plain(i) for i in self.hof.items],
            "logbook": [dict(r) for r in self.logbook], "pool": list(self.pool),
            "opponents": list(self.base_opponents),
            "cache": [(t, list(k), sc) for (t, k), sc in self._cache.items()],
            "rng": {"python": random.getstate()},
            "saved_at": time.time(),
        }

    def _save(self) -> None:
        if self.checkpoint is not None and self._snapshot is not None:
            save_checkpoint(self.checkpoint, self._snapshot)

    def _restore(self) -> None:
        assert self.checkpoint is not None
        data = self.loaded or load_checkpoint(self.checkpoint)
        check_matches(self.checkpoint, data, self.fingerprint, self.study, self.identity)
        self.generation = int(data["generation"])
        self.population = [self._individual(g, s) for g, s in data["population"]]
        items = [self._individual(g, s) for g, s in data["hall_of_fame"]]
        self.hof.items = items
        self.hof.keys = [ind.fitness for ind in reversed(items)]
        self.logbook = [dict(r) for r in data["logbook"]]
        self.pool = list(data["pool"])
        self._cache = {(t, tuple(k)): sc for t, k, sc in data["cache"]}
        random.setstate(data["rng"]["python"])
        self._snapshot = data

    # ------------------------------------------------------------------ driver

    def _log(self, row: dict[str, Any], total: int, eta: float) -> None:
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            with self.log_path.open("a") as fh:
                fh.write(format_row(row, total, eta) + "\n")
        if self.progress is not None:
            self.progress({**row, "generations": total, "eta_seconds": eta})

    def _trim_log(self, generation: int | None) -> None:
        """Make the log match the run: empty for a fresh start (``--restart`` must not append
        to the old run's lines), and on resume only the lines up to the checkpoint's
        generation (later ones are evolved again and logged again)."""
        if self.log_path is None or not self.log_path.is_file():
            return
        keep: list[str] = []
        if generation is not None:
            for line in self.log_path.read_text(errors="replace").splitlines(keepends=True):
                found = _LOG_GENERATION.match(line)
                if found is None or int(found.group(1)) > generation:
                    break
                keep.append(line)
        write_atomic(self.log_path, "".join(keep))

    def run(self, resume: bool = False) -> EvolutionResult:
        """Run (or continue) up to ``settings.generations``; checkpoint as configured."""
        total = self.settings.generations
        started = time.perf_counter()
        with stop_signals():  # SIGTERM stops as Ctrl-C does: a checkpoint, then the exit
            try:
                if resume:
                    self._restore()
                    self._trim_log(self.generation)
                else:
                    self._trim_log(None)
                    self._start()
                    self._save()
                    self._log(self.logbook[-1], total, math.nan)
                first = self.generation
                while self.generation < total:
                    self._step()
                    done = self.generation - first
                    eta = (time.perf_counter() - started) / done * (total - self.generation)
                    if self.generation % self.settings.checkpoint_every == 0 \
                            or self.generation == total:
                        self._save()
                    self._log(self.logbook[-1], total, eta)
            except KeyboardInterrupt:
                if self._snapshot is None:  # generation 0 unfinished: there is nothing to keep
                    raise EvolutionInterrupted(-1, None) from None
                self._save()
                raise EvolutionInterrupted(int(self._snapshot["generation"]),
                                           self.checkpoint) from None
        return self.result(time.perf_counter() - started)

    def result(self, seconds: float = 0.0) -> EvolutionResult:
        text = self.kind.to_text
        return EvolutionResult(
            generation=self.generation,
            hall_of_fame=[(text(list(i)), i.score) for i in self.hof.items],
            logbook=[dict(r) for r in self.logbook],
            population=[(text(list(i)), i.score if i.fitness.valid else None)
                        for i in self.population],
            seconds=seconds)


_LOG_GENERATION = re.compile(r"gen\s+(\d+)/")


def format_row(row: dict[str, Any], total: int, eta: float) -> str:
    """One progress line: generation, best and mean fitness, games/s, time left."""
    left = "?" if not math.isfinite(eta) else _duration(eta)
    if row["games"] or not row["evals"]:
        speed = f"{row['games_per_s']:,.0f} games/s"
    else:  # exact fitness: no games are played
        speed = f"{row['evals'] / max(row['seconds'], 1e-9):,.1f} evals/s"
    return (f"gen {row['gen']:>3}/{total}  best {row['best']:.4f} ± {row['best_stderr']:.4f}"
            f"  mean {row['mean']:.4f}  spread {row['std']:.4f}  evals {row['evals']:>3}"
            f"  {speed}  left {left}  {row['best_genome']}")


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{s:02d}s"
