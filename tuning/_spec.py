"""Study specs: load a ``studies/<name>.toml`` file into a validated :class:`StudySpec`.

A spec is data, diffable and runnable by name. A command loads it once, with its command
line's :class:`Flags`, into the one resolved study it passes down (typed tables, game options
checked and settled, opponents parsed; :class:`StudySpec`). Every mistake stops with one
InputError that names the file, the key and what is allowed, so the CLI shows a single line,
never a traceback. Game-specific checks (strategy names, parameter ranges, options,
opponents, genome kinds) go through the game's registry description (:mod:`games.registry`).

Longer than 400 lines on purpose: the spec's dataclasses and the parsers of their tables
(``[study]``, ``[evaluation]``, ``[optuna]``, ``[deap]``, ``[genome]``, the search space) sit
side by side, so that a key's default and its check are read together. What is not specific
to one key is apart: value checks in :mod:`tuning._spec_checks`, finding and listing spec
files in :mod:`tuning._spec_files`, ``best:`` references in :mod:`tuning._refs`, the game
options in :mod:`tuning._resolve` and the study's identity in :mod:`tuning._identity`, and the
``[train]`` table in :mod:`tuning.train._config`.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from games import registry
from games.capabilities import offers, use
from games.core import InputError
from games.options import check_exclusive
from tuning._refs import is_best, refs_in, split_ref, texts_of
from tuning._resolve import resolve_options
from tuning._spec_checks import (
    check_bool,
    check_choice,
    check_int,
    check_jobs,
    check_known_keys,
    check_number,
    check_positive_int,
    check_seed_at,
    check_str,
    check_table,
    fail,
)
from tuning._spec_files import (  # noqa: F401 - re-exported: the spec's public paths
    STUDIES_DIR,
    list_specs,
    resolve_path,
)
from tuning.evaluation import BACKENDS, LineUp, Scorer, line_ups

OPTIMIZERS = ("optuna", "deap", "train", "balance")
DIRECTIONS = ("maximize", "minimize")
SAMPLERS = ("tpe", "cmaes", "random", "qmc", "gp", "nsgaii", "ntbea")
PRUNERS = ("wilcoxon", "median", "none")
ALGORITHMS = ("mu_plus_lambda", "mu_comma_lambda", "simple")
PARAM_TYPES = ("float", "int", "categorical")

_TOP = ("study", "game", "evaluation", "optuna", "deap", "genome", "space", "train",
        "balance")
_STUDY_KEYS = ("name", "description", "game", "optimizer", "strategy", "objective", "direction")
_EVAL_KEYS = ("games", "block", "seed", "opponents", "baseline", "reevaluate_top",
              "reevaluate_games", "confirm_games", "jobs", "backend", "address")
_OPTUNA_KEYS = ("trials", "sampler", "pruner", "storage", "timeout", "n_startup_trials",
                "p_threshold", "start_from_defaults", "enqueue", "ntbea", "batch")
_NTBEA_KEYS = ("tuples", "exploration", "neighbours", "mutation")
_DEAP_KEYS = ("generations", "population", "offspring", "algorithm", "cxpb", "mutpb",
              "hall_of_fame", "checkpoint_every", "tournament", "checkpoint", "selection",
              "unique")
_PARAM_KEYS = ("type", "low", "high", "log", "step", "choices", "grid")


@dataclass(frozen=True)
class ParamSpec:
    """One dimension of the search space."""

    name: str
    type: str
    low: float | None = None
    high: float | None = None
    log: bool = False
    step: float | None = None
    choices: tuple[Any, ...] | None = None
    #: values of a float on the grid sampler ``ntbea`` searches (evenly spaced, geometrically
    #: on a log scale); other samplers ignore it
    grid: int | None = None

    def grid_values(self) -> list[Any] | None:
        """The values NTBEA plays for this parameter: its ``grid`` count of values (ends
        included), None where the step or the choices define them."""
        if self.grid is None:
            return None
        low, high, n = float(self.low), float(self.high), self.grid
        if self.log:
            ratio = (high / low) ** (1.0 / (n - 1))
            return [min(high, low * ratio ** i) for i in range(n)]
        return [min(high, low + (high - low) * i / (n - 1)) for i in range(n)]

    def distribution(self) -> Any:
        """The matching Optuna distribution (imported lazily: DEAP specs need no Optuna)."""
        from optuna.distributions import (
            CategoricalDistribution,
            FloatDistribution,
            IntDistribution,
        )
        if self.type == "categorical":
            return CategoricalDistribution(list(self.choices or ()))
        if self.type == "int":
            return IntDistribution(int(self.low), int(self.high), log=self.log,
                                   step=int(self.step or 1))
        return FloatDistribution(float(self.low), float(self.high), log=self.log, step=self.step)


@dataclass(frozen=True)
class EvaluationSpec:
    """How a candidate is scored: games, seed blocks, seeds, opponents, parallelism."""

    games: int = 1000
    block: int = 100
    seed: int = 1
    opponents: tuple[Any, ...] = ()  # a pool: bot names, or lists of names (tables)
    baseline: str | None = None
    reevaluate_top: int = 3
    reevaluate_games: int = 10000
    # games of the confirmation of the selected best on further fresh seeds (None: as many
    # as the re-evaluation)
    confirm_games: int | None = None
    jobs: int = 1  # -1 in a spec (every core) is resolved to the core count on loading
    backend: str = "loky"
    address: str | None = None

    @property
    def confirmations(self) -> int:
        """Games of the confirmation: ``confirm_games``, else ``reevaluate_games``."""
        return self.confirm_games or self.reevaluate_games


@dataclass(frozen=True)
class NtbeaSettings:
    """The ``[optuna.ntbea]`` table (sampler ``ntbea``, :mod:`tuning.study._ntbea`): each
    setting declared once, with its default."""

    #: tuple sizes of the model: 1 (each parameter alone), 2 (every pair), ... and "all"
    #: (the published algorithm's 1-, 2- and N-tuples)
    tuples: tuple[int | str, ...] = (1, 2, "all")
    #: weight of the exploration term (results are scaled to [0, 1] by the range seen)
    exploration: float = 1.0
    #: neighbours of the current point the model scores before each trial
    neighbours: int = 50
    #: chance that each parameter changes in a neighbour (one always does; 0: 1 / parameters)
    mutation: float = 0.0


@dataclass(frozen=True)
class OptunaSpec:
    """Budget and algorithms of an Optuna study."""

    trials: int = 100
    sampler: str = "tpe"
    pruner: str = "wilcoxon"
    storage: str | None = None
    timeout: float | None = None
    n_startup_trials: int = 10
    p_threshold: float = 0.1
    start_from_defaults: bool = True
    # parameter sets tried first (after the defaults), e.g. the winner of a related study
    enqueue: tuple[dict[str, Any], ...] = ()
    ntbea: NtbeaSettings = NtbeaSettings()
    #: batch mode (:mod:`tuning.study._batches`): trials drawn this many at a time from the
    #: batches before, so any number of workers and processes makes the same study (0: off)
    batch: int = 0


@dataclass(frozen=True)
class DeapSpec:
    """Operators and budget of an evolution (the ``[deap]`` table), defaults declared here
    once; the command line's ``-g``/``-P``/``--seed`` apply on top
    (:func:`tuning.evolution._runner.settings_from_spec`)."""

    generations: int = 40
    population: int = 48
    offspring: int | None = None  # None: as many as the population
    algorithm: str = "mu_plus_lambda"
    cxpb: float = 0.5
    mutpb: float = 0.4
    hall_of_fame: int = 5
    checkpoint_every: int = 1
    tournament: int = 3
    selection: str = "tournament"
    unique: bool = True
    checkpoint: str | None = None  # None: runs/<study>/evolution.ckpt


@dataclass(frozen=True)
class GenomeSpec:
    """The ``[genome]`` table of an evolution: its kind, the keys the evolution reads itself
    with their defaults declared here once, and the kind's own keys (``options``: checked
    by the game's genome kind, :mod:`games.capabilities`). ``table`` is the table as
    given, which a checkpoint's identity keeps."""

    kind: str | None = None
    hall_of_fame_opponents: int = 0  # hall-of-fame members that join the opponents
    pool_every: int = 5  # generations between refreshes of that pool
    options: Mapping[str, Any] = field(default_factory=dict)
    table: Mapping[str, Any] = field(default_factory=dict, repr=False)


