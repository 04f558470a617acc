"""The tables of the Dominion reproduction: each one a fresh seeded simulation.

Every function returns Markdown table lines. Games are played by the game's one entry point
(``DominionGame.play``), block by block over the run's worker pool; ``Tally`` plays them and
counts the games that reached the engine's round cap, for the report's statement about it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.blocks import map_blocks
from games.core import BotSpec, Estimate, MatchResult, Record, labels_for, wilson_interval
from games.dominion.game import GAME
from games.outcomes import Outcomes

BM, SBM, BMU = BotSpec("big-money"), BotSpec("smithy-big-money"), BotSpec("big-money-ultimate")
BLOG = [BotSpec("blog-big-money"), BotSpec("blog-steward"), BotSpec("blog-smithy")]
BLOG_RULES = {"kingdom": "blog", "end_rule": "provinces", "tiebreak": False}
BLOG_REF = {"turns": 17.48, "shares": (0.412, 0.156, 0.286), "ties": 0.146}


@dataclass
class Tally:
    """Games ``0..games-1`` of a seeded run on ``pool``, counting capped and simulated games."""

    pool: Any
    capped: int = 0
    simulated: int = 0

    def sim(self, bots: Sequence[BotSpec], games: int, seed: int, rotate: bool = True,
            options: Mapping[str, Any] | None = None) -> Outcomes:
        """The games of ``bots`` under ``options`` (the game's options; defaults otherwise)."""
        opts = GAME.check_options(dict(options or {}))
        res = Outcomes.concat(map_blocks(GAME.play, (list(bots), opts, seed), games,
                                         pool=self.pool, rotate=rotate))
        self.capped += int(res.capped.sum())
        self.simulated += res.count
        return res


def match_result(bots: Sequence[BotSpec], res: Outcomes) -> MatchResult:
    """Wins, ties and losses per bot and per seat of the games in ``res``."""
    labels = labels_for(bots)
    m = MatchResult(labels)
    for b, name in enumerate(labels):
        for k in range(res.outcome.shape[1]):
            o = res.outcome[:, k][res.seating[:, k] == b]
            rec = Record(int((o == 1).sum()), int((o == 0).sum()), int((o == -1).sum()))
            m.per_seat[name][k] = rec
            m.per_bot[name].add(rec)
    m.games = res.count
    return m


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def share_ci(k: int, n: int) -> str:
    lo, hi = wilson_interval(k, n)
    return f"{pct(k / n)} ({pct(lo)}-{pct(hi)})"


def mean_ci(x: np.ndarray) -> str:
    e = Estimate.from_samples(x)
    lo, hi = e.ci95
    return f"{e.mean:.2f} ({lo:.2f}-{hi:.2f})"


def two_player(t: Tally, games: int, seed: int) -> list[str]:
    """The spec's sanity figures: Big Money mirror ties, Smithy Big Money's score."""
    rows = ["| figure | reference | ours | games |", "|---|---|---|---|"]
    r = t.sim([BM, BM], games, seed)
    tied = int((r.outcome == 0).all(axis=1).sum())
    rows.append(f"| Big Money mirror, tied games (fewer-turns tie-break) | about 1/3 | "
                f"{share_ci(tied, games)} | {games:,} |")
    first = match_result([BM, BM], r).per_seat["big-money"][0]
    rows.append(f"| Big Money mirror, first seat's score | - | {first.score:.3f} "
                f"({first.score_ci[0]:.3f}-{first.score_ci[1]:.3f}) | {games:,} |")
    for bot, ref in ((SBM, "93-95%"), (BMU, "-")):
        m = match_result([bot, BM], t.sim([bot, BM], games, seed))
        rec = m.per_bot[bot.name]
        lo, hi = rec.score_ci
        rows.append(f"| {bot.name} vs big-money, score (wins + ties/2) | {ref} | "
                    f"{pct(rec.score)} ({pct(lo)}-{pct(hi)}); W/T/L {rec.wins:,}/{rec.ties:,}/"
                    f"{rec.losses:,} | {games:,} |")
    rows.append(f"| mean game length, Big Money mirror (rounds) | - | {mean_ci(r.turns)} | "
                f"{games:,} |")
    return rows


def solo(t: Tally, games: int, seed: int) -> list[str]:
    """Turns to N Provinces alone, against seed 001's and the community's figures."""
    rows = ["| bot | Provinces | reference turns | ours: mean turns (95% CI) | games |",
            "|---|---|---|---|---|"]
    with_copper = "province | gold | silver | copper"
    cases = [
        (BM, 4, "about 17; 16.8 (published simulator); 18.4 (seed 001)"),
        (BM, 1, "9.5 (seed 001, one-Province game)"),
        (BotSpec("bm-with-copper", genome=with_copper), 4,
         "18.4 (seed 001: 'highest valued treasure' also buys Copper)"),
        (BotSpec("bm-with-copper", genome=with_copper), 1, "9.5"),
        (SBM, 4, "about 14"),
        (BotSpec("smithy-bm-plain", genome="province | gold | smithy:1 | smithy:2@cards>=16"
                 " | silver"), 4, "about 14"),
    ]
    for bot, prov, ref in cases:
        r = t.sim([bot], games, seed, options={"kingdom": "default", "solo": prov})
        label = f"`{bot.genome}`".replace("|", "\\|") if bot.genome else bot.name
        rows.append(f"| {label} | {prov} | {ref} | {mean_ci(r.turns)} | {games:,} |")
    return rows


def stanford_target(t: Tally, games: int, seed: int) -> list[str]:
    """Seed 001's bar (its learning agent against Big Money) and our bots against it."""
    rows = ["| bot vs big-money (seed 001 kingdom) | W / T / L per 1,000 | score (95% CI) |",
            "|---|---|---|", "| seed 001's learning agent (1,000 games) | 946 / 7 / 47 | 94.95% |"]
    for bot in (SBM, BotSpec("heuristic"), BMU):
        m = match_result([bot, BM], t.sim([bot, BM], games, seed))
        rec = m.per_bot[bot.name]
        per = [round(1000 * x / rec.games) for x in (rec.wins, rec.ties, rec.losses)]
        rows.append(f"| {bot.name} ({games:,} games) | {per[0]} / {per[1]} / {per[2]} | "
                    f"{pct(rec.score)} ({pct(rec.score_ci[0])}-{pct(rec.score_ci[1])}) |")
    return rows


def blog_row(t: Tally, label: str, bots: list[BotSpec], games: int, seed: int,
             rotate: bool) -> tuple[str, list[float]]:
    r = t.sim(bots, games, seed, rotate=rotate, options=BLOG_RULES)
    bo = r.bot_outcome()
    wins = [int((bo[:, b] == 1).sum()) for b in range(3)]
    ties = int((r.outcome == 0).any(axis=1).sum())
    turns = (r.extra["plies"] // 3).mean()
    cells = " | ".join(share_ci(w, games) for w in wins)
    row = (f"| {label} | {games:,} | {turns:.2f} ({r.turns.mean():.2f}) | {cells} | "
           f"{share_ci(ties, games)} |")
    return row, [w / games for w in wins] + [ties / games]


def replica_row(games: int, seed: int) -> str:
    """The blog's seating played by the independent plain-Python model."""
    from games.dominion.reproduce.dominion_replica import simulate

    counts, turns = simulate(games, seed)
    cells = " | ".join(share_ci(c, games) for c in counts)
    return (f"| independent plain-Python model (`dominion_replica.py`), blog's seating | "
            f"{games:,} | {turns:.2f} | {cells} |")


def blog(t: Tally, games: int, small: int, seed: int,
         replica: int) -> tuple[list[str], dict]:
    """Seed 004's three-player table: ours (two seatings), the replica, three probes."""
    ref = BLOG_REF
    rows = ["| run | games | turns: plies//3 (rounds) | Big Money | Steward | Smithy | ties |",
            "|---|---|---|---|---|---|---|",
            f"| blog (seed 004), fixed seats | 1,000,000 | {ref['turns']} | "
            + " | ".join(pct(x) for x in ref["shares"]) + f" | {pct(ref['ties'])} |"]
    bars = {"blog": list(ref["shares"]) + [ref["ties"]]}
    for label, rot in (("ours, blog's seating (BM, Steward, Smithy)", False),
                       ("ours, seats rotated", True)):
        row, vals = blog_row(t, label, BLOG, games, seed, rot)
        rows.append(row)
        bars["ours, blog's seating" if not rot else "ours, seats rotated"] = vals
        if not rot and replica > 0:
            rows.append(replica_row(replica, seed))
    probes = [
        ("probe: Smithy/Steward bought but never played", [
            BLOG[0], BotSpec("blog-steward", {"actions": "none"}),
            BotSpec("blog-smithy", {"actions": "none"})]),
        ("probe: no action cards bought (1/20 == 0 in Python 2)", [
            BLOG[0], BotSpec("never-steward", genome="province | gold | silver"),
            BotSpec("never-smithy", genome="province | gold | silver")]),
        ("probe: share counted over the whole deck (not draw+discard)", [
            BLOG[0], BotSpec("steward-share", genome="province | gold | steward@share<1/20"
                             " | silver"),
            BotSpec("smithy-share", genome="province | gold | smithy@share<1/20 | silver")]),
    ]
    for label, bots in probes:
        rows.append(blog_row(t, label, bots, small, seed, False)[0])
    return rows, bars


def performance(games: int, open_pool: Callable[[int], Any], repeats: int = 3) -> list[str]:
    """The benchmark's figures: best of ``repeats`` runs, on a pool of one job (from
    ``open_pool(1)``) and one of two jobs."""
    from games.dominion.reproduce._speed import (
        MATCHUPS,
        best_rate,
        peak_kib,
        timed_run,
        worker_peak_mib,
    )

    rows = ["| match-up | 1 job: games/s | 1 job: games per CPU-s | 2 jobs: games/s | "
            "2 jobs: games per CPU-s | speed-up |", "|---|---|---|---|---|---|"]
    with open_pool(1) as solo, open_pool(2) as pair:
        for name in ("big-money mirror", "smithy-big-money vs big-money-ultimate"):
            bots = MATCHUPS[name]
            timed_run(bots, 2000, 1, solo)  # warm-up: kernels loaded, workers started
            timed_run(bots, 4000, 1, pair)
            one, t1, cpu1 = best_rate(bots, games, solo, repeats)
            two, t2, cpu2 = best_rate(bots, games, pair, repeats)
            rows.append(f"| {name} | {one:,.0f} | {cpu1:,.0f} | {two:,.0f} | {cpu2:,.0f} | "
                        f"{two / one:.2f} |")
        load = os.getloadavg()[0]
        own = peak_kib() / 1024
        rows.append("")
        rows.append(f"{games:,} games per run, best of {repeats}; load average {load:.1f} on "
                    f"{os.cpu_count()} cores at the end; peak memory {own:.0f} MiB (report "
                    f"process), {worker_peak_mib(pair):.0f} MiB (largest worker).")
    return rows
