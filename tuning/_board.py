"""What wins on this board: find the strongest strategy a game's board optimiser can for one
board in a time budget, and prove it on fresh seeds against the board's ladder.

A game offers it through its ``board`` part (:mod:`games.capabilities`): which board a text
names, the ladder of bots to beat there, the strategies a search starts from and the genome
it evolves. A round robin of the ladder first names its strongest bots (beating Big Money is
easy; beating the board's best bots is the question). The search is an evolution
(:mod:`tuning.evolution`) of that genome against those, seats rotated, generation by
generation while the budget leaves room for the rest (a checkpoint after each: Ctrl-C keeps
the best so far, ``--resume`` continues). Then the hall of fame's best and the game's
candidates (whole strategies, such as community bots) are re-evaluated on fresh seeds
against the strongest, the best is chosen by its mean score there, and it is confirmed
against each ladder bot on further fresh seeds that no selection played.

The result (``result.json``, ``README.md`` and ``index.html`` in the board's folder,
``runs/boards/<board>/`` by default) names the strategy as one playable text;
``best:board:<board>`` plays it again.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games import registry
from games.capabilities import part as game_part
from games.core import InputError

#: where boards are written unless told otherwise
BOARDS = Path("runs") / "boards"
#: games per candidate in the search, and per candidate in the selection
SEARCH_GAMES, SELECT_GAMES = 1200, 6000
#: the ladder bots the search and the selection aim at (the strongest by a round robin of
#: STRENGTH_GAMES a pair): beating Big Money is easy, beating the board's best bots is not
TOP, STRENGTH_GAMES = 4, 1000
#: seconds between two progress lines of the search
PROGRESS_SECONDS = 5.0


@dataclass(frozen=True)
class BoardRequest:
    """One board search, checked: the game, the board text, the budget and the seeds."""

    game: str
    board: str
    minutes: float = 5.0
    jobs: int = 1
    seed: int = 1
    ladder_games: int = 20_000
    out: Path | None = None
    resume: bool = False
    backend: str = "loky"  # where the games run: loky (this machine), dask or ray
    address: str | None = None  # a Dask scheduler or Ray cluster (None: local)

    def __post_init__(self) -> None:
        if not (isinstance(self.minutes, int | float) and math.isfinite(self.minutes)
                and 0.2 <= self.minutes <= 24 * 60):
            raise InputError(f"--minutes {self.minutes}: give a budget from 0.2 to 1440 "
                             "minutes (a day)")
        if not 100 <= self.ladder_games <= 10_000_000:
            raise InputError(f"--games {self.ladder_games}: give 100 to 10,000,000 games per "
                             "ladder bot")
        if self.jobs < 1:
            raise InputError(f"--jobs {self.jobs}: give 1 or more worker processes")


class BoardInterrupted(Exception):  # noqa: N818  (a stop, reported as such)
    """Ctrl-C or SIGTERM during a board search: the checkpoint of the last finished
    generation is kept; ``best`` is the best strategy found so far (None before any)."""

    def __init__(self, where: Path, best: str | None, score: float | None) -> None:
        super().__init__("board search stopped")
        self.where, self.best, self.score = where, best, score


def board_part(name: str) -> Any:
    """The ``board`` part of game ``name``; InputError naming the games that have one."""
    game = registry.get(name)
    found = game_part(game, "board")
    if found is None:
        having = [g for g in registry.names() if game_part(registry.get(g), "board")]
        raise InputError(f"{name} has no board optimiser; games that have one: "
                         f"{', '.join(having) or 'none'}")
    return found


def folder(part: Any, board: tuple[str, ...], out: Path | None) -> Path:
    return out if out is not None else BOARDS / part.slug(board)


def _spec(game: registry.Game, part: Any, board: tuple[str, ...], req: BoardRequest,
          where: Path, opponents: list[str]) -> Any:
    """The evolution as a study spec (the same checks and machinery as `tabletune evolve`),
    scored against ``opponents``."""
    from tuning._spec import parse_spec

    raw = {"study": {"name": f"board-{part.slug(board)}", "game": game.name,
                     "optimizer": "deap", "objective": "win_rate", "direction": "maximize",
                     "description": f"the board optimiser on {part.noun} "
                                    f"{', '.join(board)}"},
           "game": part.game_options(board),
           "evaluation": {"games": SEARCH_GAMES, "block": 200, "seed": req.seed,
                          "opponents": opponents, "reevaluate_top": 5,
                          "reevaluate_games": SELECT_GAMES, "jobs": req.jobs,
                          "backend": req.backend},
           "deap": {"generations": 1, "population": 16, "offspring": 16,
                    "algorithm": "mu_plus_lambda", "cxpb": 0.4, "mutpb": 0.5,
                    "tournament": 3, "hall_of_fame": 8, "checkpoint_every": 1},
           "genome": part.genome_options(board)}
    return parse_spec(raw, where / "board.toml")


def _say(progress: Callable[[str], None] | None, line: str) -> None:
    if progress is not None:
        progress(line)


def find(req: BoardRequest, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Search, select and confirm (see the module text); the result as written to
    ``result.json``. BoardInterrupted on Ctrl-C or SIGTERM (the checkpoint kept)."""
    from tuning.evolution import EvolutionInterrupted

    game = registry.get(req.game)
    part = board_part(req.game)
    board = part.board(req.board)
    where = folder(part, board, req.out)
    ckpt = where / "search.ckpt"
    if ckpt.exists() and not req.resume:
        raise InputError(f"{ckpt} holds an earlier search of this board: give --resume to "
                         f"continue it, or --out for another folder")
    if req.resume and not ckpt.exists():
        raise InputError(f"--resume: no search of this board in {where} to continue")
    where.mkdir(parents=True, exist_ok=True)
    _say(progress, f"board {', '.join(board)}: ladder {', '.join(part.ladder(board))}; "
                   f"{req.minutes:g} min on {req.jobs} worker(s)")
    run: dict[str, Any] = {"best": [None, None], "spec": None}  # what a stop reports
    try:
        return _search_and_confirm(req, game, part, board, where, run, progress)
    except (KeyboardInterrupt, EvolutionInterrupted):
        best = run["best"]
        if best[0] is None and run["spec"] is not None and (where / "search.ckpt").exists():
            best = _checkpoint_best(run["spec"], where / "search.ckpt")
        raise BoardInterrupted(where, *best) from None