#: [genome] keys the evolution reads itself (the rest goes to the genome kind)
POOL_KEYS = ("hall_of_fame_opponents", "pool_every")


@dataclass(frozen=True)
class Flags:
    """What a command line adds to a spec file: ``--option`` items (by name, as given) and
    the run settings that replace the spec's. The command checks each number once by its
    rule (:mod:`tuning._limits`, :func:`games.core.check_seed`) before it loads the spec;
    the loading checks the rest (``--backend``, the options) and never re-checks them."""

    options: Mapping[str, Any] = field(default_factory=dict)
    trials: int | None = None
    jobs: int | None = None
    seed: int | None = None
    backend: str | None = None
    address: str | None = None
    storage: str | None = None
    #: where no ``seed`` is given, the run's seed read from what the study's name and tables
    #: locate (a resumed evolution's checkpoint), asked once the study has its name and
    #: before its options are settled, so they are settled once, with that seed
    seed_of: Callable[[StudySpec], int | None] | None = None


@dataclass(frozen=True)
class StudySpec:
    """A study resolved once: the spec's tables checked and typed, with the command line's
    flags applied, its game options checked (``checked``: the game's typed options) and
    settled with the root seed (``options``: what every game of the study plays), and its
    opponents parsed (:attr:`pool`). Commands build one and pass it down; nothing below
    re-parses or re-checks it. ``raw`` keeps the TOML tables as read."""

    path: Path
    name: str
    description: str
    game: str
    optimizer: str
    strategy: str | None
    objective: str
    direction: str
    game_options: dict[str, Any]
    evaluation: EvaluationSpec
    optuna: OptunaSpec
    deap: DeapSpec
    genome: GenomeSpec
    space: dict[str, ParamSpec]
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    train: Any = None  # tuning.train.TrainSpec for optimizer "train" (a learned player)
    #: tuning.balance._spec.BalanceSpec for optimizer "balance" (the game's rules tuned)
    balance: Any = None
    #: the game options as the game checked them (its typed options, defaults filled in)
    checked: Any = field(default=None, repr=False, compare=False)
    #: ``checked`` settled with ``evaluation.seed`` (the ``settle`` capability: a kingdom drawn
    #: at random is drawn with it): what every game of the study plays
    options: Any = field(default=None, repr=False, compare=False)
    #: the spec file's own ``[game]`` table, for a study of other options (``STUDY.HASH``)
    own_options: Any = field(default=None, repr=False, compare=False)

    @cached_property
    def pool(self) -> tuple[LineUp, ...]:
        """The opponents parsed once (the game's default opponents where the spec names
        none), each line-up checked against the options. A ``best:`` opponent must be
        resolved first (:func:`tuning._best.resolve_opponents`, when a run starts)."""
        self.check_resolved()
        game = registry.get(self.game)
        return line_ups(game, self.evaluation.opponents
                        or use(game, "opponents").default_opponents, self.options)

    def scorer(self, opponents: Any = None) -> Scorer:
        """How a worker scores a candidate of this study (its settled options, objective,
        opponent pool; ``opponents`` replaces the spec's pool, parsed here)."""
        if opponents is None:
            pool = self.pool
        else:
            self.check_resolved(opponents)
            game = registry.get(self.game)
            pool = line_ups(game, list(opponents) or use(game, "opponents").default_opponents,
                            self.options)
        return Scorer(self.game, self.options, self.objective, pool)

    def checked_options(self) -> Any:
        """The game options a scorer plays: :attr:`options` (checked, and settled with the
        study's seed); no opponent is looked at, so a ``best:`` opponent needs no
        resolving for this."""
        return self.options

    def check_resolved(self, opponents: Any = None) -> None:
        """Refuse a ``best:`` opponent that no run has resolved yet (the loader leaves them
        as text; :func:`tuning._best.resolve_opponents` resolves them when a run starts)."""
        pool = self.evaluation.opponents if opponents is None else opponents
        unresolved = refs_in(pool)
        if unresolved:
            raise InputError(f"{self.path}: evaluation.opponents: {unresolved[0]} is not "
                             "resolved yet (tuning._best.resolve_opponents resolves it when "
                             "a run starts)")

    def replace(self, **changes: Any) -> StudySpec:
        """A copy with top-level fields replaced (used for CLI overrides)."""
        return dataclasses.replace(self, **changes)

    @property
    def spec_name(self) -> str:
        """The study name the spec file gives (``name`` is ``STUDY.HASH`` under other game
        options, :mod:`tuning._resolve`)."""
        study = self.raw.get("study") if isinstance(self.raw, dict) else None
        name = study.get("name") if isinstance(study, dict) else None
        return name.strip() if isinstance(name, str) else Path(self.path).stem

    def with_overrides(self, *, trials: int | None = None, jobs: int | None = None,
                       seed: int | None = None, backend: str | None = None,
                       address: str | None = None, storage: str | None = None) -> StudySpec:
        """Run settings on top of the spec's: values as a command checked them (or a stored
        run kept them); ``backend`` is checked here. Another seed settles the checked
        options again (a kingdom drawn at random is drawn with the new seed)."""
        ev, op = self.evaluation, self.optuna
        if jobs is not None:
            ev = dataclasses.replace(ev, jobs=jobs)
        if seed is not None:
            ev = dataclasses.replace(ev, seed=seed)
        if backend is not None:
            ev = dataclasses.replace(ev, backend=check_choice(
                f"{self.path}: command line", "--backend", backend, BACKENDS))
        if address is not None:
            ev = dataclasses.replace(ev, address=address)
        if trials is not None:
            op = dataclasses.replace(op, trials=trials)
        if storage is not None:
            op = dataclasses.replace(op, storage=storage)
        changes: dict[str, Any] = {}
        if self.checked is not None and ev.seed != self.evaluation.seed:
            game = registry.get(self.game)
            changes["options"] = use(game, "settle").settle_options(self.checked, ev.seed)[0]
        return dataclasses.replace(self, evaluation=ev, optuna=op, **changes)


