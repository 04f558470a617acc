"""From a study spec to a running evolution: settings, fingerprint, evaluator, re-evaluation.

The evaluator scores a whole population in one pass of the run's worker pool over
(candidate, seed block) tasks, through the same evaluation path as Optuna studies
(:func:`tuning.evaluation.evaluate_many`), so 16 workers stay busy even with few blocks per
candidate, and the result does not depend on the number of jobs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games import registry
from games.capabilities import use
from games.core import InputError
from tuning._identity import option_identity
from tuning._spec import EvaluationSpec, StudySpec
from tuning.evaluation import (
    Evaluation,
    Scorer,
    WorkerPool,
    candidate_bot,
    derived_seed,
    evaluate_many,
)
from tuning.evolution._checkpoint import check_matches, fingerprint, load_checkpoint
from tuning.evolution._engine import Evolution, EvolutionResult, EvolveSettings, Score
from tuning.evolution._genomes import GenomeKind

RUNS_DIR = Path("runs")


def genome_kind(spec: StudySpec) -> GenomeKind:
    """The spec's genome kind, built from its [genome] table."""
    if spec.optimizer != "deap":
        raise InputError(f"{spec.path}: study.optimizer is {spec.optimizer!r}; "
                         "`tabletune evolve` needs optimizer = \"deap\"")
    if spec.genome.kind is None:
        kinds = ", ".join(use(registry.get(spec.game), "genomes").genome_kinds()) or "none"
        raise InputError(f"{spec.path}: genome.kind: missing; an evolution names its genome "
                         f"kind ({spec.game} has: {kinds})")
    options = dict(spec.genome.options)
    try:
        game = registry.get(spec.game)
        factory = use(game, "genomes").genome_kinds()[spec.genome.kind]
        checked, settled = spec.checked, spec.options
        fixed = {k: settled[k] for k in settled if settled[k] != checked[k]}  # the seed's
        return factory({**spec.game_options, **fixed, **options})
    except InputError as exc:
        raise InputError(f"{spec.path}: genome: {exc}") from None


def settings_from_spec(spec: StudySpec, *, generations: int | None = None,
                       population: int | None = None, seed: int | None = None
                       ) -> EvolveSettings:
    """The evolution settings of the spec's [deap] table with CLI overrides applied."""
    d = spec.deap
    where = f"{spec.path}: command line"
    for flag, value in (("--generations", generations), ("--population", population),
                        ("--seed", seed)):
        if value is not None and value < (0 if flag != "--population" else 2):
            low = ">= 2" if flag == "--population" else ">= 0"
            raise InputError(f"{where}: {flag} must be {low}, got {value}")
    spec_mu = d.population
    mu = population if population is not None else spec_mu
    # an overridden population keeps the spec's offspring-to-population ratio
    lam = max(1, round((d.offspring or spec_mu) * mu / spec_mu))
    genome = spec.genome
    try:
        return EvolveSettings(
            generations=generations if generations is not None else d.generations,
            population=mu, offspring=lam, algorithm=d.algorithm, cxpb=d.cxpb, mutpb=d.mutpb,
            tournsize=d.tournament, selection=d.selection, unique=d.unique,
            hall_of_fame=d.hall_of_fame, checkpoint_every=d.checkpoint_every,
            seed=seed if seed is not None else spec.evaluation.seed,
            pool_size=genome.hall_of_fame_opponents, pool_every=genome.pool_every,
            direction=spec.direction)
    except InputError as exc:
        raise InputError(f"{spec.path}: {exc}") from None


def spec_identity(spec: StudySpec, settings: EvolveSettings, game_options: Any = None
                  ) -> dict[str, Any]:
    """What a checkpoint must share with the run that resumes it (not the budget or jobs);
    ``best:`` opponents must be resolved (a stored mark never holds a reference's text).
    The options are the study's identity (:func:`tuning._identity.option_identity`): a
    default written out is the evolution it was; ``game_options`` replaces them (a
    checkpoint written before kept its spec's ``[game]`` table as spelled)."""
    spec.check_resolved()
    if game_options is None:
        game_options = option_identity(registry.get(spec.game), spec.checked)
    ev = dataclasses.asdict(spec.evaluation)
    for key in ("jobs", "backend", "address", "reevaluate_top", "reevaluate_games",
                "confirm_games"):
        ev.pop(key)
    ev["seed"] = settings.seed
    return {"game": spec.game, "objective": spec.objective, "direction": spec.direction,
            "game_options": game_options, "evaluation": ev, "genome": dict(spec.genome.table),
            "settings": settings.identity()}


def spec_fingerprint(spec: StudySpec, settings: EvolveSettings) -> str:
    """The short hash of :func:`spec_identity` that a checkpoint is checked against."""
    return fingerprint(spec_identity(spec, settings))


