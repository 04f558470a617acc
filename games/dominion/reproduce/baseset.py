"""Dominion's base set checked against pyminion: every match-up of the shared plan (issue 28)
played in both engines, side by side (``tabletune reproduce dominion-baseset``).

Our engine plays through the game's public ``play`` with the named bots (a bot our engine
does not name yet plays its buy list in text form, the same strategy); pyminion plays the
same buy lists and default decisions (:mod:`games.dominion.crosscheck`). Both engines play
match-up ``m`` (0-based, in the plan's order) with root seed ``SEED + m``, seats rotated game
by game, on the run's worker pool, in blocks whose results do not depend on the pool. Each
row gives both engines' score rate of the first bot (wins + ties / 2) with its 95% Wilson
interval, the difference with Newcombe's interval, agree / disagree, and each engine's games
per CPU-second on those bots with the speed ratio. ``data.json`` holds everything; README.md
is written from it and the report folder's hand-written ``notes.md`` (the explanation of
every disagreement), so ``from_json`` rewrites the README from the data alone.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.blocks import map_blocks
from games.core import BotSpec, InputError
from games.dominion.crosscheck import (
    BOTS,
    EXTRA_MATCHUPS,
    MATCHUPS,
    kingdom_of,
    side_by_side,
    summary,
)
from games.outcomes import Outcomes
from games.reproduction import Settings, data_or_collect, say, text_file

FOLDER = "reports/dominion-baseset"
SEED: int | None = 2028
PARTS = ("all",)
SIZES = {"games": 100_000, "pyminion-games": 10_000, "calibration-games": 2_000}
PARAMS = False
BENCHMARK = False
#: Match-ups played once more with pyminion's own supply (every kingdom pile 10 cards; the
#: rulebook has 8 Gardens with two players), to show what that setup difference does.
STOCK_PILES: tuple[tuple[str, str], ...] = (("workshop-gardens", "big-money"),)
#: A disagreeing match-up is played again with root seed SEED + REPLAY + m and twice the
#: games in both engines: with twenty comparisons at 95%, about one misses 0 by chance.
REPLAY = 1000


def our_bot(name: str) -> tuple[BotSpec, str]:
    """Our engine's bot for a cross-check bot: the named bot when the game offers it (its
    buy list is the plan's, a test holds them equal), else the plan's buy list as text."""
    from games.dominion.game import GAME

    if name in GAME.bots():
        return GAME.parse_bot(name), "named"
    return GAME.parse_bot(BOTS[name]), "buy list"


def timed_ours(bots: Sequence[BotSpec], options: dict[str, Any], seed: int, start: int,
               count: int) -> tuple[Outcomes, float]:
    """One block of our engine's games and the CPU seconds of the thread that played it
    (after one untimed game, so loading the kernels is not counted)."""
    from games.dominion.game import GAME

    GAME.play(bots, options, seed, start, 1)
    c0 = time.thread_time()
    out = GAME.play(bots, options, seed, start, count)
    return out, time.thread_time() - c0


def timed_pyminion(bots: Sequence[str], seed: int, kingdom: Sequence[str], stock: bool,
                   start: int, count: int) -> tuple[Outcomes, float]:
    """One block of pyminion games and the CPU seconds of the thread that played it
    (``stock``: pyminion's own kingdom piles, 10 cards each)."""
    from games.dominion.crosscheck import play as play_pyminion

    c0 = time.thread_time()
    out = play_pyminion(bots, seed, start, count, kingdom=kingdom, stock_piles=stock)
    return out, time.thread_time() - c0


def calibration(games: int, seed: int) -> dict[str, float]:
    """pyminion's games per CPU-second in a Big Money mirror (no kingdom) with its own
    example bot and with our buy-list decider, on the same seeds: what the decider costs."""
    import random

    from games.core import game_seeds
    from games.dominion.crosscheck import CrossGame, big_money_pair, play_one

    out = {}
    for own, name in ((True, "pyminion_big_money"), (False, "buylist_big_money")):
        c0 = time.thread_time()
        for s in game_seeds(seed, games):
            players = big_money_pair(random.Random(int(s)), own)
            play_one(CrossGame(players, ()), 100)
        out[name] = games / (time.thread_time() - c0)
    return out


def _run(fn: Any, before: tuple, games: int, pool: Any) -> tuple[Outcomes, float]:
    parts = map_blocks(fn, before, games, pool=pool)
    return Outcomes.concat([o for o, _ in parts]), sum(s for _, s in parts)


def matchup_row(m: int, bots: tuple[str, str], settings: Settings, seed: int,
                stock: bool = False, extra: bool = False) -> dict[str, Any]:
    """Both engines on match-up ``m``: rates, difference, verdict and speed (``stock``:
    pyminion keeps its own 10-card kingdom piles; ``extra``: beyond the plan)."""
    from games.dominion.game import GAME

    kingdom = kingdom_of(bots)
    row: dict[str, Any] = {"bots": list(bots), "kingdom": list(kingdom), "seed": seed + m,
                           "stock_piles": stock, "extra": extra}
    theirs, their_cpu = _run(timed_pyminion, (list(bots), seed + m, kingdom, stock),
                             settings.n("pyminion-games"), settings.pool)
    try:
        specs = [our_bot(b) for b in bots]
        options = GAME.check_options({"kingdom": list(kingdom)})
        ours, our_cpu = _run(timed_ours, ([s for s, _ in specs], options, seed + m),
                             settings.n("games"), settings.pool)
    except InputError as exc:  # a card or bot our engine does not play yet
        row.update(ours_error=str(exc), pyminion=summary(theirs),
                   pyminion_games_per_s=theirs.count / their_cpu)
        return row
    row.update(side_by_side(ours, theirs))
    row["our_bots"] = [kind for _, kind in specs]
    row["ours_games_per_s"] = ours.count / our_cpu
    row["pyminion_games_per_s"] = theirs.count / their_cpu
    row["speed_ratio"] = row["ours_games_per_s"] / row["pyminion_games_per_s"]
    return row


def collect(settings: Settings) -> dict[str, Any]:
    """Every match-up in both engines; the data the README is written from."""
    s = SEED if settings.seed is None else settings.seed
    t0 = time.perf_counter()
    rows = []
    plan = [(m, bots, False, False) for m, bots in enumerate(MATCHUPS)]
    plan += [(MATCHUPS.index(bots), bots, True, False) for bots in STOCK_PILES]
    plan += [(len(MATCHUPS) + m, bots, False, True) for m, bots in enumerate(EXTRA_MATCHUPS)]
    twice = dataclasses.replace(settings, sizes={
        **settings.sizes, "games": 2 * settings.n("games"),
        "pyminion-games": 2 * settings.n("pyminion-games")})
    for m, bots, stock, extra in plan:
        rows.append(matchup_row(m, bots, settings, s, stock, extra))
        r = rows[-1]
        if "agree" in r and not r["agree"]:
            again = matchup_row(REPLAY + m, bots, twice, s, stock, extra)
            r["replay"] = {k: again[k] for k in ("seed", "ours", "pyminion", "difference",
                                                 "difference_ci95", "agree")}
            say(f"{' vs '.join(bots)} again (seed {again['seed']}): "
                f"{'agree' if again['agree'] else 'DISAGREE'}")
        verdict = ("agree" if r.get("agree") else "DISAGREE") if "agree" in r else "ours n/a"
        say(f"{' vs '.join(bots)}: {verdict}")
    calib = calibration(settings.n("calibration-games"), s)
    return {"settings": {"seed": s, "jobs": settings.jobs, **settings.sizes},
            "command": settings.command(), "seconds": time.perf_counter() - t0,
            "pyminion": _pyminion_version(), "rows": rows, "calibration": calib}


def _pyminion_version() -> str:
    from importlib.metadata import version

    return version("pyminion")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(lo: float, hi: float, signed: bool = False) -> str:
    f = (lambda x: f"{100 * x:+.1f}") if signed else (lambda x: f"{100 * x:.1f}")
    return f"[{f(lo)}, {f(hi)}]"


def _rate(r: dict[str, Any]) -> str:
    return f"{_pct(r['score'])} {_ci(*r['ci95'])}"


def tables(rows: Sequence[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """The comparison table of ``rows`` and their table of game shapes (rounds, ties,
    capped games)."""
    main = ["| match-up (score of the first bot) | kingdom | ours | pyminion | difference "
            "| verdict | ours games/s | pyminion games/s | ratio |",
            "|---|---|---|---|---|---|---|---|---|"]
    shape = ["| match-up | ours: mean rounds | pyminion: mean rounds | ours: ties "
             "| pyminion: ties | capped (ours / pyminion) |", "|---|---|---|---|---|---|"]
    for r in rows:
        name = " vs ".join(r["bots"])
        if r.get("stock_piles"):
            name += " (pyminion's stock piles: 10 Gardens)"
        kingdom = ", ".join(r["kingdom"])
        if "ours_error" in r:
            main.append(f"| {name} | {kingdom} | not played: {r['ours_error']} "
                        f"| {_rate(r['pyminion'])} | | | | "
                        f"{r['pyminion_games_per_s']:,.0f} | |")
            continue
        lo, hi = r["difference_ci95"]
        main.append(f"| {name} | {kingdom} | {_rate(r['ours'])} | {_rate(r['pyminion'])} "
                    f"| {100 * r['difference']:+.1f} {_ci(lo, hi, True)} "
                    f"| {_verdict(r)} "
                    f"| {r['ours_games_per_s']:,.0f} | {r['pyminion_games_per_s']:,.0f} "
                    f"| {r['speed_ratio']:,.0f}x |")
        o, p = r["ours"], r["pyminion"]
        shape.append(f"| {name} | {o['mean_rounds']:.2f} | {p['mean_rounds']:.2f} "
                     f"| {_pct(o['tie_share'])} | {_pct(p['tie_share'])} "
                     f"| {o['capped']} / {p['capped']} |")
    return main, shape


def _verdict(r: dict[str, Any]) -> str:
    if r["agree"]:
        return "agree"
    if "replay" not in r:
        return "**disagree**"
    return f"**disagree**; replay: {'agree' if r['replay']['agree'] else '**disagree**'}"


def replays(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The table of the replayed disagreements (fresh seeds, twice the games)."""
    out = ["| match-up | seed | ours | pyminion | difference | verdict |",
           "|---|---|---|---|---|---|"]
    for r in rows:
        if "replay" not in r:
            continue
        a = r["replay"]
        name = " vs ".join(r["bots"]) + (" (pyminion's stock piles)" if r["stock_piles"]
                                         else "")
        out.append(f"| {name} | {a['seed']} | {_rate(a['ours'])} ({a['ours']['games']:,}) "
                   f"| {_rate(a['pyminion'])} ({a['pyminion']['games']:,}) "
                   f"| {100 * a['difference']:+.1f} {_ci(*a['difference_ci95'], True)} "
                   f"| {'agree' if a['agree'] else '**disagree**'} |")
    return out


def readme_text(data: dict[str, Any], notes: str | None) -> str:
    """The report: how it was made, the two tables, then the hand-written notes."""
    st, rows = data["settings"], data["rows"]
    main, shape = tables([r for r in rows if not r.get("extra")])
    more, more_shape = tables([r for r in rows if r.get("extra")])
    played = [r for r in rows if "agree" in r and not r["stock_piles"] and not r["extra"]]
    others = [r for r in rows if "agree" in r and r["extra"]]
    agree = sum(r["agree"] for r in played)
    settled = sum(r["agree"] or r.get("replay", {}).get("agree", False) for r in played)
    ratios = [r["speed_ratio"] for r in played]
    cal = data["calibration"]
    speed = (f"Our engine is {min(ratios):,.0f}x to {max(ratios):,.0f}x faster per CPU-second "
             "on the same bots (median "
             f"{sorted(ratios)[len(ratios) // 2]:,.0f}x)." if ratios else "")
    calib = (f"pyminion's speed includes our buy-list decider: in a Big Money mirror it "
             f"plays {cal['buylist_big_money']:,.0f} games/s with it and "
             f"{cal['pyminion_big_money']:,.0f} with pyminion's own BigMoney bot "
             f"({st['calibration-games']:,} games each, same seeds).")
    lines = [
        "# Dominion base set: our engine against pyminion",
        "",
        f"Made by `{data['command']}` (seed {st['seed']}; pyminion {data['pyminion']}; "
        f"{data['seconds']:.0f} s on {st['jobs']} job(s)). Every match-up is played "
        f"{st['games']:,} times by our engine and {st['pyminion-games']:,} times by "
        "pyminion, two players, seats rotated game by game; match-up m (0-based, in the "
        f"order below) uses root seed {st['seed']} + m in both engines. The kingdom of a "
        "match-up is the kingdom cards its bots buy; both engines use the rulebook's supply "
        "(Victory piles of 8, Curses 10).",
        "",
        "The community's standard bots and the tuned and evolved strategies on one attack "
        "kingdom are in [attack/](attack/) (`tabletune reproduce dominion-attack`); the "
        "learned player trained there is in [learned-attack.md](learned-attack.md).",
        "",
        "A score is wins + ties / 2 over games, with its 95% Wilson interval (a tie counts "
        "as half a win, so the interval is a little wide where ties are many); the difference "
        "(ours - pyminion) has Newcombe's 95% interval built from the two, and the engines "
        "agree when it contains 0. Speed is games per CPU-second of the thread that played "
        f"(one core), on the same bots. {calib}",
        "",
        f"**{agree} of {len(played)} match-ups agree** (the rulebook's supply in both "
        f"engines); **{settled} of {len(played)} agree at first or on a replay** with fresh "
        f"seeds and twice the games. {speed}",
        "",
        *main,
        "",
        "## Every other card of the base set",
        "",
        "Beyond the plan's match-ups, these buy-list bots (our engine plays their buy lists "
        "as text) buy between them every kingdom card the plan's bots leave out, so every "
        "card of the base set is played in both engines: "
        f"**{sum(r['agree'] for r in others)} of {len(others)} agree.**",
        "",
        *more,
        "",
        "## Replays of the disagreements",
        "",
        f"Each disagreement above is played again with root seed {st['seed']} + "
        f"{REPLAY} + m and twice the games in both engines (games in brackets).",
        "",
        *(replays(rows) if any("replay" in r for r in rows) else ["No disagreement."]),
        "",
        "## Shape of the games",
        "",
        "Rounds are the first player's turns; ties are shared first places; capped games "
        "hit 100 rounds.",
        "",
        *shape,
        *more_shape[2:],
        "",
    ]
    if notes:
        lines += [notes.rstrip(), ""]
    return "\n".join(lines)


def reproduce(out_dir: Path, settings: Settings) -> list[Path]:
    """Play every match-up in both engines (or read data.json with ``from_json``); write
    data.json and README.md."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    data, written = data_or_collect(out_dir, settings, collect)
    notes = text_file(out_dir, "notes.md", FOLDER)
    (out_dir / "README.md").write_text(
        readme_text(data, notes.read_text(encoding="utf-8") if notes else None),
        encoding="utf-8")
    return written + [out_dir / "README.md"]