# --------------------------------------------------------------------------- sections


def _parse_evaluation(where: str, table: dict[str, Any]) -> EvaluationSpec:
    check_known_keys(where, "evaluation", table, _EVAL_KEYS)
    d = EvaluationSpec()
    k = "evaluation."
    games = check_positive_int(where, k + "games", table.get("games", d.games))
    block = check_positive_int(where, k + "block", table.get("block", min(d.block, games)))
    if block > games:
        raise fail(where, k + "block", f"{block} exceeds evaluation.games = {games}")
    opponents = table.get("opponents", [])
    if isinstance(opponents, str):
        opponents = [opponents]
    if not isinstance(opponents, list):
        raise fail(where, k + "opponents", f"expected a list of names, got {opponents!r}")
    opponents = [tuple(check_str(where, k + "opponents", x) for x in o) if isinstance(o, list)
                 else check_str(where, k + "opponents", o) for o in opponents]
    baseline = table.get("baseline")
    address = table.get("address")
    return EvaluationSpec(
        games=games,
        block=block,
        seed=check_seed_at(where, k + "seed", table.get("seed", d.seed)),
        opponents=tuple(opponents),
        baseline=None if baseline is None else check_str(where, k + "baseline", baseline),
        reevaluate_top=check_int(where, k + "reevaluate_top",
                            table.get("reevaluate_top", d.reevaluate_top), low=0),
        reevaluate_games=check_positive_int(where, k + "reevaluate_games",
                                       table.get("reevaluate_games", d.reevaluate_games)),
        confirm_games=None if table.get("confirm_games") is None else check_positive_int(
            where, k + "confirm_games", table["confirm_games"]),
        jobs=check_jobs(where, k + "jobs", table["jobs"]) if "jobs" in table else d.jobs,
        backend=check_choice(where, k + "backend", table.get("backend", d.backend), BACKENDS),
        address=None if address is None else check_str(where, k + "address", address),
    )


