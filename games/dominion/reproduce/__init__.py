"""The reference figures of the Dominion sources (spec, seed 001, seed 004) side by side with
this engine's: data.json, README.md and blog_table.png.

Every figure is a real simulation with the stated number of games and seed, played by the
game's ``play`` in blocks over the run's worker pool (``settings.pool``); results are
identical for a seed whatever ``jobs`` is. The README is the report folder's hand-written
template.md with the tables filled in, so ``from_json`` rewrites it from data.json alone.
"""

from __future__ import annotations

import time
from pathlib import Path

from games.core import InputError
from games.reproduction import Settings, data_or_collect, text_file

FOLDER = "reports/dominion"
SEED: int | None = 2024
PARTS = ("all",)
SIZES = {"games": 200_000, "blog-games": 1_000_000, "speed-games": 200_000,
         "replica-games": 100_000}
PARAMS = False
BENCHMARK = False
TABLES = ("two_player", "solo", "stanford", "blog", "speed")


def collect(settings: Settings) -> dict:
    """Play every table; the data the README and the figure are written from."""
    from games.dominion.reproduce import _tables as tables

    t0 = time.perf_counter()
    g, j = settings.n("games"), settings.jobs
    s = SEED if settings.seed is None else settings.seed
    tally = tables.Tally(settings.pool)
    rows = {"two_player": tables.two_player(tally, g, s), "solo": tables.solo(tally, g, s),
            "stanford": tables.stanford_target(tally, g // 2, s)}
    rows["blog"], bars = tables.blog(tally, settings.n("blog-games"), g, s,
                                     settings.n("replica-games"))
    rows["speed"] = tables.performance(settings.n("speed-games"), settings.open_pool)
    return {"settings": {"seed": s, "jobs": j, **settings.sizes},
            "seconds": time.perf_counter() - t0,
            "capped": tally.capped, "simulated": tally.simulated, "tables": rows, "bars": bars}


def readme_text(data: dict, template: str) -> str:
    """The template with the tables and settings of ``data`` filled in."""
    st, rows = data["settings"], data["tables"]
    return template.format(
        **{name: "\n".join(rows[name]) for name in TABLES},
        games=f"{st['games']:,}", blog_games=f"{st['blog-games']:,}", seed=st["seed"],
        jobs=st["jobs"], seconds=f"{data['seconds']:.0f}", speed_games=st["speed-games"],
        replica_games=st["replica-games"], games_arg=st["games"],
        blog_games_arg=st["blog-games"], capped=f"{data['capped']:,}",
        simulated=f"{data['simulated']:,}")


def plot_blog(bars: dict, path: Path) -> None:
    """Bar chart of seed 004's table: the blog's shares and ours."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

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


def reproduce(out_dir: Path, settings: Settings) -> list[Path]:
    """Simulate every table (or read data.json with ``from_json``); write README.md."""
    out_dir = Path(out_dir)
    template = text_file(out_dir, "template.md", FOLDER)
    if template is None:
        raise InputError(f"template.md not found in {out_dir} or {FOLDER}")
    out_dir.mkdir(parents=True, exist_ok=True)
    data, written = data_or_collect(out_dir, settings, collect)
    if not settings.from_json:
        plot_blog(data["bars"], out_dir / "blog_table.png")
        written.append(out_dir / "blog_table.png")
    (out_dir / "README.md").write_text(readme_text(data, template.read_text(encoding="utf-8")),
                                       encoding="utf-8")
    return written + [out_dir / "README.md"]