#: run settings a checkpoint remembers; ``--resume`` reuses them unless a flag overrides
RUN_SETTINGS = ("generations", "population", "seed")


def checkpoint_seed(path: Path) -> int | None:
    """The seed the run of the checkpoint at ``path`` was started with; None where there is
    no such file (the resume then says so) or it keeps no seed."""
    if not path.is_file():
        return None
    return stored_run_settings(load_checkpoint(path)).get("seed")


def stored_run_settings(payload: dict[str, Any]) -> dict[str, int]:
    """The generations, population and seed a checkpoint's run was started with."""
    settings = payload.get("settings")
    if not isinstance(settings, dict):
        return {}
    return {k: int(settings[k]) for k in RUN_SETTINGS if isinstance(settings.get(k), int)}


def run_flags(spec: StudySpec, settings: dict[str, Any]) -> list[str]:
    """The ``evolve`` flags that give a run's generations, population and seed where they
    differ from the spec file (``settings``: a checkpoint's, or a run's as a dict). The
    file's own seed is the one its ``[evaluation]`` table gives (a ``--seed`` the spec was
    loaded with is not the file's)."""
    base = settings_from_spec(spec)
    evaluation = spec.raw.get("evaluation") if isinstance(spec.raw, dict) else None
    file_seed = (evaluation or {}).get("seed", EvaluationSpec.seed)
    out: list[str] = []
    for flag, name in (("-g", "generations"), ("-P", "population"), ("--seed", "seed")):
        value = settings.get(name)
        spec_value = file_seed if name == "seed" else getattr(base, name)
        if value is not None and value != spec_value:
            out += [flag, str(value)]
    return out


def _shown(value: Any) -> str:
    return ", ".join(map(str, value)) if isinstance(value, tuple | list) else str(value)


def check_made_for(spec: StudySpec, payload: dict[str, Any]) -> None:
    """Refuse a checkpoint made under other game options than the spec's (its genes would
    read as another game's: a gene that meant one card of its kingdom names another card
    here); one InputError naming each option. A checkpoint that does not record them (made
    before they were kept) is taken as the spec's."""
    stored = (payload.get("identity") or {}).get("game_options")
    if not isinstance(stored, dict):
        return
    game = registry.get(spec.game)
    now = spec.checked
    try:
        then = game.check_options(stored)
    except InputError:
        then = None
    differ = [n for n in now if then is None or then[n] != now[n]]
    if differ:
        made = "; ".join(f"{n} = {_shown(then[n]) if then else stored.get(n)}" for n in differ)
        plays = "; ".join(f"{n} = {_shown(now[n])}" for n in differ)
        raise InputError(f"checkpoint of study {spec.name!r} was made for {made}, not "
                         f"{plays}: its genomes belong to that game")


def checkpoint_result(spec: StudySpec, payload: dict[str, Any]
                      ) -> tuple[StudySpec, EvolutionResult]:
    """A loaded checkpoint as an :class:`EvolutionResult` (hall of fame as genome texts),
    with the spec carrying the seed the run was started with (for its re-evaluation)."""
    if payload.get("study") != spec.name:
        raise InputError(f"checkpoint of study {payload.get('study')!r}, not {spec.name!r}")
    check_made_for(spec, payload)
    seed = stored_run_settings(payload).get("seed")
    if seed is not None and seed != spec.evaluation.seed:
        spec = spec.with_overrides(seed=seed)
    kind = genome_kind(spec)
    hof = [(kind.to_text(list(genes)), score) for genes, score in payload["hall_of_fame"]]
    return spec, EvolutionResult(generation=int(payload["generation"]), hall_of_fame=hof,
                                 logbook=payload["logbook"], population=[], seconds=0.0)


def default_checkpoint(spec: StudySpec) -> Path:
    """Where an evolution of ``spec`` checkpoints unless --checkpoint says otherwise:
    ``deap.checkpoint`` of the spec, else ``runs/<study>/evolution.ckpt``."""
    given = spec.deap.checkpoint  # a file path, checked when the spec was loaded
    return Path(given) if given is not None else RUNS_DIR / spec.name / "evolution.ckpt"


def make_evaluator(spec: StudySpec, pool: WorkerPool
                   ) -> Callable[[list[str], list[Any]], list[Score]]:
    """The evolution's evaluator: the spec's seed set, opponents plus the current pool."""
    ev = spec.evaluation
    scorers: dict[str, Scorer] = {}

    def evaluate(texts: list[str], opponents: list[Any]) -> list[Score]:
        key = repr(opponents)
        if key not in scorers:
            scorers.clear()
            scorers[key] = spec.scorer(opponents)
        bots = [candidate_bot({"genome": t}) for t in texts]
        evals = evaluate_many(scorers[key], bots, games=ev.games, block=ev.block,
                              seed=ev.seed, pool=pool)
        return [Score(e.mean, e.stderr, e.games, e.seconds) for e in evals]

    return evaluate