def check_ref(text: str) -> None:
    """Check a ``best:STUDY[@STORAGE]`` reference as text only: its form, and that STUDY is
    a known study name or a spec file. What it plays as is decided when a run starts
    (:func:`tuning._best.resolve_opponents`), never while a spec is loaded or listed."""
    study, _ = split_ref(text)
    try:
        resolve_path(study)
    except InputError as exc:
        raise InputError(f"{text.strip()}: {exc}") from None


def check_bot(game: registry.Game, text: str) -> None:
    """A bot text of ``game`` as a spec may give it: a bot name, or a ``best:`` reference
    checked by :func:`check_ref`."""
    if is_best(text):
        check_ref(text)
    else:
        game.parse_bot(text)


def _check_opponents(game: registry.Game, spec: StudySpec) -> None:
    """The spec's opponents checked against its settled options (parsed once: :attr:`pool`).
    A line-up holding a ``best:`` reference is checked as text and by its size only: the
    reference is resolved when a run starts. Mistakes name the key, not the file (the
    caller adds it)."""
    opponents = spec.evaluation.opponents
    with_refs = [entry for entry in opponents if refs_in([entry])]
    if not with_refs:
        spec.pool  # noqa: B018 - parsed and checked here, kept for the run
        return
    options = spec.options
    plain = [entry for entry in opponents if not refs_in([entry])]
    if plain:
        line_ups(game, plain, options)
    for entry in with_refs:
        texts = texts_of(entry)
        try:
            for text in texts:
                check_bot(game, text)
            if game.seats(1 + len(texts), options) != 1 + len(texts):
                raise InputError(f"a {spec.game} game with these options seats one player; "
                                 "it takes no opponents")
        except InputError as exc:
            raise InputError(f"evaluation.opponents: {exc}") from None


