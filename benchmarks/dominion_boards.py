"""The ladder of boards: `tabletune board`'s strategy on many random base-set kingdoms, each
scored against Big Money Ultimate, the best community bot that fits the board, and Double
Witch and Double Witch Ultimate where Witch is on it (reports/dominion-boards/).

    python benchmarks/dominion_boards.py                              # 100 boards, 5 min each
    python benchmarks/dominion_boards.py --boards 100 --only 0-9 --minutes 2 --jobs 2
    python benchmarks/dominion_boards.py --backend dask --address tcp://HOST:8786
    python benchmarks/dominion_boards.py --summary                    # tables from what exists

The boards are ``random:N`` kingdoms, N drawn from ``--seed`` (listed in boards.json, which
is written once and then only read). Each board runs the board optimiser (its search,
selection and confirmation, ``--minutes`` and ``--games`` per ladder bot; the games on this
machine's workers or a Dask/Ray cluster) into ``boards/<index>/``; a board whose result is
there is skipped, so a stopped run continues where it stopped (a board stopped mid-search
continues its search). Then the community bots that fit the board play a round robin
(``--robin-games`` per pair, seats rotated) to name the best of them, and ``learned-general``
is scored against Big Money Ultimate where the game has it. README.md, index.html,
summary.json and scores.png are written from every finished board after each one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from statistics import fmean
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.core import InputError, game_seeds  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "reports" / "dominion-boards"
GOALS = {"bmu_mean": 0.85, "bmu_min": 0.60, "community": 0.55, "community_boards": 0.90,
         "dw": 0.70, "dwu": 0.60, "learned_bmu_mean": 0.80}


def board_list(out: Path, boards: int, seed: int) -> list[dict[str, Any]]:
    """The boards of the run (boards.json: written once from the seed, then only read)."""
    from games.dominion.board import BOARD

    path = out / "boards.json"
    if path.exists():
        listed = json.loads(path.read_text())
        if listed["seed"] != seed or len(listed["boards"]) < boards:
            raise InputError(f"{path} lists {len(listed['boards'])} boards of seed "
                             f"{listed['seed']}; give that seed, or another --out")
        return listed["boards"][:boards]
    draws = [int(s) % 2**32 for s in game_seeds(seed, boards)]
    rows = [{"index": i, "board": f"random:{n}", "kingdom": list(BOARD.board(f"random:{n}"))}
            for i, n in enumerate(draws)]
    out.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"seed": seed, "boards": rows}, indent=1) + "\n")
    return rows


def round_robin(kingdom: list[str], games: int, seed: int) -> dict[str, float]:
    """Each fitting community bot's mean score against the others (seats rotated)."""
    from games.dominion.board import BOARD
    from games.dominion.game import GAME

    names = [n for n in BOARD.community(tuple(kingdom))]
    options = GAME.check_options({"kingdom": ",".join(kingdom)})
    total = {n: [] for n in names}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            out = GAME.play([GAME.parse_bot(a), GAME.parse_bot(b)], options, seed, 0, games)
            o = out.bot_outcome()
            score = float(((o[:, 0] == 1) + 0.5 * (o[:, 0] == 0)).mean())
            total[a].append(score)
            total[b].append(1.0 - score)
    return {n: sum(v) / len(v) for n, v in total.items() if v}


def learned_row(kingdom: list[str], games: int, seed: int) -> dict[str, Any] | None:
    """``learned-general`` against Big Money Ultimate, where the game offers that bot."""
    from games.core import wilson_interval
    from games.dominion.game import GAME

    try:
        bot = GAME.parse_bot("learned-general")
    except InputError:  # a version without the general model
        return None
    options = GAME.check_options({"kingdom": ",".join(kingdom)})
    out = GAME.play([bot, GAME.parse_bot("big-money-ultimate")], options, seed, 0, games)
    o = out.bot_outcome()[:, 0]
    wins, ties = int((o == 1).sum()), int((o == 0).sum())
    score = (wins + 0.5 * ties) / games
    return {"score": score, "score_ci": list(wilson_interval(wins + 0.5 * ties, games)),
            "games": games}


