"""Regenerate reports/dominion/README.md and blog_table.png: the reference figures of the
Dominion sources (spec, seed 001, seed 004) side by side with this engine's.

    python reports/dominion/make_report.py [--games 200000] [--blog-games 1000000] [--jobs 1]
        [--speed-games 200000] [--replica-games 100000]

Every figure is a real simulation with the stated number of games and seed; results are
identical for a seed whatever ``--jobs`` is.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import time
from pathlib import Path

import numpy as np

from games.core import Estimate, wilson_interval
from games.dominion import BotSpec, GameConfig, play_many, to_match_result

HERE = Path(__file__).resolve().parent
BM, SBM, BMU = BotSpec("big-money"), BotSpec("smithy-big-money"), BotSpec("big-money-ultimate")
BLOG = [BotSpec("blog-big-money"), BotSpec("blog-steward"), BotSpec("blog-smithy")]
BLOG_RULES = GameConfig(kingdom="blog", end_rule="provinces", tiebreak=False)
BLOG_REF = {"turns": 17.48, "shares": (0.412, 0.156, 0.286), "ties": 0.146}


CAPPED = [0, 0]  # capped games, games simulated


def sim(*args, **kwargs):
    """play_many, counting capped games for the report's statement about the cap."""
    res = play_many(*args, **kwargs)
    CAPPED[0] += int(res.capped.sum())
    CAPPED[1] += res.count
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


def two_player(games: int, seed: int, jobs: int) -> list[str]:
    rows = ["| figure | reference | ours | games |", "|---|---|---|---|"]
    r = sim([BM, BM], games, seed, jobs)
    tied = int((r.outcome == 0).all(axis=1).sum())
    rows.append(f"| Big Money mirror, tied games (fewer-turns tie-break) | about 1/3 | "
                f"{share_ci(tied, games)} | {games:,} |")
    first = to_match_result([BM, BM], r).per_seat["big-money"][0]
    rows.append(f"| Big Money mirror, first seat's score | - | {first.score:.3f} "
                f"({first.score_ci[0]:.3f}-{first.score_ci[1]:.3f}) | {games:,} |")
    for bot, ref in ((SBM, "93-95%"), (BMU, "-")):
        m = to_match_result([bot, BM], sim([bot, BM], games, seed, jobs))
        rec = m.per_bot[bot.name]
        lo, hi = rec.score_ci
        rows.append(f"| {bot.name} vs big-money, score (wins + ties/2) | {ref} | "
                    f"{pct(rec.score)} ({pct(lo)}-{pct(hi)}); W/T/L {rec.wins:,}/{rec.ties:,}/"
                    f"{rec.losses:,} | {games:,} |")
    rows.append(f"| mean game length, Big Money mirror (rounds) | - | {mean_ci(r.turns)} | "
                f"{games:,} |")
    return rows


def solo(games: int, seed: int, jobs: int) -> list[str]:
    rows = ["| bot | Provinces | reference turns | ours: mean turns (95% CI) | games |",
            "|---|---|---|---|---|"]
    cases = [
        (BM, 4, "about 17; 16.8 (published simulator); 18.4 (seed 001)"),
        (BM, 1, "9.5 (seed 001, one-Province game)"),
        (BotSpec("bm-with-copper", genome="province | gold | silver | copper"), 4,
         "18.4 (seed 001: 'highest valued treasure' also buys Copper)"),
        (BotSpec("bm-with-copper", genome="province | gold | silver | copper"), 1, "9.5"),
        (SBM, 4, "about 14"),
        (BotSpec("smithy-bm-plain", genome="province | gold | smithy:1 | smithy:2@cards>=16"
                 " | silver"), 4, "about 14"),
    ]
    for bot, prov, ref in cases:
        cfg = GameConfig(kingdom="default", solo_provinces=prov)
        r = sim([bot], games, seed, jobs, players=1, config=cfg)
        label = f"`{bot.genome}`".replace("|", "\\|") if bot.genome else bot.name
        rows.append(f"| {label} | {prov} | {ref} | {mean_ci(r.turns)} | {games:,} |")
    return rows


def stanford_target(games: int, seed: int, jobs: int) -> list[str]:
    rows = ["| bot vs big-money (seed 001 kingdom) | W / T / L per 1,000 | score (95% CI) |",
            "|---|---|---|", "| seed 001's learning agent (1,000 games) | 946 / 7 / 47 | 94.95% |"]
    for bot in (SBM, BotSpec("heuristic"), BMU):
        m = to_match_result([bot, BM], sim([bot, BM], games, seed, jobs))
        rec = m.per_bot[bot.name]
        per = [round(1000 * x / rec.games) for x in (rec.wins, rec.ties, rec.losses)]
        rows.append(f"| {bot.name} ({games:,} games) | {per[0]} / {per[1]} / {per[2]} | "
                    f"{pct(rec.score)} ({pct(rec.score_ci[0])}-{pct(rec.score_ci[1])}) |")
    return rows


