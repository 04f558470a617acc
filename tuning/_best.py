"""``best:STUDY[@STORAGE]``: the result of a study or an evolution as a bot to play.

- An Optuna study: its reported best, i.e. the best trial after re-evaluation on fresh seeds
  (the search's best trial, flagged, where no re-evaluation is stored yet), read from the
  study's storage (``runs/STUDY.journal`` by default, or the one after ``@``: a journal
  file or a database URL), as the run left it (its ``--seed``, see
  :func:`tuning.study._runner.load_study`). Without ``@`` and without that journal (a fresh
  clone), the published report's summary ``reports/STUDY/run.json`` gives it instead.
  Its figure is the confirmation on further seeds that no selection played, with the
  selection (re-evaluated) value beside it; a study or summary from before confirmations
  shows its re-evaluated value, labelled as the selection value.
- A DEAP evolution: the best of its checkpoint (``runs/STUDY/evolution.ckpt`` by default,
  or the file after ``@``) as ``tabletune evolve`` and ``tabletune report`` name it: the
  top of the hall of fame re-evaluated on fresh seeds (exactly where the game allows),
  confirmed on further fresh seeds, under the seed the run was started with. Without
  ``@`` and without that checkpoint, the published report's ``reports/STUDY/run.json``
  gives it instead.
- ``best:STUDY@published``: the published ``reports/STUDY/run.json`` whatever runs/ holds
  (after a local ``run`` or ``evolve``, ``best:STUDY`` plays that local run instead).

The line a reference prints says which source it plays (:data:`KINDS`: local journal,
database, local checkpoint or published run.json) and, where a local run stands in for a
published result, the reference that plays the published one. A published summary that is
not the spec's result (another game, other game options, a bot that does not play) is
refused in one line naming the file.

The result is the bot's text form (``strategy:name=value,...`` or a genome text), which
every game's ``parse_bot`` reads, so it works wherever a bot name does: ``play --bots``,
``--bot``, a spec's ``evaluation.opponents`` and a ``[train]`` pool.

A reference is resolved when a run, evolution, match, report or training starts
(:func:`resolve_opponents`, :func:`best_bot`), never while a spec is loaded or listed:
loading checks its text only (:mod:`tuning._refs`). A chain of references that comes back to
a spec being resolved is refused; the specs on the way travel as an argument.

Just over 400 lines on purpose: every source a reference may resolve to, and the checks that
a published result is the spec's, are one decision (which result plays) and read as one.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games import registry
from games.capabilities import use
from games.core import BotSpec, InputError
from tuning._identity import option_values
from tuning._overrides import checked_values, command_words, split_derived, stored_study
from tuning._refs import PREFIX, PUBLISHED, is_best, refs_in, split_ref
from tuning._spec import StudySpec, load_spec, resolve_path
from tuning._spec_checks import fail

__all__ = ["KINDS", "PREFIX", "PUBLISHED", "BestBot", "best_bot", "check_genome_options",
           "is_best", "option_notes", "resolve_best", "resolve_opponents", "split_ref",
           "train_bot"]


#: What a reference plays, as its line says: a journal or a database the study ran on, an
#: evolution's checkpoint, or the committed report's ``run.json``.
KINDS = {"journal": "local journal", "database": "database", "checkpoint": "local checkpoint",
         "published": "published run.json", "board": "board result"}
#: ``best:board:BOARD``: the strategy `tabletune board` found for a board
BOARD_PREFIX = "board:"


@dataclass(frozen=True)
class BestBot:
    """A study's best as a bot: its text form and a line saying where it comes from."""

    study: str
    game: str
    text: str
    source: str
    note: str
    options: dict[str, Any]  # the study's [game] options (as the spec gives them)
    optimizer: str = "optuna"  # "deap": an evolution's genome
    kind: str = "journal"  # which source it plays: a key of KINDS


@dataclass(frozen=True)
class _Found:
    """A resolved best before it is labelled: bot text, location, figure, kind of source."""

    text: str
    location: str
    how: str
    kind: str