def run_board(row: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """One board: the optimiser (or its stored result), the round robin, learned-general."""
    from tuning._board import BoardRequest, find

    where = args.out / "boards" / f"{row['index']:03d}"
    result_path = where / "result.json"
    if result_path.exists():
        result = json.loads(result_path.read_text())
    else:
        req = BoardRequest("dominion", row["board"], args.minutes, args.jobs,
                           args.seed + row["index"], args.games, where,
                           resume=(where / "search.ckpt").exists(), backend=args.backend,
                           address=args.address)
        result = find(req, progress=lambda line: print(f"  [{row['index']}] {line}",
                                                        file=sys.stderr))
        for name in ("search.ckpt", "search.log"):  # the result is kept; the search is done
            (where / name).unlink(missing_ok=True)
    extra_path = where / "ladder_extra.json"
    if extra_path.exists():
        extra = json.loads(extra_path.read_text())
    else:
        robin = round_robin(row["kingdom"], args.robin_games, args.seed + 7919 * row["index"])
        extra = {"robin": robin, "best_community": max(robin, key=robin.__getitem__),
                 "learned_general": learned_row(row["kingdom"], args.games,
                                                args.seed + 104729 * row["index"])}
        extra_path.write_text(json.dumps(extra, indent=1) + "\n")
        from tuning.reporting._readme_page import render_page
        (where / "index.html").write_text(render_page(where), encoding="utf-8")  # its files
    return {**row, "result": result, **extra}


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The goals' figures over the finished boards."""
    def vs(r: dict[str, Any], name: str) -> float | None:
        got = r["result"]["ladder"].get(name)
        return None if got is None else got["score"]

    bmu = [vs(r, "big-money-ultimate") for r in rows]
    community = [vs(r, r["best_community"]) for r in rows]
    dw = [vs(r, "double-witch") for r in rows if "witch" in r["kingdom"]]
    dwu = [vs(r, "double-witch-ultimate") for r in rows if "witch" in r["kingdom"]]
    learned = [r["learned_general"]["score"] for r in rows if r.get("learned_general")]
    n = max(1, len(rows))
    return {"boards": len(rows), "bmu_mean": sum(bmu) / n if rows else None,
            "bmu_min": min(bmu) if rows else None,
            "community_at_least": sum(1 for c in community if c >= GOALS["community"]),
            "witch_boards": len(dw), "dw_min": min(dw) if dw else None,
            "dwu_min": min(dwu) if dwu else None,
            "learned_bmu_mean": sum(learned) / len(learned) if learned else None,
            "seconds_mean": sum(r["result"]["seconds"] for r in rows) / n if rows else None}


def bought(text: str, kingdom: list[str]) -> set[str]:
    """The kingdom cards a strategy's buy list names (its plan: treasures, Victory cards,
    gains and play order left aside)."""
    from games.dominion._strategy import parse_strategy

    return {c for c in parse_strategy(text).buylist.cards if c in kingdom}


def misses(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each board and opponent where a per-board goal is missed: by how much, whether the
    goal lies inside the score's 95% interval, and why, as far as the result shows it (the
    found strategy's plan against the opponent's: the same kingdom cards make a near-mirror,
    decided by buy rules alone)."""
    from games.dominion._named_bots import NAMED

    out = []
    for r in rows:
        lad = r["result"]["ladder"]
        goals = [(r["best_community"], GOALS["community"], "best community bot")]
        if "witch" in r["kingdom"]:
            goals += [("double-witch", GOALS["dw"], "Double Witch"),
                      ("double-witch-ultimate", GOALS["dwu"], "Double Witch Ultimate")]
        goals += [("big-money-ultimate", GOALS["bmu_min"], "Big Money Ultimate")]
        seen = set()
        for name, goal, what in goals:
            got = lad.get(name)
            if got is None or got["score"] >= goal or name in seen:
                continue
            seen.add(name)
            ours = bought(r["result"]["strategy"], r["kingdom"])
            theirs = bought(NAMED[name][0], r["kingdom"]) if name in NAMED else None
            if theirs is None:
                why = "the opponent is not a buy list; no plan to compare"
            elif ours == theirs:
                why = ("the same plan as the opponent (" + (", ".join(sorted(ours)) or
                       "money only") + "): a near-mirror that buy rules alone decide; the "
                       "search found no card of this board that beats it by more")
            else:
                why = (f"a different plan ({', '.join(sorted(ours)) or 'money only'} against "
                       f"{', '.join(sorted(theirs)) or 'money only'}) that still falls short")
            out.append({"board": r["index"], "goal": what, "opponent": name,
                        "target": goal, "score": got["score"], "score_ci": got["score_ci"],
                        "short_by": goal - got["score"],
                        "within_noise": got["score_ci"][1] >= goal, "why": why})
    return out


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _mean_note(rows: list[dict[str, Any]]) -> list[str]:
    """When the mean against Big Money Ultimate is under its goal: by how much, and how it
    splits between boards with Witch and the others (a board's share of Witch boards moves
    the mean most)."""
    score = {r["index"]: r["result"]["ladder"]["big-money-ultimate"]["score"] for r in rows}
    if not score or fmean(list(score.values())) >= 0.85:
        return []
    witch = [score[r["index"]] for r in rows if "witch" in r["kingdom"]]
    other = [score[r["index"]] for r in rows if "witch" not in r["kingdom"]]
    mean = float(fmean(list(score.values())))
    low = sorted(score, key=score.get)[:5]
    return ["", f"The mean against Big Money Ultimate, {100 * mean:.1f}%, is "
            f"{100 * (0.85 - mean):.1f} points under the 85% goal. On the {len(witch)} boards "
            f"with Witch it is {100 * fmean(witch):.1f}%, on the {len(other)} others "
            f"{100 * fmean(other) if other else float('nan'):.1f}%, so the mean rises and "
            "falls with the share of Witch boards; the lowest boards: "
            + ", ".join(f"{i} ({100 * score[i]:.1f}%)" for i in low) + "."]


def write_report(out: Path, rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """README.md, summary.json and scores.png from the finished boards."""
    s = summary(rows)
    learned_done = s["learned_bmu_mean"] is not None
    missed = misses(rows)
    (out / "summary.json").write_text(json.dumps({"summary": s, "goals": GOALS,
                                                  "misses": missed, "boards": rows},
                                                 indent=1) + "\n")
    lines = ["# What wins on this board: a ladder of random base-set boards", "",
             f"{s['boards']} of the boards listed in boards.json (seed {args.seed}) are done; "
             "each row is `tabletune board`'s strategy confirmed on fresh seeds "
             "(games per ladder bot as its result says, seats rotated).", "",
             "| goal | measured |", "|---|---|",
             f"| mean >= 85% against Big Money Ultimate | {_pct(s['bmu_mean'])} |",
             f"| no board below 60% against Big Money Ultimate | lowest {_pct(s['bmu_min'])} |",
             f"| >= 55% against the best community bot on 90 of 100 | "
             f"{s['community_at_least']} of {s['boards']} |",
             f"| >= 70% against Double Witch on every Witch board | lowest {_pct(s['dw_min'])} "
             f"({s['witch_boards']} boards) |",
             f"| >= 60% against Double Witch Ultimate on every Witch board | lowest "
             f"{_pct(s['dwu_min'])} |",
             f"| learned-general: mean >= 80% against Big Money Ultimate | "
             f"{_pct(s['learned_bmu_mean']) if learned_done else 'no model yet'} |",
             f"| at most 5 minutes a board on 2 cores | mean "
             f"{(s['seconds_mean'] or 0) / 60:.1f} min |", "",
             "| # | kingdom | vs BMU | best community bot | vs it | vs DW | vs DWU | strategy |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lad = r["result"]["ladder"]
        best = r["best_community"]

        def cell(name: str, lad: dict[str, Any] = lad) -> str:
            got = lad.get(name)
            return "-" if got is None else (f"{100 * got['score']:.1f}% "
                                            f"[{100 * got['score_ci'][0]:.1f}, "
                                            f"{100 * got['score_ci'][1]:.1f}]")
        text = r["result"]["strategy"].replace("|", "\\|")
        lines.append(f"| {r['index']} | {', '.join(r['kingdom'])} | "
                     f"{cell('big-money-ultimate')} | {best} | {cell(best)} | "
                     f"{cell('double-witch')} | {cell('double-witch-ultimate')} | `{text}` |")
    if missed:
        lines += ["", "## Where a goal is missed", "",
                  "Per board and opponent: the goal, the score with its 95% interval, the "
                  "shortfall, and what the result shows of why (the kingdom cards each buy "
                  "list names).", "",
                  "| # | against | goal | score | short by | why |", "|---|---|---|---|---|---|"]
        for m in missed:
            noise = " (goal inside the interval)" if m["within_noise"] else ""
            lines.append(f"| {m['board']} | {m['opponent']} | {100 * m['target']:.0f}% | "
                         f"{100 * m['score']:.1f}% [{100 * m['score_ci'][0]:.1f}, "
                         f"{100 * m['score_ci'][1]:.1f}] | {100 * m['short_by']:.1f} "
                         f"points{noise} | {m['why']} |")
    lines += _mean_note(rows)
    lines += ["", "Made by:", "",
              f"    python benchmarks/dominion_boards.py --boards {args.boards} --seed "
              f"{args.seed} --minutes {args.minutes:g} --jobs {args.jobs} --games "
              f"{args.games} --robin-games {args.robin_games}", ""]
    (out / "README.md").write_text("\n".join(lines))
    _plot(out, rows)
    from tuning.reporting._readme_page import render_page
    (out / "index.html").write_text(render_page(out), encoding="utf-8")


def _plot(out: Path, rows: list[dict[str, Any]]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.5))
    for name, label in (("big-money-ultimate", "vs Big Money Ultimate"),
                        ("double-witch-ultimate", "vs Double Witch Ultimate")):
        xs = [r["index"] for r in rows if name in r["result"]["ladder"]]
        ys = [r["result"]["ladder"][name]["score"] for r in rows
              if name in r["result"]["ladder"]]
        ax.plot(xs, ys, "o", label=label)
    xs = [r["index"] for r in rows]
    ax.plot(xs, [r["result"]["ladder"][r["best_community"]]["score"] for r in rows], "s",
            label="vs the best community bot")
    ax.axhline(0.5, color="grey", lw=0.8)
    ax.set_xlabel("board")
    ax.set_ylabel("score of the found strategy")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "scores.png", dpi=110)
    plt.close(fig)


def _indices(text: str | None, boards: int) -> list[int]:
    if not text:
        return list(range(boards))
    lo, _, hi = text.partition("-")
    return list(range(int(lo), min(boards, int(hi or lo) + 1)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--minutes", type=float, default=5.0, help="budget of each board")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--games", type=int, default=20_000, help="games per ladder bot")
    ap.add_argument("--robin-games", type=int, default=2_000, help="games per pair of "
                                                                   "community bots")
    ap.add_argument("--backend", default="loky", choices=("loky", "dask", "ray"))
    ap.add_argument("--address", default=None)
    ap.add_argument("--only", default=None, help="boards I-J of the list (default: all)")
    ap.add_argument("--summary", action="store_true", help="only rewrite the report")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    try:
        listed = board_list(args.out, args.boards, args.seed)
        # every finished board is in each report, also those this run has not reached
        done: dict[int, dict[str, Any]] = {
            row["index"]: run_board(row, args) for row in listed
            if (args.out / "boards" / f"{row['index']:03d}" / "result.json").exists()
            and (args.out / "boards" / f"{row['index']:03d}" / "ladder_extra.json").exists()}
        wanted = [] if args.summary else _indices(args.only, args.boards)
        for row in listed:
            if row["index"] not in wanted:
                continue
            t0 = time.monotonic()
            print(f"board {row['index']} of {len(listed)}: {', '.join(row['kingdom'])}",
                  file=sys.stderr)
            try:
                done[row["index"]] = run_board(row, args)
            except InputError as exc:  # one board's failure is reported, the rest go on
                print(f"board {row['index']}: failed: {exc}", file=sys.stderr)
                continue
            print(f"board {row['index']}: done in {time.monotonic() - t0:.0f} s",
                  file=sys.stderr)
            write_report(args.out, [done[i] for i in sorted(done)], args)
        write_report(args.out, [done[i] for i in sorted(done)], args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    except KeyboardInterrupt:
        print("stopped: finished boards are kept; run the same command again to continue",
              file=sys.stderr)
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
