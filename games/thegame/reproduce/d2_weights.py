"""Depth-2 evidence for The Game's penalty weights: weights tuned at d = 0 replayed at d = 2.

The d = 2 study (studies/thegame-penalty-d2.toml) needs about 100,000 d = 2 games; where
that is out of reach, this measures what transfers: the d = 0 winner's weights (``--param``)
at d = 2 on the deals of the reproduction's d = 2 row (root seed 2021, games 0..N-1, the
same deals as the seed-parameter figure in reports/thegame/), so both figures share their
deals. Games start..start+games-1 are saved in chunk-START.json, so separate processes can
play separate ranges of deals; the README merges every chunk (wins, cards left and games
add up) and appends the report folder's hand-written notes.md.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from games.blocks import map_blocks
from games.core import InputError, wilson_interval
from games.reproduction import Settings, read_json, text_file
from games.thegame import build_params, play_block, summarize
from games.thegame._simulate import GameBatch

FOLDER = "reports/thegame-penalty-d2/d0-weights"
SEED: int | None = None  # 2021: the d = 2 row of reports/thegame (its seed + 2)
DEALS_SEED = 2021
PARTS = ("chunk",)
SIZES = {"games": 10_000, "start": 0}
PARAMS = True
BENCHMARK = False


def _pct(r: dict) -> str:
    lo, hi = r["win_rate_ci"]
    return f"{100 * r['win_rate']:.2f} ({100 * lo:.2f}-{100 * hi:.2f})"


def readme_text(res: dict, notes: str | None) -> str:
    """README.md from the merged chunks (the seed parameters' figure on the same deals is
    the d = 2 row of reports/thegame, quoted in notes.md)."""
    rows = [("tuned at d = 0 (" + ", ".join(f"{k}={v}" for k, v in res["params"].items())
             + ")", res["tuned"])]
    lines = [
        "# The Game: penalty weights at search depth 2",
        "",
        "Recovery with fallback, solo, d = 2. Seed 002: 29.7% wins, 7.1 cards left over "
        "10,000 games. Win % with 95% Wilson intervals.",
        "",
        "| weights | games | win % | cards left | under 10 cards | games/s (1 process) |",
        "|---|---|---|---|---|---|",
    ]
    for label, r in rows:
        lines.append(f"| {label} | {r['games']:,} | {_pct(r)} | {r['mean_cards_left']:.2f} | "
                     f"{100 * r['under_10_rate']:.1f}% | {r['games_per_second']:.1f} |")
    lines += ["", "Deals of the tuned row: games " + ", ".join(
        f"{a}..{b - 1}" for a, b in res["tuned"]["ranges"]) + f" of root seed {res['seed']}.",
              "", "Commands: " + "; ".join(f"`{c}`" for c in res["commands"])]
    if notes:
        lines += ["", notes.strip()]
    return "\n".join(lines) + "\n"


def merge(chunks: list[dict]) -> dict:
    """One summary of several chunks of games (counts and sums add up)."""
    games = sum(c["games"] for c in chunks)
    wins = sum(c["wins"] for c in chunks)
    seconds = sum(c["seconds"] for c in chunks)
    starts = sorted((c["start"], c["start"] + c["games"]) for c in chunks)
    return {"games": games, "wins": wins, "win_rate": wins / games,
            "win_rate_ci": list(wilson_interval(wins, games)),
            "mean_cards_left": sum(c["cards_left_sum"] for c in chunks) / games,
            "under_10_rate": sum(c["under_10"] for c in chunks) / games,
            "games_per_second": games / seconds if seconds > 0 else float("nan"),
            "ranges": starts}


def play_chunk(out_dir: Path, settings: Settings) -> Path:
    """Play games start..start+games-1 with the given weights; save chunk-START.json."""
    if not settings.params:
        raise InputError("thegame-d2-weights needs the weights: --param name=value ...")
    params = build_params("recovery-fallback", dict(settings.params))  # checks names, ranges
    values = {k: getattr(params, k) for k in settings.params}
    start, games, pool = settings.n("start"), settings.n("games"), settings.pool
    t0 = time.perf_counter()
    batch = GameBatch.concat(map_blocks(play_block, ("recovery-fallback", values, 2, DEALS_SEED),
                                        games, pool=pool, start=start,
                                        block=max(100, games // (8 * pool.jobs))))
    chunk = summarize(batch, time.perf_counter() - t0)
    chunk.update({"start": start, "params": values,
                  "under_10": int((batch.cards_left < 10).sum()),
                  "cards_left_sum": int(batch.cards_left.sum()),
                  "command": settings.command()})
    path = out_dir / f"chunk-{start}.json"
    path.write_text(json.dumps(chunk, indent=1), encoding="utf-8")
    return path


def reproduce(out_dir: Path, settings: Settings) -> list[Path]:
    """Play one chunk (none with ``from_json``), then write README.md from every chunk."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = [] if settings.from_json else [play_chunk(out_dir, settings)]
    chunks = [read_json(p) for p in sorted(out_dir.glob("chunk-*.json"))]
    if not chunks:
        raise InputError(f"no chunk-*.json in {out_dir} (run without --from-json first)")
    res = {"seed": DEALS_SEED, "params": chunks[0]["params"], "tuned": merge(chunks),
           "commands": [c["command"] for c in chunks]}
    notes = text_file(out_dir, "notes.md", FOLDER)
    text = readme_text(res, notes.read_text(encoding="utf-8") if notes else None)
    (out_dir / "README.md").write_text(text, encoding="utf-8")
    return written + [out_dir / "README.md"]
