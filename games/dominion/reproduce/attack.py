"""Dominion on the attack kingdom (preset ``attack``): the community's standard bots in a
round robin, and the published bests of the attack studies against Double Witch
(``tabletune reproduce dominion-attack``, written to ``reports/dominion-baseset/attack/``).

Every match is two players, seats rotated game by game, played through the game's public
``play`` on the run's worker pool in blocks whose results do not depend on the pool. Pair
``m`` of the round robin (0-based, in the order of the pairs table) uses root seed
``SEED + m``; best ``j`` (in :data:`STUDIES` order) uses ``SEED + BESTS + j``. The studies
search and confirm on seed sets derived from their own seed (29), so these games are fresh
for every selection. Each row is exactly what ``tabletune play dominion --kingdom attack
--bots A,B -n GAMES --seed S`` prints for the first bot: wins, ties, losses and the score
wins + ties / 2 with its 95% interval (the normal interval of the per-game score). A best
is read from its published report, ``reports/STUDY/run.json`` (what ``best:STUDY`` plays
on a fresh clone); ``data.json`` keeps the parameters or genome it played, so
``from_json`` rewrites the README from the data alone.
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.blocks import map_blocks
from games.core import BotSpec, InputError, Record
from games.outcomes import Outcomes
from games.reproduction import Settings, data_or_collect, say

FOLDER = "reports/dominion-baseset/attack"
SEED: int | None = 2029
PARTS = ("all",)
SIZES = {"games": 20_000}
PARAMS = False
BENCHMARK = False
KINGDOM = "attack"
#: the named bots whose cards the attack kingdom holds (workshop-gardens needs Workshop)
COMMUNITY = ("big-money", "big-money-ultimate", "smithy-big-money", "double-witch",
             "double-militia", "laboratory-big-money", "council-room-big-money",
             "moat-big-money", "chapel-witch")
#: the attack studies whose published bests play Double Witch
STUDIES = ("dominion-attack-heuristic", "dominion-attack-strategy")
TARGET = "double-witch"
#: a sterner Double Witch: the same two Witches with Big Money Ultimate's endgame, since the
#: plain one never buys a Duchy and a strategy that greens beats it on the endgame alone
STERN = "double-witch-ultimate"
BESTS = 100  # best j plays TARGET with root seed SEED + BESTS + j
STERN_SEEDS = 110  # ... and STERN with root seed SEED + STERN_SEEDS + j


def published_best(study: str) -> dict[str, Any]:
    """The published best of ``study`` (``reports/STUDY/run.json``): its bot (strategy and
    parameters, or the evolved genome as text) and the figure the study confirmed."""
    path = Path("reports") / study / "run.json"
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path} does not exist: publish the study first "
                         f"(tabletune report {study} --publish)") from None
    except ValueError as exc:
        raise InputError(f"{path}: not JSON ({exc})") from None
    if run.get("optimizer") == "deap":
        return {"study": study, "bot": run["best_genome"], "params": None,
                "value": run["best_fitness"], "ci95": run["best_fitness_ci"],
                "games": run["best_fitness_games"]}
    return {"study": study, "bot": run["strategy"], "params": dict(run["best_params"]),
            "value": run["best_value"], "ci95": run["best_value_ci"],
            "games": run["best_value_games"]}


def _spec(bot: str, params: dict[str, Any] | None = None) -> BotSpec:
    from games.dominion.game import GAME

    return BotSpec(bot, dict(params)) if params is not None else GAME.parse_bot(bot)


def _block(bots: Sequence[BotSpec], seed: int, start: int, count: int) -> Outcomes:
    from games.dominion.game import GAME

    return GAME.play(bots, GAME.check_options({"kingdom": KINGDOM}), seed, start, count)


def match(bots: Sequence[BotSpec], seed: int, games: int, pool: Any) -> dict[str, Any]:
    """The first bot's record over ``games`` games with root ``seed``: wins, ties, losses,
    score and its 95% interval, as ``tabletune play`` reports it, with mean rounds."""
    out = Outcomes.concat(map_blocks(_block, (list(bots), seed), games, pool=pool))
    o = out.bot_outcome()[:, 0]
    rec = Record(int((o == 1).sum()), int((o == 0).sum()), int((o == -1).sum()))
    return {"seed": seed, "games": rec.games, "wins": rec.wins, "ties": rec.ties,
            "losses": rec.losses, "score": rec.score, "ci95": list(rec.score_ci),
            "mean_rounds": float(out.turns.mean())}


def collect(settings: Settings) -> dict[str, Any]:
    """The round robin and the bests against Double Witch: the data the README is
    written from."""
    seed = SEED if settings.seed is None else settings.seed
    games = settings.n("games")
    t0 = time.perf_counter()
    pairs = []
    for m, (a, b) in enumerate(itertools.combinations(COMMUNITY, 2)):
        pairs.append({"bots": [a, b], **match([_spec(a), _spec(b)], seed + m, games,
                                              settings.pool)})
        say(f"{a} vs {b}: {pairs[-1]['score']:.4f}")
    bests = []
    for j, study in enumerate(STUDIES):
        best = published_best(study)
        row = match([_spec(best["bot"], best["params"]), _spec(TARGET)], seed + BESTS + j,
                    games, settings.pool)
        stern = match([_spec(best["bot"], best["params"]), _spec(STERN)],
                      seed + STERN_SEEDS + j, games, settings.pool)
        bests.append({**best, "opponent": TARGET, "fresh": row,
                      "stern_opponent": STERN, "stern": stern})
        say(f"best:{study} vs {TARGET}: {row['score']:.4f}, vs {STERN}: "
            f"{stern['score']:.4f}")
    return {"settings": {"seed": seed, "jobs": settings.jobs, "kingdom": KINGDOM,
                         **settings.sizes},
            "command": settings.command(), "seconds": time.perf_counter() - t0,
            "pairs": pairs, "bests": bests}


def _rate(r: dict[str, Any]) -> str:
    lo, hi = r["ci95"]
    return f"{r['score']:.4f} [{lo:.4f}, {hi:.4f}]"


def _matrix(pairs: Sequence[dict[str, Any]]) -> list[str]:
    """Each bot's score against each other bot (row against column) and its mean."""
    score: dict[tuple[str, str], float] = {}
    for p in pairs:
        a, b = p["bots"]
        score[a, b], score[b, a] = p["score"], 1.0 - p["score"]
    bots = sorted(COMMUNITY, key=lambda x: -sum(score[x, y] for y in COMMUNITY if y != x))
    lines = ["| bot | mean | " + " | ".join(bots) + " |",
             "|---|---|" + "---|" * len(bots)]
    for a in bots:
        row = [f"{score[a, b]:.3f}" if a != b else "" for b in bots]
        mean = sum(score[a, b] for b in bots if b != a) / (len(bots) - 1)
        lines.append(f"| {a} | {mean:.3f} | " + " | ".join(row) + " |")
    return lines