def build_evolution(spec: StudySpec, pool: WorkerPool, *, generations: int | None = None,
                    population: int | None = None, seed: int | None = None,
                    checkpoint: str | Path | None = None, resume: bool = False,
                    progress: Callable[[dict[str, Any]], None] | None = None) -> Evolution:
    """An :class:`Evolution` of the spec, ready to ``run(resume=...)``.

    With ``resume`` the checkpoint is read first and its run's generations, population and
    seed apply wherever no argument overrides them; a budget below the generation the
    checkpoint has reached is refused.
    """
    path = Path(checkpoint) if checkpoint else default_checkpoint(spec)
    if path.exists() and not path.is_file():
        raise InputError(f"checkpoint {path} is a directory or another non-file; give a file "
                         "path")
    loaded = None
    if resume:
        loaded = load_checkpoint(path)
        stored = stored_run_settings(loaded)
        generations = generations if generations is not None else stored.get("generations")
        population = population if population is not None else stored.get("population")
        seed = seed if seed is not None else stored.get("seed")
        reached = int(loaded.get("generation", 0))
        if generations is not None and generations < reached:
            raise InputError(f"checkpoint {path} is already at generation {reached}, past "
                             f"--generations {generations}: give -g {reached + 1} or more to "
                             "continue it")
    kind = genome_kind(spec)
    if seed is not None:
        spec = spec.with_overrides(seed=seed)
    settings = settings_from_spec(spec, generations=generations, population=population)
    identity = spec_identity(spec, settings)
    if loaded is not None and loaded.get("fingerprint") != fingerprint(identity):
        before = spec_identity(spec, settings, spec.game_options)  # a checkpoint of before
        if loaded.get("fingerprint") == fingerprint(before):
            identity = before
    evo = Evolution(kind, make_evaluator(spec, pool), settings,
                    opponents=list(spec.evaluation.opponents), checkpoint=path,
                    fingerprint=fingerprint(identity), spec_data=spec.raw,
                    identity=identity, study=spec.name, progress=progress)
    if loaded is not None:  # refuse another run's checkpoint before anything is printed
        check_matches(path, loaded, evo.fingerprint, spec.name, evo.identity)
    evo.loaded = loaded
    return evo


def reevaluate(spec: StudySpec, texts: list[str], pool: WorkerPool, *,
               opponents: list[Any] | None = None, games: int | None = None,
               purpose: str = "reevaluate", start: int = 0) -> list[Evaluation]:
    """Score genomes on a fresh seed set (root derived from the spec's seed and ``purpose``),
    games ``start..start+games-1`` of it."""
    ev = spec.evaluation
    n = int(games or ev.reevaluate_games)
    return evaluate_many(spec.scorer(opponents), [candidate_bot({"genome": t}) for t in texts],
                         games=n, block=min(n, max(ev.block, n // max(1, 4 * ev.jobs))),
                         seed=derived_seed(ev.seed, purpose), pool=pool, start=start)


@dataclasses.dataclass(frozen=True)
class BestOf:
    """An evolution's reported best: the hall-of-fame member that scored best when the top
    ones were re-evaluated on fresh seeds (``selection``), and its figure on further fresh
    seeds that no selection played (``confirmed``: the result; the selection value leans
    high, being the largest of several noisy figures)."""

    text: str
    selection: Evaluation
    confirmed: Evaluation

    @property
    def start(self) -> int:
        """First game of the confirmation in the re-evaluation's seed set (its root)."""
        return self.selection.games


def best_of(spec: StudySpec, result: EvolutionResult, pool: WorkerPool) -> BestOf:
    """Re-evaluate the top hall-of-fame members on fresh seeds (games ``0..R-1`` of the root
    derived for re-evaluation), pick the best by that value, and confirm it on the games
    that follow (``R..R+C-1`` of the same root, C = ``evaluation.confirm_games``): a game's
    seed depends only on (root, index), so none of these was played by the selection, nor
    by the evolution (its own root). An exact value needs no confirmation."""
    top = [text for text, _ in result.hall_of_fame[:max(1, spec.evaluation.reevaluate_top)]]
    evals = reevaluate(spec, top, pool)
    sign = 1.0 if spec.direction == "maximize" else -1.0
    i = max(range(len(top)), key=lambda k: (sign * evals[k].mean, -k))
    selection = evals[i]
    if selection.exact:
        return BestOf(top[i], selection, selection)
    confirmed = reevaluate(spec, [top[i]], pool, games=spec.evaluation.confirmations,
                           start=selection.games)[0]
    return BestOf(top[i], selection, confirmed)
