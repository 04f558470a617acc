"""The round robin of ``tabletune ladder``: every line-up of the bots at the table size, played
with seats rotated, kept pairing by pairing so that a stopped or killed ladder continues.

Each line-up plays ``games`` games from a root seed of its own, derived from the ladder's seed
and the line-up's bot texts: a pairing's games do not depend on which other bots the ladder
holds, so a ladder with one more bot replays nothing it had (give the same ``--out``). The
folder's ``ladder-state.json`` holds what every finished line-up gave, written atomically
after each; the same command continues from it, and other settings in the same folder are
refused (``--restart`` starts over). The results: the score matrix with intervals, ratings
(:mod:`tuning.ladder._ratings`) and Alpha-Rank (:mod:`tuning.ladder._alpharank`), written as
``ladder.json``, ``README.md``, ``ratings.png`` and ``index.html``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from games import registry
from games.atomic import write_atomic
from games.capabilities import use
from games.core import BotSpec, InputError, Record
from games.options import check_exclusive
from tuning.evaluation import WorkerPool, derived_seed
from tuning.ladder._alpharank import alpha_rank
from tuning.ladder._ratings import Table, bootstrap, fit
from tuning.ladder._report import write_report

__all__ = ["LadderInterrupted", "LadderRequest", "STATE", "run_ladder"]

STATE = "ladder-state.json"
#: seconds between progress lines inside one long line-up
PROGRESS_EVERY = 5.0


@dataclass(frozen=True)
class LadderRequest:
    """A ladder as the command line gives it (checked by :func:`run_ladder`)."""

    game: str
    bots: tuple[str, ...]
    games: int
    players: int | None = None
    options: dict[str, str] = field(default_factory=dict)
    seed: int = 1
    jobs: int = 1
    backend: str = "loky"
    address: str | None = None
    out: Path | None = None
    restart: bool = False
    bootstrap_rounds: int = 500


class LadderInterrupted(Exception):
    """Ctrl-C or SIGTERM: the finished line-ups are kept in ``folder``."""

    def __init__(self, folder: Path, done: int, total: int) -> None:
        super().__init__(f"stopped after {done} of {total} line-ups")
        self.folder, self.done, self.total = folder, done, total


def _players(game: registry.Game, wanted: int | None, options: Any) -> int:
    def seats(n: int) -> bool:
        try:
            return game.seats(n, options) == n
        except InputError:
            return False

    fits = [c for c in game.player_counts if c >= 2 and seats(c)]
    if not fits:
        raise InputError(f"a ladder needs a game of two or more players; {game.name} is "
                         "played alone")
    if wanted is None:
        return 2 if 2 in fits else fits[0]
    if wanted not in fits:
        raise InputError(f"--players takes {', '.join(map(str, fits))} for {game.name}, "
                         f"got {wanted}")
    return wanted


def _bots(game: registry.Game, texts: tuple[str, ...], players: int) -> list[BotSpec]:
    from tuning._best import best_bot, is_best

    if len(texts) < 2:
        raise InputError(f"a ladder needs at least two bots, got {len(texts)}: --bots A,B,...")
    specs = [best_bot(game, t)[0] if is_best(t) else game.parse_bot(t) for t in texts]
    labels = [s.label for s in specs]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise InputError(f"bot {twice[0]!r} is given twice: a ladder ranks distinct bots")
    if len(specs) < players:
        raise InputError(f"{players} seats need at least {players} bots, got {len(specs)}")
    return specs


def _identity(game: registry.Game, req: LadderRequest, players: int, options: Any) -> dict:
    """What makes two runs one ladder: the options as a study's identity holds them (those
    that differ from the defaults, :func:`tuning._identity.option_identity`), so a default
    written out, or an option the game gains later, leaves the ladder what it was."""
    from tuning._identity import option_identity

    return {"game": game.name, "bots": list(req.bots), "players": players,
            "games": req.games, "seed": req.seed,
            "options": json.loads(json.dumps(option_identity(game, options), default=str,
                                             sort_keys=True))}


def _folder(req: LadderRequest, identity: dict[str, Any]) -> Path:
    if req.out is not None:
        return req.out
    digest = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:8]
    return Path("runs") / "ladders" / f"{identity['game']}-{digest}"


def _load_state(where: Path, identity: dict[str, Any], restart: bool) -> dict[str, Any]:
    path = where / STATE
    if where.exists() and not where.is_dir():
        raise InputError(f"--out {where} is a file; give a folder")
    if restart or not path.exists():
        return {"identity": identity, "line_ups": {}}
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a ladder's state ({exc}); give --restart to start "
                         "over") from None
    if state.get("identity") != identity:
        raise InputError(f"{where} holds a ladder of other settings; give another --out, or "
                         "--restart to start this one over there")
    return state


def run_ladder(req: LadderRequest, progress: Callable[[str], None] | None = None
               ) -> dict[str, Any]:
    """Play the ladder's line-ups not yet played, then rate the bots; returns the result
    (also written to the folder). Ctrl-C raises :class:`LadderInterrupted`."""
    from tuning.evaluation import run_match

    say = progress or (lambda line: None)
    game = registry.get(req.game)
    if req.games < 1:
        raise InputError(f"--games must be at least 1, got {req.games}")
    check_exclusive(game.options, list(req.options), spell=lambda o: f"--option {o.name}")
    options, notes = use(game, "settle").settle_options(game.check_options(req.options),
                                                        req.seed)
    for line in notes:
        say(line)
    players = _players(game, req.players, options)
    specs = _bots(game, req.bots, players)
    identity = _identity(game, req, players, options)
    where = _folder(req, identity)
    state = _load_state(where, identity, req.restart)
    where.mkdir(parents=True, exist_ok=True)
    line_ups = list(itertools.combinations(range(len(specs)), players))
    done = state["line_ups"]
    if done:
        say(f"continuing the ladder in {where}: {len(done)} of {len(line_ups)} line-ups "
            "played")
    backend = req.backend
    if backend == "loky" and use(game, "kernels").releases_gil(specs, options):
        backend = "threading"  # a kernel that releases the interpreter lock: no fork
    t0 = time.monotonic()
    try:
        with WorkerPool(req.jobs, backend, req.address, share=True) as pool:
            for k, seats in enumerate(line_ups):
                key = " | ".join(req.bots[i] for i in seats)
                if key in done:
                    continue
                names = " vs ".join(specs[i].label for i in seats)
                last = [time.monotonic()]

                def tick(games: int, total: int, seconds: float, names: str = names,
                         k: int = k, last: list[float] = last) -> None:
                    if time.monotonic() - last[0] >= PROGRESS_EVERY:
                        last[0] = time.monotonic()
                        say(f"line-up {k + 1}/{len(line_ups)} {names}: {games:,} of "
                            f"{total:,} games")

                summary = run_match(game.name, [specs[i] for i in seats], options,
                                    games=req.games, seed=derived_seed(req.seed,
                                                                       f"ladder:{key}"),
                                    pool=pool, rotate=True, progress=tick)
                data = summary.to_dict()
                done[key] = {"bots": list(seats), "games": data["games"],
                             "seconds": summary.seconds,
                             "results": [data["bots"][label] for label in summary.labels]}
                write_atomic(where / STATE, json.dumps(state, indent=1) + "\n")
                say(f"line-up {k + 1}/{len(line_ups)} {names}: "
                    + ", ".join(f"{specs[i].label} {r['score']:.1%}"
                                for i, r in zip(seats, done[key]["results"], strict=True))
                    + f" ({summary.seconds:.1f} s)")
    except KeyboardInterrupt:
        raise LadderInterrupted(where, len(done), len(line_ups)) from None
    result = rate(game.name, specs, list(req.bots), players, done, req,
                  np.random.default_rng(derived_seed(req.seed, "ladder-bootstrap")))
    result.update({"seconds": time.monotonic() - t0,
                   "play_seconds": sum(float(e["seconds"]) for e in done.values()),
                   "folder": str(where),
                   "options": identity["options"], "given_options": dict(req.options),
                   **({"notes": notes} if notes else {})})
    write_report(where, result)
    return result


def rate(game: str, specs: list[BotSpec], texts: list[str], players: int,
         done: dict[str, Any], req: LadderRequest, rng: np.random.Generator
         ) -> dict[str, Any]:
    """The score matrix, the ratings and Alpha-Rank of finished line-ups, as JSON data."""
    labels = [s.label for s in specs]
    n = len(specs)
    overall = [Record() for _ in range(n)]  # each bot's record, and row's at tables with column
    pairs = [[Record() for _ in range(n)] for _ in range(n)]
    tables = []
    for entry in done.values():
        seats = entry["bots"]
        records = [Record(int(r["wins"]), int(r["ties"]), int(r["losses"]))
                   for r in entry["results"]]
        tables.append(Table(tuple(seats), int(entry["games"]),
                            tuple(r.wins + 0.5 * r.ties for r in records)))
        for i, record in zip(seats, records, strict=True):
            overall[i].add(record)
            for j in seats:
                if j != i:
                    pairs[i][j].add(record)
    matrix = {labels[i]: {labels[j]: pairs[i][j].to_dict() for j in range(n)
                          if j != i and pairs[i][j].games}
              for i in range(n)}
    ratings_data: dict[str, Any] = {}
    if tables:
        ratings = fit(tables, n)
        ci = bootstrap(tables, n, rng, req.bootstrap_rounds)
        for i in np.argsort(-ratings, kind="stable"):
            record = overall[i].to_dict()
            ratings_data[labels[i]] = {"rating": float(ratings[i]),
                                       "rating_ci": [float(ci[i, 0]), float(ci[i, 1])],
                                       **{k: record[k] for k in ("wins", "ties", "losses",
                                                                 "games")}}
    alpharank, note = None, "Alpha-Rank ranks the bots of a two-player ladder"
    if players == 2 and len(done) == n * (n - 1) // 2:
        scores = np.array([[pairs[i][j].score if pairs[i][j].games else 0.5
                            for j in range(n)] for i in range(n)])
        alpharank, note = alpha_rank(labels, scores)
    return {"game": game, "players": players, "games_per_line_up": req.games,
            "seed": req.seed, "line_ups": len(done),
            "bots": dict(zip(labels, texts, strict=True)), "matrix": matrix,
            "ratings": ratings_data, "alpharank": alpharank, "alpharank_note": note,
            "rating_model": "Bradley-Terry (Luce at larger tables), Elo scale, mean 1500; "
                            f"95% intervals from {req.bootstrap_rounds} bootstrap rounds"}
