"""The tables of the Dominion reproduction: each one a fresh seeded simulation.

Every function returns Markdown table lines; ``Tally`` counts the games that reached the
engine's round cap, for the report's statement about the cap.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from games.core import Estimate, wilson_interval
from games.dominion import BotSpec, GameConfig, to_match_result
from tuning.evaluation import WorkerPool
from tuning.reproduce.dominion_play import play_many

BM, SBM, BMU = BotSpec("big-money"), BotSpec("smithy-big-money"), BotSpec("big-money-ultimate")
BLOG = [BotSpec("blog-big-money"), BotSpec("blog-steward"), BotSpec("blog-smithy")]
BLOG_RULES = GameConfig(kingdom="blog", end_rule="provinces", tiebreak=False)
BLOG_REF = {"turns": 17.48, "shares": (0.412, 0.156, 0.286), "ties": 0.146}


@dataclass
class Tally:
    """play_many, counting capped games and games simulated."""

    capped: int = 0
    simulated: int = 0

    def sim(self, *args, **kwargs):
        res = play_many(*args, **kwargs)
        self.capped += int(res.capped.sum())
        self.simulated += res.count
        return res


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def share_ci(k: int, n: int) -> str:
    lo, hi = wilson_interval(k, n)
    return f"{pct(k / n)} ({pct(lo)}-{pct(hi)})"


def mean_ci(x: np.ndarray) -> str:
    e = Estimate.from_samples(x)
    lo, hi = e.ci95
    return f"{e.mean:.2f} ({lo:.2f}-{hi:.2f})"


def two_player(t: Tally, games: int, seed: int, jobs: int) -> list[str]:
    """The spec's sanity figures: Big Money mirror ties, Smithy Big Money's score."""
    rows = ["| figure | reference | ours | games |", "|---|---|---|---|"]
    r = t.sim([BM, BM], games, seed, jobs)
    tied = int((r.outcome == 0).all(axis=1).sum())
    rows.append(f"| Big Money mirror, tied games (fewer-turns tie-break) | about 1/3 | "
                f"{share_ci(tied, games)} | {games:,} |")
    first = to_match_result([BM, BM], r).per_seat["big-money"][0]
    rows.append(f"| Big Money mirror, first seat's score | - | {first.score:.3f} "
                f"({first.score_ci[0]:.3f}-{first.score_ci[1]:.3f}) | {games:,} |")
    for bot, ref in ((SBM, "93-95%"), (BMU, "-")):
        m = to_match_result([bot, BM], t.sim([bot, BM], games, seed, jobs))
        rec = m.per_bot[bot.name]
        lo, hi = rec.score_ci
        rows.append(f"| {bot.name} vs big-money, score (wins + ties/2) | {ref} | "
                    f"{pct(rec.score)} ({pct(lo)}-{pct(hi)}); W/T/L {rec.wins:,}/{rec.ties:,}/"
                    f"{rec.losses:,} | {games:,} |")
    rows.append(f"| mean game length, Big Money mirror (rounds) | - | {mean_ci(r.turns)} | "
                f"{games:,} |")
    return rows


def solo(t: Tally, games: int, seed: int, jobs: int) -> list[str]:
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
        cfg = GameConfig(kingdom="default", solo_provinces=prov)
        r = t.sim([bot], games, seed, jobs, players=1, config=cfg)
        label = f"`{bot.genome}`".replace("|", "\\|") if bot.genome else bot.name
        rows.append(f"| {label} | {prov} | {ref} | {mean_ci(r.turns)} | {games:,} |")
    return rows


def stanford_target(t: Tally, games: int, seed: int, jobs: int) -> list[str]:
    """Seed 001's bar (its learning agent against Big Money) and our bots against it."""
    rows = ["| bot vs big-money (seed 001 kingdom) | W / T / L per 1,000 | score (95% CI) |",
            "|---|---|---|", "| seed 001's learning agent (1,000 games) | 946 / 7 / 47 | 94.95% |"]
    for bot in (SBM, BotSpec("heuristic"), BMU):
        m = to_match_result([bot, BM], t.sim([bot, BM], games, seed, jobs))
        rec = m.per_bot[bot.name]
        per = [round(1000 * x / rec.games) for x in (rec.wins, rec.ties, rec.losses)]
        rows.append(f"| {bot.name} ({games:,} games) | {per[0]} / {per[1]} / {per[2]} | "
                    f"{pct(rec.score)} ({pct(rec.score_ci[0])}-{pct(rec.score_ci[1])}) |")
    return rows


def blog_row(t: Tally, label: str, bots: list[BotSpec], games: int, seed: int, jobs: int,
             rotate: bool) -> tuple[str, list[float]]:
    r = t.sim(bots, games, seed, jobs, rotate=rotate, config=BLOG_RULES)
    bo = r.bot_outcome()
    wins = [int((bo[:, b] == 1).sum()) for b in range(3)]
    ties = int((r.outcome == 0).any(axis=1).sum())
    turns = (r.plies // 3).mean()
    cells = " | ".join(share_ci(w, games) for w in wins)
    row = (f"| {label} | {games:,} | {turns:.2f} ({r.turns.mean():.2f}) | {cells} | "
           f"{share_ci(ties, games)} |")
    return row, [w / games for w in wins] + [ties / games]


def replica_row(games: int, seed: int) -> str:
    """The blog's seating played by the independent plain-Python model."""
    from tuning.reproduce.dominion_replica import simulate

    counts, turns = simulate(games, seed)
    cells = " | ".join(share_ci(c, games) for c in counts)
    return (f"| independent plain-Python model (`dominion_replica.py`), blog's seating | "
            f"{games:,} | {turns:.2f} | {cells} |")


def blog(t: Tally, games: int, small: int, seed: int, jobs: int,
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
        row, vals = blog_row(t, label, BLOG, games, seed, jobs, rot)
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
        rows.append(blog_row(t, label, bots, small, seed, jobs, False)[0])
    return rows, bars


def performance(games: int, repeats: int = 3) -> list[str]:
    """The benchmark's figures: best of ``repeats`` runs, one job and two jobs."""
    from tuning.reproduce.dominion_speed import MATCHUPS, best_rate, peak_kib, worker_peak_mib

    rows = ["| match-up | 1 job: games/s | 1 job: games per CPU-s | 2 jobs: games/s | "
            "2 jobs: games per CPU-s | speed-up |", "|---|---|---|---|---|---|"]
    with WorkerPool(1) as solo, WorkerPool(2) as pair:
        for name in ("big-money mirror", "smithy-big-money vs big-money-ultimate"):
            bots = MATCHUPS[name]
            play_many(bots, 2000, 1, pool=solo)  # warm-up: kernels loaded, workers started
            play_many(bots, 4000, 1, pool=pair)
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