def _parse_optuna(where: str, table: dict[str, Any]) -> OptunaSpec:
    check_known_keys(where, "optuna", table, _OPTUNA_KEYS)
    d = OptunaSpec()
    k = "optuna."
    storage = table.get("storage")
    timeout = table.get("timeout")
    p = check_number(where, k + "p_threshold", table.get("p_threshold", d.p_threshold))
    if not 0.0 < p < 1.0:
        raise fail(where, k + "p_threshold", f"must lie strictly between 0 and 1, got {p}")
    batch = check_int(where, k + "batch", table.get("batch", d.batch), low=0)
    pruner = table.get("pruner", "none" if batch else d.pruner)
    if batch and pruner != "none":
        raise fail(where, k + "batch", f"batch mode plays every trial whole: give pruner = "
                   f"\"none\" (or leave it out), not {pruner!r}; a pruner decides by the "
                   "trials finished so far, which depend on the worker count")
    return OptunaSpec(
        trials=check_positive_int(where, k + "trials", table.get("trials", d.trials)),
        sampler=check_choice(where, k + "sampler", table.get("sampler", d.sampler), SAMPLERS),
        pruner=check_choice(where, k + "pruner", pruner, PRUNERS),
        storage=None if storage is None else check_str(where, k + "storage", storage),
        timeout=None if timeout is None else check_number(where, k + "timeout", timeout),
        n_startup_trials=check_int(where, k + "n_startup_trials",
                              table.get("n_startup_trials", d.n_startup_trials), low=0),
        p_threshold=p,
        start_from_defaults=check_bool(where, k + "start_from_defaults",
                                  table.get("start_from_defaults", d.start_from_defaults)),
        enqueue=_enqueued(where, table.get("enqueue", [])),
        ntbea=_parse_ntbea(where, table),
        batch=batch,
    )


def _parse_ntbea(where: str, optuna_table: dict[str, Any]) -> NtbeaSettings:
    """The ``[optuna.ntbea]`` table, checked; only with ``sampler = "ntbea"``."""
    d, k = NtbeaSettings(), "optuna.ntbea."
    if "ntbea" not in optuna_table:
        return d
    table = check_table(where, "optuna.ntbea", optuna_table["ntbea"])
    if optuna_table.get("sampler") != "ntbea":
        raise fail(where, "optuna.ntbea", "settings of sampler 'ntbea', but optuna.sampler is "
                   f"{optuna_table.get('sampler', OptunaSpec.sampler)!r}")
    check_known_keys(where, "optuna.ntbea", table, _NTBEA_KEYS)
    tuples = table.get("tuples", list(d.tuples))
    if not isinstance(tuples, list) or not tuples or not all(
            t == "all" or (isinstance(t, int) and not isinstance(t, bool) and t >= 1)
            for t in tuples):
        raise fail(where, k + "tuples", "expected a list of tuple sizes (integers >= 1, or "
                   f'"all"), such as [1, 2, "all"]; got {tuples!r}')
    exploration = check_number(where, k + "exploration", table.get("exploration",
                                                                  d.exploration))
    if exploration < 0:
        raise fail(where, k + "exploration", f"must be >= 0, got {exploration}")
    mutation = check_number(where, k + "mutation", table.get("mutation", d.mutation))
    if not 0.0 <= mutation <= 1.0:
        raise fail(where, k + "mutation", f"must lie in [0, 1], got {mutation}")
    return NtbeaSettings(
        tuples=tuple(tuples), exploration=exploration,
        neighbours=check_positive_int(where, k + "neighbours",
                                      table.get("neighbours", d.neighbours)),
        mutation=mutation)


#: the most values one parameter of an NTBEA grid may have
NTBEA_MAX_VALUES = 100_000


def _check_grid(where: str, space: dict[str, ParamSpec]) -> None:
    """Sampler ``ntbea`` searches a grid: every float parameter states its step, and no
    parameter has more than :data:`NTBEA_MAX_VALUES` values."""
    for name, p in space.items():
        if p.type == "categorical":
            continue
        if p.type == "float" and p.step is None and p.grid is None:
            raise fail(where, f"space.{name}", "sampler 'ntbea' searches a grid; give the "
                       "float parameter a step, or grid = the number of values")
        count = p.grid or int(round((float(p.high) - float(p.low)) / float(p.step or 1))) + 1
        if count > NTBEA_MAX_VALUES:
            raise fail(where, f"space.{name}", f"{count:,} values are too many for sampler "
                       f"'ntbea' (at most {NTBEA_MAX_VALUES:,}); give a larger step")