def _command(bots: Sequence[str], games: int, seed: int) -> str:
    return (f"`tabletune play dominion --kingdom {KINGDOM} --bots {','.join(bots)} "
            f"-n {games} --seed {seed}`")


def readme_text(data: dict[str, Any]) -> str:
    """The report: how it was made, the bests against Double Witch, the round robin."""
    st = data["settings"]
    best_rows = ["| best of | score against double-witch, 95% CI | W/T/L | its study's "
                 "figure (against its own opponents) | seed | command |",
                 "|---|---|---|---|---|---|"]
    for b in data["bests"]:
        f = b["fresh"]
        lo, hi = b["ci95"]
        best_rows.append(
            f"| {b['study']} | **{_rate(f)}** | {f['wins']}/{f['ties']}/{f['losses']} "
            f"| {b['value']:.4f} [{lo:.4f}, {hi:.4f}] ({b['games']:,} games) | {f['seed']} "
            f"| {_command(['best:' + b['study'], b['opponent']], f['games'], f['seed'])} |")
    pair_rows = ["| pair | score of the first bot, 95% CI | W/T/L | mean rounds | seed |",
                 "|---|---|---|---|---|"]
    for p in data["pairs"]:
        pair_rows.append(f"| {' vs '.join(p['bots'])} | {_rate(p)} "
                         f"| {p['wins']}/{p['ties']}/{p['losses']} | {p['mean_rounds']:.2f} "
                         f"| {p['seed']} |")
    stern_rows = ["| best of | score against double-witch-ultimate, 95% CI | W/T/L | seed "
                  "| command |", "|---|---|---|---|---|"]
    for b in data["bests"]:
        if "stern" in b:  # data.json written before the sterner opponent lacks it
            f = b["stern"]
            stern_rows.append(
                f"| {b['study']} | **{_rate(f)}** | {f['wins']}/{f['ties']}/{f['losses']} "
                f"| {f['seed']} | "
                f"{_command(['best:' + b['study'], b['stern_opponent']], f['games'], f['seed'])} |")
    stern = [] if len(stern_rows) == 2 else [
        "Double Witch as named above never buys a Duchy or an Estate, so a strategy that "
        "greens at the end gains much of its margin there. Against a sterner Double Witch "
        "(`double-witch-ultimate`: the same two Witches with Big Money Ultimate's Province, "
        f"Duchy and Estate rules) on seeds {st['seed']} + {STERN_SEEDS} + j:", "",
        *stern_rows, ""]
    genomes = [f"- `best:{b['study']}`: " + (f"`{b['bot']}`" if b["params"] is None else
               f"`{b['bot']}` with " + ", ".join(f"{k}={v:.4g}" if isinstance(v, float)
                                                  else f"{k}={v}"
                                                  for k, v in b["params"].items()))
               for b in data["bests"]]
    lines = [
        "# Dominion on the attack kingdom: standard bots and tuned strategies",
        "",
        f"Made by `{data['command']}` (seed {st['seed']}; {data['seconds']:.0f} s on "
        f"{st['jobs']} job(s)). Kingdom: the preset `{st['kingdom']}` (Witch, Militia, "
        "Chapel, Laboratory, Market, Smithy, Village, Moat, Council Room, Gardens). Every "
        f"match is {st['games']:,} games, two players, seats rotated game by game; a score "
        "is wins + ties / 2 over games with its 95% interval, exactly what the command in "
        "its row prints (`tabletune play` with that seed).",
        "",
        "## The attack studies' bests against Double Witch",
        "",
        "Each best is its study's published result (`reports/STUDY/run.json`, what "
        "`best:STUDY` plays) on games no selection touched: the studies search, re-evaluate "
        f"and confirm on seed sets derived from their own seed, these use {st['seed']} + "
        f"{BESTS} + j.",
        "",
        *best_rows,
        "",
        *stern,
        *genomes,
        "",
        "## The standard bots, round robin",
        "",
        "The named bots whose cards the kingdom holds (workshop-gardens needs Workshop). "
        "Row bot's score against the column bot, sorted by the mean over its "
        f"{len(COMMUNITY) - 1} match-ups:",
        "",
        *_matrix(data["pairs"]),
        "",
        "Every pair with its interval; pair m (0-based, in this order) is "
        f"`tabletune play dominion --kingdom {KINGDOM} --bots A,B -n {st['games']} --seed "
        f"S` with S = {st['seed']} + m (the seed column).",
        "",
        *pair_rows,
        "",
    ]
    return "\n".join(lines)


def reproduce(out_dir: Path, settings: Settings) -> list[Path]:
    """Play the round robin and the bests (or read data.json with ``from_json``); write
    data.json and README.md."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    data, written = data_or_collect(out_dir, settings, collect)
    (out_dir / "README.md").write_text(readme_text(data), encoding="utf-8")
    return written + [out_dir / "README.md"]