def _checkpoint_best(spec: Any, path: Path) -> list[Any]:
    """The hall of fame's best of a search checkpoint: [text, score] ([None, None] when it
    holds none yet)."""
    from tuning.evolution import genome_kind, load_checkpoint

    try:
        genes, score = load_checkpoint(path)["hall_of_fame"][0]
        text = genome_kind(spec).to_text(list(genes))
        return [text, score.mean if score is not None else None]
    except (InputError, LookupError, TypeError, ValueError):
        return [None, None]


def strengths(game: registry.Game, ladder: list[str], scorer_of: Callable[[str], Any],
              games: int, seed: int, pool: Any) -> dict[str, float]:
    """Each ladder bot's mean score against the others (a round robin, ``games`` a pair,
    seats rotated): which of them the search must beat most."""
    from tuning.evaluation import evaluate_many

    scores: dict[str, list[float]] = {name: [] for name in ladder}
    for i, a in enumerate(ladder):
        for b in ladder[i + 1:]:
            e = evaluate_many(scorer_of(b), [game.parse_bot(a)], games=games, block=games,
                              seed=seed, pool=pool)[0]
            scores[a].append(e.mean)
            scores[b].append(1.0 - e.mean)
    return {name: sum(v) / len(v) if v else 0.5 for name, v in scores.items()}