def _rule_param(where: str, name: str, table: Any, rules: dict[str, Any], game: str
                ) -> ParamSpec:
    """A dimension of a balance study: a rule of the game (an option marked ``rule``), its
    range inside the option's own."""
    if name not in rules:
        raise fail(where, f"space.{name}", f"not a rule of {game} a balance study may tune; "
                   f"rules: {', '.join(rules) or 'none'}")
    opt = rules[name]
    declared = _Declared(opt.low, opt.high, opt.choices, opt.kind is int)
    return _parse_param(where, name, table, declared)


@dataclass(frozen=True)
class _Declared:
    """An option's range as :func:`_parse_param` checks a parameter's against it."""

    low: Any
    high: Any
    choices: Any
    integer: bool


def _enqueued(where: str, value: Any) -> tuple[dict[str, Any], ...]:
    """The [[optuna.enqueue]] tables as plain dicts (checked against the space later)."""
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise fail(where, "optuna.enqueue", "expected [[optuna.enqueue]] tables of "
                    "parameter = value")
    return tuple(dict(t) for t in value)


def _check_enqueued(where: str, sets: tuple[dict[str, Any], ...],
                    space: dict[str, ParamSpec]) -> None:
    """Every enqueued value names a dimension of the space and lies inside it."""
    for i, params in enumerate(sets):
        for pname, value in params.items():
            key = f"optuna.enqueue[{i}].{pname}"
            p = space.get(pname)
            if p is None:
                raise fail(where, key, f"not in the search space; allowed: "
                            f"{', '.join(sorted(space))}")
            if p.type == "categorical":
                if value not in (p.choices or ()):
                    raise fail(where, key, f"{value!r} is not one of {list(p.choices or ())}")
                continue
            value = (check_int if p.type == "int" else check_number)(where, key, value)
            if not p.low <= value <= p.high:
                raise fail(where, key, f"{value} lies outside [{p.low}, {p.high}]")


def _parse_deap(where: str, table: dict[str, Any]) -> DeapSpec:
    check_known_keys(where, "deap", table, _DEAP_KEYS)
    out: dict[str, Any] = {}
    for key in ("generations", "population", "offspring", "hall_of_fame", "checkpoint_every",
                "tournament"):
        if key in table:
            out[key] = check_positive_int(where, f"deap.{key}", table[key])
    for key in ("cxpb", "mutpb"):
        if key in table:
            value = check_number(where, f"deap.{key}", table[key])
            if not 0.0 <= value <= 1.0:
                raise fail(where, f"deap.{key}", f"must lie in [0, 1], got {value}")
            out[key] = value
    if "algorithm" in table:
        out["algorithm"] = check_choice(where, "deap.algorithm", table["algorithm"], ALGORITHMS)
    if out.get("cxpb", 0.0) + out.get("mutpb", 0.0) > 1.0:
        raise fail(where, "deap.cxpb", "cxpb + mutpb must not exceed 1")
    if "selection" in table:
        out["selection"] = str(table["selection"])
    if "unique" in table:
        out["unique"] = bool(table["unique"])
    given = table.get("checkpoint")
    if given is not None:
        if not isinstance(given, str) or not given.strip():
            raise fail(where, "deap.checkpoint", f"expected a file path, got {given!r}")
        out["checkpoint"] = given
    return DeapSpec(**out)


def _parse_genome(where: str, table: dict[str, Any]) -> GenomeSpec:
    d = GenomeSpec()
    if "kind" in table:
        table["kind"] = check_str(where, "genome.kind", table["kind"])
    return GenomeSpec(
        kind=table.get("kind"),
        hall_of_fame_opponents=check_int(where, "genome.hall_of_fame_opponents", table.get(
            "hall_of_fame_opponents", d.hall_of_fame_opponents), low=0),
        pool_every=check_positive_int(where, "genome.pool_every",
                                      table.get("pool_every", d.pool_every)),
        options={k: v for k, v in table.items() if k != "kind" and k not in POOL_KEYS},
        table=table)