def blog_row(label: str, bots: list[BotSpec], games: int, seed: int, jobs: int,
             rotate: bool) -> tuple[str, list[float]]:
    r = sim(bots, games, seed, jobs, rotate=rotate, config=BLOG_RULES)
    bo = r.bot_outcome()
    wins = [int((bo[:, b] == 1).sum()) for b in range(3)]
    ties = int((r.outcome == 0).any(axis=1).sum())
    turns = (r.plies // 3).mean()
    cells = " | ".join(share_ci(w, games) for w in wins)
    row = (f"| {label} | {games:,} | {turns:.2f} ({r.turns.mean():.2f}) | {cells} | "
           f"{share_ci(ties, games)} |")
    return row, [w / games for w in wins] + [ties / games]


def replica_row(games: int, seed: int) -> str:
    """The blog's seating played by the independent plain-Python model (blog_replica.py)."""
    counts, turns = _load(HERE / "blog_replica.py", "blog_replica").simulate(games, seed)
    cells = " | ".join(share_ci(c, games) for c in counts)
    return (f"| independent plain-Python model (`blog_replica.py`), blog's seating | {games:,} "
            f"| {turns:.2f} | {cells} |")


def blog(games: int, small: int, seed: int, jobs: int,
         replica: int) -> tuple[list[str], dict]:
    ref = BLOG_REF
    rows = ["| run | games | turns: plies//3 (rounds) | Big Money | Steward | Smithy | ties |",
            "|---|---|---|---|---|---|---|",
            f"| blog (seed 004), fixed seats | 1,000,000 | {ref['turns']} | "
            + " | ".join(pct(x) for x in ref["shares"]) + f" | {pct(ref['ties'])} |"]
    bars = {"blog": list(ref["shares"]) + [ref["ties"]]}
    for label, rot in (("ours, blog's seating (BM, Steward, Smithy)", False),
                       ("ours, seats rotated", True)):
        row, vals = blog_row(label, BLOG, games, seed, jobs, rot)
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
        rows.append(blog_row(label, bots, small, seed, jobs, False)[0])
    return rows, bars


def _load(path: Path, name: str):
    """A script of this repository loaded as a module (benchmarks/ and reports/ are folders
    of scripts, not packages)."""
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def performance(games: int, repeats: int = 3) -> list[str]:
    """The benchmark's figures: best of ``repeats`` runs, one job and two jobs."""
    bench = _load(HERE.parents[1] / "benchmarks" / "dominion.py", "dominion_benchmark")
    rows = ["| match-up | 1 job: games/s | 1 job: games per CPU-s | 2 jobs: games/s | "
            "2 jobs: games per CPU-s | speed-up |", "|---|---|---|---|---|---|"]
    for name in ("big-money mirror", "smithy-big-money vs big-money-ultimate"):
        bots = bench.MATCHUPS[name]
        play_many(bots, 2000, 1, 1)
        play_many(bots, 4000, 1, 2)
        one, t1, cpu1 = bench.best_rate(bots, games, 1, repeats)
        two, t2, cpu2 = bench.best_rate(bots, games, 2, repeats)
        rows.append(f"| {name} | {one:,.0f} | {cpu1:,.0f} | {two:,.0f} | {cpu2:,.0f} | "
                    f"{two / one:.2f} |")
    load = os.getloadavg()[0]
    own = bench.peak_kib() / 1024
    rows.append("")
    rows.append(f"{games:,} games per run, best of {repeats}; load average {load:.1f} on "
                f"{os.cpu_count()} cores at the end; peak memory {own:.0f} MiB (report "
                f"process), {bench.worker_peak_mib():.0f} MiB (largest worker).")
    return rows


def plot_blog(bars: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = ["Big Money", "Steward", "Smithy", "ties"]
    x = np.arange(len(labels))
    fig, ax = plt.subplots(figsize=(7, 3.6))
    width = 0.8 / len(bars)
    for i, (name, vals) in enumerate(bars.items()):
        ax.bar(x + (i - (len(bars) - 1) / 2) * width, vals, width, label=name)
    ax.set_xticks(x, labels)
    ax.set_ylabel("share of games")
    ax.set_title("Seed 004's 3-player table: the blog's figures and ours")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--blog-games", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--speed-games", type=int, default=200_000)
    ap.add_argument("--replica-games", type=int, default=100_000)
    args = ap.parse_args()
    t0 = time.perf_counter()
    g, s, j = args.games, args.seed, args.jobs
    two = two_player(g, s, j)
    so = solo(g, s, j)
    st = stanford_target(g // 2, s, j)
    bl, bars = blog(args.blog_games, g, s, j, args.replica_games)
    sp = performance(args.speed_games)
    plot_blog(bars, HERE / "blog_table.png")
    seconds = time.perf_counter() - t0
    text = (HERE / "template.md").read_text().format(
        two_player="\n".join(two), solo="\n".join(so), stanford="\n".join(st),
        blog="\n".join(bl), speed="\n".join(sp), games=f"{g:,}",
        blog_games=f"{args.blog_games:,}", seed=s, jobs=j, seconds=f"{seconds:.0f}",
        speed_games=args.speed_games, replica_games=args.replica_games,
        games_arg=g, blog_games_arg=args.blog_games, capped=f"{CAPPED[0]:,}",
        simulated=f"{CAPPED[1]:,}")
    (HERE / "README.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