def _search_and_confirm(req: BoardRequest, game: registry.Game, part: Any,
                        board: tuple[str, ...], where: Path, run: dict[str, Any],
                        progress: Callable[[str], None] | None) -> dict[str, Any]:
    from tuning._stopping import stop_signals
    from tuning.evaluation import WorkerPool, candidate_bot, derived_seed, evaluate_many
    from tuning.evolution import build_evolution

    t0 = time.monotonic()
    ckpt = where / "search.ckpt"
    ladder = part.ladder(board)
    budget = 60.0 * req.minutes
    best = run["best"]
    with stop_signals(), WorkerPool(req.jobs, req.backend, req.address) as pool:
        # ---- the ladder's strongest bots, whom the search and the selection aim at
        spec = run["spec"] = _spec(game, part, board, req, where, ladder)
        strength = strengths(game, ladder, lambda b: spec.scorer([b]), STRENGTH_GAMES,
                             derived_seed(req.seed, "board-strength"), pool)
        top = sorted(ladder, key=lambda b: -strength[b])[:TOP]
        _say(progress, "strongest on the ladder: " + ", ".join(
            f"{b} ({strength[b]:.2f})" for b in top))
        spec = run["spec"] = _spec(game, part, board, req, where, top)
        # ---- search: one generation at a time, while the budget leaves time for the
        # selection and the confirmation after it (timed at the search's games per second)
        after = SELECT_GAMES * (5 + len(part.candidates(board))) + req.ladder_games * len(ladder)
        goal, result, per_gen, said = 1, None, 0.0, -PROGRESS_SECONDS
        resume = req.resume
        if resume:  # one generation past where the stopped search got to
            from tuning.evolution import load_checkpoint
            goal = int(load_checkpoint(ckpt).get("generation", 0)) + 1
        while True:
            g0 = time.monotonic()
            evo = build_evolution(spec, pool, generations=goal, checkpoint=ckpt,
                                  resume=resume)
            result = evo.run(resume=resume)
            resume, goal = True, result.generation + 1
            per_gen = time.monotonic() - g0
            rate = SEARCH_GAMES * 16 / max(per_gen, 1e-3)
            best_text, best_score = result.hall_of_fame[0]
            best[:] = [best_text, best_score.mean]
            elapsed = time.monotonic() - t0
            last = elapsed + per_gen + after / rate > budget
            if last or elapsed - said >= PROGRESS_SECONDS:  # a line every few seconds
                said = elapsed
                _say(progress, f"search: generation {result.generation}, best "
                               f"{best_score.mean:.3f} against the strongest, {elapsed:.0f} s "
                               f"of {budget:.0f} s ({rate:,.0f} games/s)")
            if last:
                break
        # ---- selection: the hall of fame's best and the candidates, on fresh seeds
        texts: list[str] = []
        for text in [t for t, _ in result.hall_of_fame[:5]] + part.candidates(board):
            if text not in texts:
                texts.append(text)
        _say(progress, f"selection: {len(texts)} strategies, {SELECT_GAMES:,} games each "
                       f"against the strongest")
        scorer = spec.scorer(top)
        evals = evaluate_many(scorer, [candidate_bot({"genome": t}) for t in texts],
                              games=SELECT_GAMES, block=max(200, SELECT_GAMES // (4 * req.jobs)),
                              seed=derived_seed(req.seed, "board-select"), pool=pool)
        i = max(range(len(texts)), key=lambda k: (evals[k].mean, -k))
        winner = texts[i]
        # ---- confirmation: each ladder bot on further fresh seeds
        rows: dict[str, dict[str, Any]] = {}
        for name in ladder:
            _say(progress, f"confirmation: against {name}, {req.ladder_games:,} games")
            e = evaluate_many(spec.scorer([name]), [candidate_bot({"genome": winner})],
                              games=req.ladder_games,
                              block=max(500, req.ladder_games // (4 * req.jobs)),
                              seed=derived_seed(req.seed, "board-confirm"), pool=pool)[0]
            lo, hi = e.ci95
            rows[name] = {"score": e.mean, "score_ci": [lo, hi], "games": e.games}
    seconds = time.monotonic() - t0
    out = {"game": game.name, part.noun: list(board), "board": part.slug(board),
           "strategy": winner, "in_words": part.describe(winner),
           "opening": part.opening(board, winner),
           "selection": [{"strategy": t, "score": e.mean, "games": e.games}
                         for t, e in sorted(zip(texts, evals, strict=True),
                                            key=lambda x: -x[1].mean)],
           "ladder": rows, "strength": strength, "aimed_at": top,
           "search_generations": result.generation,
           "seed": req.seed, "minutes": req.minutes, "jobs": req.jobs,
           "seconds": seconds,
           "games": (sum(int(row.get("games", 0)) for row in result.logbook)
                     + sum(e.games for e in evals)
                     + sum(r["games"] for r in rows.values()))}
    write(where, out)
    return out


def write(where: Path, out: dict[str, Any]) -> None:
    """result.json, README.md and index.html of a board."""
    from tuning.reporting import render_page

    (where / "result.json").write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    (where / "README.md").write_text(markdown(out), encoding="utf-8")
    (where / "index.html").write_text(render_page(where), encoding="utf-8")


def markdown(out: dict[str, Any]) -> str:
    """The board's report in Markdown."""
    noun = "kingdom" if "kingdom" in out else "board"
    lines = [f"# What wins on this board: {', '.join(out.get(noun, [out['board']]))}", "",
             "The strongest strategy the board optimiser found, as one playable text:", "",
             f"    {out['strategy']}", ""]
    lines += [f"- **{k}**: {v}" for k, v in out["in_words"].items()]
    if out.get("opening"):
        lines += ["", f"**Opening** (turns 1-2, by coins in hand): {out['opening']}"]
    lines += ["", "## Against the ladder (fresh seeds, seats rotated, 95% intervals)", "",
              "| opponent | score | 95% interval | games |", "|---|---|---|---|"]
    for name, r in out["ladder"].items():
        lo, hi = r["score_ci"]
        lines.append(f"| {name} | {100 * r['score']:.1f}% | [{100 * lo:.1f}, {100 * hi:.1f}] "
                     f"| {r['games']:,} |")
    aimed = ", ".join(out.get("aimed_at", [])) or "the ladder"
    lines += ["", f"## Selection (mean score against {aimed}, fresh seeds)", "",
              "| strategy | score | games |", "|---|---|---|"]
    for r in out["selection"]:
        text = r["strategy"].replace("|", "\\|")
        lines.append(f"| `{text}` | {100 * r['score']:.1f}% | {r['games']:,} |")
    lines += ["", f"Search: {out['search_generations'] + 1} generations; "
                  f"{out['games']:,} games in all; {out['seconds']:.0f} s "
                  f"({out['minutes']:g} min budget, {out['jobs']} worker(s), seed "
                  f"{out['seed']}).", "",
              f"Play it again: `tabletune play {out['game']} --bots "
              f"'best:board:{','.join(out.get(noun, []))};big-money' --kingdom "
              f"{','.join(out.get(noun, []))}`", ""]
    return "\n".join(lines)


def stored(game: str, board_text: str) -> dict[str, Any]:
    """The result written for a board (``best:board:<board>``, the board in any form its
    game reads); InputError when there is none or it is damaged."""
    part = board_part(game)
    board = part.board(board_text)
    path = folder(part, board, None) / "result.json"
    if not path.is_file():
        raise InputError(f"best:board:{board_text}: no board result at {path}; make it with "
                         f"tabletune board {game} --kingdom {','.join(board)}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        text = data["strategy"]
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: damaged board result ({exc}); run the board again") \
            from None
    if not isinstance(text, str) or data.get("game") != game:
        raise InputError(f"{path}: not a {game} board result; run the board again")
    return data