def _parse_param(where: str, name: str, table: Any, declared: Any) -> ParamSpec:
    key = f"space.{name}"
    table = check_table(where, key, table)
    check_known_keys(where, key, table, _PARAM_KEYS)
    kind = check_choice(where, key + ".type", table.get("type", "float"), PARAM_TYPES)
    if kind == "categorical":
        choices = table.get("choices")
        if not isinstance(choices, list) or not choices:
            raise fail(where, key + ".choices", "a categorical parameter needs a non-empty "
                        "list of choices")
        if declared is not None and declared.choices is not None:
            bad = [c for c in choices if c not in declared.choices]
            if bad:
                raise fail(where, key + ".choices",
                            f"{bad} not allowed; allowed: {list(declared.choices)}")
        return ParamSpec(name, kind, choices=tuple(choices))
    for bound in ("low", "high"):
        if bound not in table:
            raise fail(where, f"{key}.{bound}", f"a {kind} parameter needs low and high")
    if kind == "int":
        low, high = (check_int(where, f"{key}.{b}", table[b]) for b in ("low", "high"))
    else:
        low, high = (check_number(where, f"{key}.{b}", table[b]) for b in ("low", "high"))
    if not low < high:
        raise fail(where, key, f"bad range: low ({low}) must be below high ({high})")
    log = check_bool(where, key + ".log", table.get("log", False))
    if log and low <= 0:
        raise fail(where, key, f"bad range: a log scale needs low > 0, got {low}")
    step = table.get("step")
    if step is not None:
        step = (check_positive_int if kind == "int" else check_number)(where, key + ".step", step)
        if step <= 0 or log:
            raise fail(where, key + ".step", "step must be positive and not used with log")
    grid = table.get("grid")
    if grid is not None:
        grid = check_int(where, key + ".grid", grid, low=2)
        if kind != "float" or step is not None:
            raise fail(where, key + ".grid", "a grid is for a float parameter without a step "
                       "(an int's values, or a step, are its grid already)")
    if declared is not None and declared.choices is None:
        if low < declared.low or high > declared.high:
            raise fail(where, key, f"bad range: [{low}, {high}] leaves the parameter's "
                        f"valid range [{declared.low}, {declared.high}]")
        if declared.integer and kind != "int":
            raise fail(where, key + ".type", "this parameter is an integer: use type = \"int\"")
    return ParamSpec(name, kind, low, high, log, step, grid=grid)


# --------------------------------------------------------------------------- loading


def load_spec(study: str | Path, flags: Flags | None = None) -> StudySpec:
    """Load and validate a spec by name or path, with a command line's ``flags`` applied
    (the study a command runs, resolved once)."""
    path = resolve_path(study)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start}: "
                         f"0x{exc.object[exc.start]:02x})") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read it: {exc.strerror or exc}") from None
    return parse_spec(raw, path, flags)