def _params_text(params: dict[str, Any]) -> str:
    def one(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return repr(value) if isinstance(value, float) else str(value)
    return ",".join(f"{k}={one(v)}" for k, v in params.items())


def _published(spec: Any) -> Path | None:
    """The published report's run summary of a study or an evolution,
    ``reports/STUDY/run.json``, under the working folder or beside the spec's ``studies/``
    folder; None when neither exists."""
    from tuning.reporting import FILE

    roots = [Path.cwd()]
    if spec.path is not None:
        roots.append(Path(spec.path).resolve().parent.parent)
    for root in roots:
        path = root / "reports" / spec.name / FILE
        if path.is_file():
            return path
    return None


def _how(exact: bool, games: Any, ci: Any, seed: Any, run: dict[str, Any] | None = None,
         selection: str = "best_selection_value") -> str:
    """Where a published figure comes from: exact, or its fresh games, interval and seed;
    confirmed on further seeds (``run``'s ``best_confirmed``, with the selection value
    beside it), else the selection value of a summary from before confirmations."""
    if exact:
        return "exact"
    if not games or not ci:
        return "search value, not re-evaluated"
    root = f", root seed {seed}" if seed is not None else ""
    if run is not None and run.get("best_confirmed"):
        chosen = run.get(selection)
        beside = "" if chosen is None else f"; selection value {float(chosen):.4f}"
        return (f"confirmed on {games:,} further fresh games{root}, 95% CI "
                f"{ci[0]:.4f}..{ci[1]:.4f}{beside}")
    return (f"re-evaluated on {games:,} fresh games{root}, 95% CI {ci[0]:.4f}..{ci[1]:.4f}: "
            "the selection value, not confirmed")


def _from_published(spec: Any, path: Path) -> _Found:
    """The bot, its source and its figure from a published ``run.json``."""
    from tuning.reporting import read_summary

    run = read_summary(path, spec.optimizer)
    _check_published(spec, path, run)
    try:
        return _published_bot(spec, path, run)
    except (TypeError, ValueError, KeyError, IndexError) as exc:  # a field edited by hand
        raise InputError(f"{path}: a figure's fields are damaged ({type(exc).__name__}: "
                         f"{exc}); publish it again (tabletune report {command_words(spec)} "
                         "--publish) or restore the file") from None


def _published_bot(spec: Any, path: Path, run: dict[str, Any]) -> _Found:
    """The bot and its figure from a checked published summary."""
    where = f"{path} (published report)"
    if spec.optimizer == "deap":
        how = _how(bool(run.get("best_fitness_exact")), run.get("best_fitness_games"),
                   run.get("best_fitness_ci"), run.get("best_fitness_seed"), run,
                   "best_selection_fitness")
        generation = run.get("generations")
        return _Found(run["best_genome"], where,
                      f"generation {generation}, {float(run['best_fitness']):.4f} ({how})",
                      "published")
    text = _bot_text(spec.strategy, dict(run["best_params"]))
    how = (_how(bool(run.get("best_exact")), run.get("best_value_games"),
                run.get("best_value_ci"), run.get("best_value_seed"), run)
           if run.get("best_reevaluated", True) else "search value, not re-evaluated")
    return _Found(text, where, f"trial {run['best_trial']}, {float(run['best_value']):.4f} "
                  f"({how})", "published")


def _check_published(spec: Any, path: Path, run: dict[str, Any]) -> None:
    """Refuse a published summary that is not the spec's result, naming the file: another
    study or game, ``game_options`` the game refuses or that differ from the spec's (a
    result made for one kingdom would play, unnoticed, as another's), or a bot the game
    cannot read."""

    def fail(what: str) -> InputError:
        return InputError(f"{path}: {what}; publish it again (tabletune report "
                          f"{command_words(spec)} --publish) or restore the file")

    if run.get("study", spec.name) != spec.name or run.get("game", spec.game) != spec.game:
        raise fail(f"holds study {run.get('study')!r} of game {run.get('game')!r}, not "
                   f"{spec.name} of {spec.game}")
    game = registry.get(spec.game)
    options = run.get("game_options")
    if options is not None:
        if not isinstance(options, dict):
            raise fail("game_options is not a table")
        names = sorted(set(options) | set(spec.game_options))
        try:
            stated = checked_values(game, options, [n for n in names if n in options])
        except InputError as exc:
            raise fail(f"game_options: {str(exc).removeprefix('game.')}") from None
        own = option_values(spec.checked, stated)
        differ = [n for n in stated if stated[n] != own[n]]
        if differ:
            def shown(v: Any) -> str:
                return ",".join(map(str, v)) if isinstance(v, list) else str(v)
            name = differ[0]
            raise fail(f"made for {name} = {shown(stated[name])}, not study {spec.name}'s "
                       f"{name} = {shown(own[name])}")
    text = (run["best_genome"] if spec.optimizer == "deap" else
            _bot_text(spec.strategy, dict(run["best_params"])))
    try:
        game.parse_bot(text)
    except InputError as exc:
        raise fail(f"its best does not play: {exc}") from None


def _bot_text(strategy: Any, params: dict[str, Any]) -> str:
    """``strategy:name=value,...``, the strategy alone without parameters."""
    return f"{strategy}:{_params_text(params)}" if params else str(strategy)


def _only_published(spec: Any) -> _Found:
    """``best:STUDY@published``: the committed report's summary, whatever runs/ holds."""
    published = _published(spec)
    if published is None:
        raise InputError(f"study {spec.name} has no published result: no reports/"
                         f"{spec.name}/{_summary_file()} here or beside its spec (publish "
                         f"one: tabletune report {command_words(spec)} --publish; or drop "
                         "@published to play the local run)")
    return _from_published(spec, published)


def _summary_file() -> str:
    from tuning.reporting import FILE
    return FILE


def _from_study(spec: StudySpec, storage: str | None,
                resolving: frozenset[str]) -> _Found:
    from tuning.study import best_result, default_location, describe, load_study

    if storage == PUBLISHED:
        return _only_published(spec)
    if storage is None and not Path(default_location(spec.name)).exists():
        published = _published(spec)  # a fresh clone: the committed report's summary
        if published is not None:
            return _from_published(spec, published)
    loaded = load_study(resolve_opponents(spec, resolving), storage)
    best = best_result(loaded.study)
    if not best or not best.get("params"):
        raise InputError(f"study {spec.name} on {loaded.opened.location} has no complete "
                         f"trial yet: run it first (tabletune run {command_words(spec)})")
    params = _params_text(dict(best["params"]))
    text = f"{spec.strategy}:{params}" if params else str(spec.strategy)
    lo, hi = best["ci95"]
    how = describe(best) if best.get("exact") else f"95% CI {lo:.4f}..{hi:.4f}; {describe(best)}"
    location = loaded.opened.location
    return _Found(text, location, f"trial {best['trial']}, {best['mean']:.4f} ({how})",
                  "database" if "://" in location else "journal")


def _from_evolution(spec: StudySpec, storage: str | None,
                    resolving: frozenset[str]) -> _Found:
    from tuning.evaluation import WorkerPool
    from tuning.evolution import best_of, checkpoint_result, default_checkpoint, load_checkpoint

    if storage == PUBLISHED:
        return _only_published(spec)
    path = Path(storage) if storage else default_checkpoint(spec)
    if storage is None and not path.exists():
        published = _published(spec)  # a fresh clone: the committed report's summary
        if published is not None:
            return _from_published(spec, published)
    if not path.is_file():
        raise InputError(f"evolution {spec.name} has no checkpoint {path}: run it first "
                         f"(tabletune evolve {command_words(spec)})" if not path.exists() else
                         f"checkpoint {path} is not a file")
    run_spec, result = checkpoint_result(resolve_opponents(spec, resolving),
                                         load_checkpoint(path))
    if not result.hall_of_fame:
        raise InputError(f"checkpoint {path} holds no hall of fame yet")
    with WorkerPool(1) as pool:
        found = best_of(run_spec, result, pool)
    ev, chosen = found.confirmed, found.selection
    how = ("exact" if ev.exact else f"confirmed on {ev.games:,} further fresh games, 95% CI "
           f"{ev.ci95[0]:.4f}..{ev.ci95[1]:.4f}; selection value {chosen.mean:.4f}, "
           f"re-evaluated on {chosen.games:,} games")
    return _Found(found.text, str(path), f"generation {result.generation}, {ev.mean:.4f} "
                  f"({how})", "checkpoint")


def _key(path: str | Path) -> str:
    """A spec file as the recursion guard knows it (its resolved path)."""
    return str(Path(path).resolve())


def resolve_best(text: str, game: str | None = None,
                 resolving: frozenset[str] = frozenset()) -> BestBot:
    """The bot that ``best:STUDY[@STORAGE]`` names (``game``: the game it must be of;
    ``resolving``: the spec files whose opponents are being resolved around this call).

    Missing specs, storages, studies and checkpoints are InputErrors naming what is
    missing and the command that makes it."""
    study, storage = split_ref(text)
    where = text.strip()
    if study.startswith(BOARD_PREFIX):
        return _from_board(study[len(BOARD_PREFIX):], game, where)
    derived = split_derived(study)  # STUDY.HASH: a spec run with other game options
    try:
        key = _key(resolve_path(study))
        derived = None
    except InputError as exc:
        try:
            key = _key(resolve_path(derived[0])) if derived else ""
        except InputError:
            key = ""
        if not key:
            raise InputError(f"{where}: {exc}") from None
    if key in resolving:
        raise InputError(f"{where}: study {study} names its own result as an opponent")
    inside = resolving | {key}
    try:
        spec = load_spec(key)
        if derived is not None:
            spec = stored_study(spec, derived[1], storage)
        if game is not None and spec.game != game:
            raise InputError(f"{where}: study {spec.name} is a {spec.game} study, not "
                             f"{game}")
        if spec.optimizer == "optuna":
            got = _from_study(spec, storage, inside)
        elif spec.optimizer == "deap":
            got = _from_evolution(spec, storage, inside)
        else:
            raise InputError(f"{where}: study {spec.name} is a {spec.optimizer} study; "
                             "best: reads Optuna studies and evolutions (a trained model: "
                             "learned:MODEL_FILE)")
    except InputError as exc:
        message = str(exc)
        raise InputError(message if message.startswith(where) else f"{where}: {message}"
                         ) from None
    return BestBot(spec.name, spec.game, got.text, got.location,
                   f"{where} = {got.text} ({spec.name}, {_source_words(got, spec)}: {got.how})"
                   f"{_also_published(spec, study, storage, got)}",
                   dict(spec.game_options), spec.optimizer, got.kind)


def _from_board(board: str, game: str | None, where: str) -> BestBot:
    """``best:board:BOARD``: the strategy a board search wrote for that board."""
    from games import registry
    from games.capabilities import part
    from tuning._board import board_part, folder, stored

    names = [game] if game else [g for g in registry.names()
                                 if part(registry.get(g), "board") is not None]
    if not names:
        raise InputError(f"{where}: no game has a board optimiser")
    data = stored(names[0], board)
    bp = board_part(names[0])
    cards = bp.board(board)
    path = folder(bp, cards, None) / "result.json"
    ladder = data.get("ladder") or {}
    mean = sum(r["score"] for r in ladder.values()) / max(1, len(ladder))
    return BestBot(f"{BOARD_PREFIX}{bp.slug(cards)}", names[0], data["strategy"], str(path),
                   f"{where} = {data['strategy']} (board result {path}: {mean:.3f} on average "
                   f"against its {len(ladder)}-bot ladder)", bp.game_options(cards), "board",
                   "board")


def _source_words(got: _Found, spec: Any) -> str:
    """Which source a reference plays, in its line: ``local journal runs/X.journal``,
    ``local checkpoint ...``, ``database URL`` or ``published run.json PATH``."""
    location = got.location.removesuffix(" (published report)")
    try:  # a path under the working folder reads shorter relative to it
        location = str(Path(location).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        pass
    return f"{KINDS[got.kind]} {location}"


def _also_published(spec: Any, study: str, storage: str | None, got: _Found) -> str:
    """Where a local run stands in for a published result (``best:STUDY`` reads runs/
    first, so after a local ``run`` it plays that run), how to play the published one."""
    if storage is not None or got.kind == "published" or _published(spec) is None:
        return ""
    return (f"; a local run stands in for the published result, which "
            f"{PREFIX}{study}@{PUBLISHED} plays")


def resolve_opponents(spec: StudySpec, resolving: frozenset[str] = frozenset()
                      ) -> StudySpec:
    """The spec with each ``best:`` opponent replaced by the bot text it names now, so the
    study's fingerprint follows that result; the spec itself when it names none.

    Called when a run, evolution, report or re-evaluation starts. ``resolving``: the spec
    files already being resolved above this one; a reference back to one of them, or to
    ``spec`` itself, is one InputError naming the file and ``evaluation.opponents``."""
    ev = spec.evaluation
    if not refs_in(ev.opponents):
        return spec
    where = str(spec.path)
    inside = resolving | {_key(spec.path)}

    def one(text: str) -> str:
        if not is_best(text):
            return text
        try:
            found = resolve_best(text, spec.game, inside)
            check_genome_options(registry.get(spec.game), found, spec.checked_options())
            return found.text
        except InputError as exc:
            raise fail(where, "evaluation.opponents", str(exc)) from None

    opponents = tuple(one(o) if isinstance(o, str) else tuple(one(t) for t in o)
                      for o in ev.opponents)
    return spec.replace(evaluation=dataclasses.replace(ev, opponents=opponents))


def best_bot(game: registry.Game, text: str) -> tuple[BotSpec, BestBot]:
    """``best:...`` as the game's checked bot, labelled with the reference."""
    found = resolve_best(text, game.name)
    spec = game.parse_bot(found.text)
    return dataclasses.replace(spec, label_text=text.strip()), found


def train_bot(game: registry.Game, text: str) -> BotSpec:
    """A [train] pool or probe opponent: a bot name of ``game`` or ``best:STUDY[@STORAGE]``
    (a study's or an evolution's result, as ``tabletune play`` reads it)."""
    return best_bot(game, text)[0] if is_best(text) else game.parse_bot(text)


def option_notes(game: registry.Game, found: BestBot, options: dict[str, Any]) -> list[str]:
    """Lines for the game options the study was run with that this match changes."""
    try:
        tuned = game.check_options(found.options)
    except InputError:
        return []
    return [f"note: {PREFIX}{found.study} was tuned with {name} = {tuned[name]}; this match "
            f"plays {name} = {options.get(name)}"
            for name in found.options if name in tuned and tuned[name] != options.get(name)]


def check_genome_options(game: registry.Game, found: BestBot, options: Any) -> None:
    """Refuse an evolution's result in a game whose options differ from the evolution's in
    one its genomes are made for (the game's ``genome_options``), naming both values; its text
    given as a bot plays anyway, where the game accepts it."""
    genome_options = use(game, "genomes").genome_options
    if found.optimizer != "deap" or not genome_options:
        return
    try:
        made = game.check_options(found.options)
    except InputError:
        return

    def same(a: Any, b: Any) -> bool:  # a list of names in another order: the same
        if isinstance(a, tuple | list) and isinstance(b, tuple | list):
            return sorted(map(str, a)) == sorted(map(str, b))
        return a == b

    def shown(v: Any) -> str:
        return ",".join(map(str, v)) if isinstance(v, tuple | list) else str(v)

    for name in genome_options:
        if name in made and not same(made[name], options.get(name)):
            raise InputError(f"{PREFIX}{found.study} was evolved for {name} "
                             f"{shown(made[name])}, not {shown(options.get(name))}: play it "
                             f"with that {name}, or give its genome as a bot text to play it "
                             "anyway")