def parse_spec(raw: dict[str, Any], path: Path, flags: Flags | None = None) -> StudySpec:
    """Validate the TOML tables of a spec (``path`` is only used in messages) and resolve
    the study they make with a command line's ``flags`` (see :class:`StudySpec`)."""
    where = str(path)
    check_known_keys(where, "(top level)", raw, _TOP)
    study = check_table(where, "study", raw.get("study", {}))
    check_known_keys(where, "study", study, _STUDY_KEYS)
    name = check_str(where, "study.name", study.get("name", path.stem))
    if "game" not in study:
        raise fail(where, "study.game", "missing; known games: " + ", ".join(registry.names()))
    game = check_str(where, "study.game", study["game"])
    try:
        described = registry.get(game)
    except InputError as exc:
        raise fail(where, "study.game", str(exc)) from None
    known_strategies = {n: b.params_type for n, b in described.bots().items()}
    scored = use(described, "objectives")
    known_objectives = scored.objectives
    optimizer = check_choice(where, "study.optimizer", study.get("optimizer", "optuna"), OPTIMIZERS)
    strategy = study.get("strategy")
    params_type = None
    if strategy is not None or optimizer == "optuna":
        strategy = check_str(where, "study.strategy", strategy)
        if known_strategies and strategy not in known_strategies:
            raise fail(where, "study.strategy", f"unknown strategy {strategy!r} for game "
                        f"{game}; allowed: {', '.join(sorted(known_strategies))}")
        params_type = known_strategies.get(strategy)
    if optimizer == "balance":  # the rules are tuned towards the [balance] target
        known_objectives = ("balance",)
    objective = check_str(where, "study.objective", study.get("objective", known_objectives[0]))
    if objective not in known_objectives:
        raise fail(where, "study.objective", f"{objective!r} is not scored for {game}; "
                    f"allowed: {', '.join(known_objectives)}")
    direction = check_choice(where, "study.direction",
                             study.get("direction", "minimize" if optimizer == "balance"
                                       else scored.direction(objective)), DIRECTIONS)
    game_options = dict(check_table(where, "game", raw.get("game", {})))
    try:
        check_exclusive(described.options, game_options)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    evaluation = _parse_evaluation(where, check_table(where, "evaluation",
                                                      raw.get("evaluation", {})))
    optuna_spec = _parse_optuna(where, check_table(where, "optuna", raw.get("optuna", {})))
    deap = _parse_deap(where, check_table(where, "deap", raw.get("deap", {})))
    genome_table = dict(check_table(where, "genome", raw.get("genome", {})))
    space_table = check_table(where, "space", raw.get("space", {}))
    declared: dict[str, Any] = {}
    if params_type is not None:
        from games.core import param_ranges
        declared = param_ranges(params_type)
    rules = {o.name: o for o in described.options if o.rule}
    space: dict[str, ParamSpec] = {}
    for pname, ptable in space_table.items():
        if optimizer == "balance":
            space[pname] = _rule_param(where, pname, ptable, rules, game)
            continue
        if params_type is not None and pname not in declared:
            raise fail(where, f"space.{pname}", f"unknown parameter of strategy {strategy}; "
                        f"allowed: {', '.join(sorted(declared))}")
        space[pname] = _parse_param(where, pname, ptable, declared.get(pname))
    if optimizer in ("optuna", "balance") and not space:
        raise fail(where, "space", "an Optuna study needs at least one [space.<param>] table")
    _check_enqueued(where, optuna_spec.enqueue, space)
    if optimizer in ("optuna", "balance") and optuna_spec.sampler == "ntbea":
        _check_grid(where, space)
    genome = _parse_genome(where, genome_table)
    if optimizer == "deap" and genome.kind is not None:
        kinds = use(described, "genomes").genome_kinds()
        if genome.kind not in kinds:
            raise fail(where, "genome.kind", f"unknown genome kind {genome.kind!r} for "
                        f"{game}; allowed: {', '.join(sorted(kinds)) or 'none'}")
    train = None
    if "train" in raw or optimizer == "train":
        trains = offers(described, "trainer")
        if optimizer != "train" or not trains:
            raise fail(where, "train", "a [train] table needs optimizer 'train' and a game "
                        "with a trainer" + ("" if trains else f" ({game} has none)"))
        from tuning.train import parse_train
        train = parse_train(where, raw.get("train", {}), game,
                            lambda t: check_bot(described, t))
    balance = None
    if "balance" in raw or optimizer == "balance":
        if optimizer != "balance":
            raise fail(where, "balance", "a [balance] table needs optimizer 'balance'")
        from tuning.balance import parse_balance
        balance = parse_balance(where, raw.get("balance"), lambda t: check_bot(described, t),
                                solo=described.player_counts == (1,))
    spec = StudySpec(path=path, name=name, description=str(study.get("description", "")),
                     game=game, optimizer=optimizer, strategy=strategy, objective=objective,
                     direction=direction, game_options=game_options, evaluation=evaluation,
                     optuna=optuna_spec, deap=deap, genome=genome, space=space, raw=raw,
                     train=train, balance=balance)
    flags = flags or Flags()
    spec = spec.with_overrides(trials=flags.trials, jobs=flags.jobs, seed=flags.seed,
                               backend=flags.backend, address=flags.address,
                               storage=flags.storage)
    return resolved(described, spec, flags.options,
                    seed_of=flags.seed_of if flags.seed is None else None)


def resolved(game: registry.Game, spec: StudySpec,
             overrides: Mapping[str, Any] | None = None,
             seed_of: Callable[[StudySpec], int | None] | None = None) -> StudySpec:
    """``spec`` with its game options resolved (:func:`tuning._resolve.resolve_options`,
    ``overrides``: ``--option`` items by name; ``seed_of``: :attr:`Flags.seed_of`) and its
    opponents and objective checked against them."""
    spec = resolve_options(game, spec, overrides, seed_of)
    if spec.optimizer == "balance":  # its bots are checked by [balance]; no objective hook
        return spec
    try:
        _check_opponents(game, spec)
        use(game, "objectives").check_study(spec.options, spec.objective)
    except InputError as exc:
        raise InputError(f"{spec.path}: {exc}") from None
    return spec
