"""What a learned model values, in words: the worth of one more copy of each card by game
stage, the strongest single features, and the learning curve of a run, as Markdown.

    python -m games.dominion.learning.explain --model runs/dominion-learned/model.npz \
        [--run runs/dominion-learned/train.json]
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from games.dominion._cards import CARDS, INDEX, IS_ACTION, IS_TREASURE, KINGDOM_KEYS, VP
from games.dominion._feature_names import describe
from games.dominion._features import (
    NCOUNT,
    NGAINS,
    NPROV,
    NSTAGE,
    OFF_CARD,
    R_LEADG,
    R_LEADP,
    SOURCES,
    Layout,
    layout_of,
    slot_cards,
)
from games.dominion._learned import load_model

STAGES = (0, 2, 4, 6)  # turns 1-3, 7-9, 13-15, 19-21


START = {"copper": 7, "estate": 3}  # copies in the starting deck


def card_worth(w: np.ndarray, card: int, stage: int, upto: int = 3,
               slots: np.ndarray | None = None) -> float:
    """Mean value of one more copy, for the first ``upto`` copies bought (beyond the starting
    deck) at a stage, card features only (money, lead and endgame features add to it);
    ``slots``: the card of each slot of the model's layout (the sources' when not given)."""
    slot = card if slots is None else int(np.flatnonzero(slots == card)[0])
    base = OFF_CARD + slot * NCOUNT * NSTAGE
    first = START.get(CARDS[card].key, 0)
    vals = [w[base + (k + 1) * NSTAGE + stage] - w[base + k * NSTAGE + stage]
            for k in range(first, min(first + upto, NCOUNT - 1))]
    return float(np.mean(vals))


def pure_victory(card: int) -> bool:
    """Estate, Duchy, Province: no count feature of their own (they act through the lead)."""
    return VP[card] > 0 and not IS_ACTION[card] and not IS_TREASURE[card]


def worth_table(w: np.ndarray, kingdom: tuple[str, ...], slots: np.ndarray | None = None
                ) -> list[str]:
    cards = [k for k in ("copper", "silver", "gold", *kingdom)
             if not pure_victory(INDEX[k])]
    head = "| card | " + " | ".join(f"turns {3 * s + 1}-{3 * s + 3}" for s in STAGES) + " |"
    out = [head, "|---|" + "---|" * len(STAGES)]
    for key in cards:
        c = INDEX[key]
        out.append(f"| {CARDS[c].name} | " + " | ".join(
            f"{card_worth(w, c, s, slots=slots):+.3f}" for s in STAGES) + " |")
    return out


def lead_table(w: np.ndarray, leads: tuple[int, ...] = (-9, -6, -3, 0, 3, 6, 9),
               provinces: tuple[int, ...] = (8, 6, 4, 2, 1), layout: Layout = SOURCES
               ) -> list[str]:
    """Worth of a VP lead by Provinces left (the lead-by-Provinces weight plus the
    lead-by-gains weight with as many gains left as Provinces), relative to a lead of 0."""
    out = ["| Provinces left | " + " | ".join(f"lead {x:+d}" for x in leads) + " |",
           "|---|" + "---|" * len(leads)]

    def val(lead: int, prov: int) -> float:
        leadp, leadg = layout.base + R_LEADP, layout.base + R_LEADG
        return (w[leadp + (lead + 15) * NPROV + prov]
                + w[leadg + (lead + 15) * NGAINS + min(prov, NGAINS - 1)])

    for prov in provinces:
        out.append(f"| {prov} | " + " | ".join(f"{val(x, prov) - val(0, prov):+.3f}"
                                               for x in leads) + " |")
    return out


def final_decks(model_path: str, opponent: str, games: int = 400, seed: int = 5
                ) -> dict[str, np.ndarray]:
    """Mean copies of each card owned at the end of ``games`` games of the model against
    ``opponent`` (seats alternating, 100 rounds at most), for both: what the model actually
    buys, in the engine's own games."""
    from games.dominion._bots import compile_bots
    from games.dominion._cards import NC, initial_supply
    from games.dominion._engine import END_STANDARD, LP_END_RULE, LP_TIEBREAK, OWNED
    from games.dominion._kernel import new_record, new_state
    from games.dominion._learned import load_model
    from games.dominion._play import run_games
    from games.dominion.game import GAME

    model = load_model(model_path)
    supply = initial_supply(2, model.kingdom)
    bots = [GAME.parse_bot(f"learned:{model_path}"), GAME.parse_bot(opponent)]
    comp = compile_bots(bots, supply)
    comp.lparams[:, LP_END_RULE] = END_STANDARD
    comp.lparams[:, LP_TIEBREAK] = 1.0
    work = new_state(2, supply)
    rec = new_record(0)
    totals = np.zeros((2, NC))
    outcome, vp = np.zeros((1, 2), dtype=np.int8), np.zeros((1, 2), dtype=np.int64)
    turns, plies, capped = (np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
                            np.zeros(1, dtype=np.bool_))
    for i in range(games):
        seating = np.array([[i % 2, 1 - i % 2]], dtype=np.int64)  # seat p: bot (p + i) % 2
        run_games(np.array([seed * 1_000_003 + i], dtype=np.uint64), seating, comp.rules,
                  comp.nrules, comp.amode, comp.bmode, comp.fparams, comp.weights,
                  comp.lparams, comp.dparams, comp.porder, supply, END_STANDARD, True, 100, 0, 5,
                  outcome, vp, turns, plies, capped, *work, *rec)
        for b in range(2):
            totals[b] += work[0][(b + i) % 2, OWNED]
    return {"model": totals[0] / games, opponent: totals[1] / games}


def deck_table(decks: dict[str, np.ndarray]) -> list[str]:
    names = list(decks)
    short = [n if len(n) < 30 else "evolved buy list" for n in names]
    out = ["| card | " + " | ".join(short) + " |", "|---|" + "---|" * len(names)]
    for c, card in enumerate(CARDS):
        if max(decks[n][c] for n in names) >= 0.05:
            out.append(f"| {card.name} | " + " | ".join(f"{decks[n][c]:.2f}" for n in names)
                       + " |")
    return out


def top_features(w: np.ndarray, n: int = 8, layout: Layout = SOURCES,
                 slots: np.ndarray | None = None) -> list[str]:
    order = np.argsort(w)
    out = ["Highest weights:"]
    out += [f"- {w[i]:+.3f}: {describe(int(i), layout, slots)}" for i in order[::-1][:n]]
    out += ["", "Lowest weights:"]
    out += [f"- {w[i]:+.3f}: {describe(int(i), layout, slots)}" for i in order[:n]]
    return out


def curve_table(run: dict) -> list[str]:
    curve = run.get("curve", [])
    if not curve:
        return []
    names = list(curve[0]["score_vs"])
    short = [n if len(n) < 30 else "evolved buy list" for n in names]
    out = ["| games trained | " + " | ".join(short) + " |", "|---|" + "---|" * len(names)]
    for point in curve:
        cells = []
        for n in names:
            e = point["score_vs"][n]
            lo, hi = e["ci95"]
            cells.append(f"{e['mean']:.3f} ({lo:.3f}..{hi:.3f})")
        out.append(f"| {point['games']:,} | " + " | ".join(cells) + " |")
    return out


def plot_curves(runs: dict[str, dict], out: str) -> None:
    """One panel per probe opponent: score (with 95% interval) against games trained, one
    line per run (``runs``: label -> the JSON of 'tabletune train --json')."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(next(iter(runs.values()))["curve"][0]["score_vs"])
    fig, axes = plt.subplots(1, len(names), figsize=(5 * len(names), 4), sharex=True)
    for ax, name in zip(np.atleast_1d(axes), names, strict=True):
        for label, run in runs.items():
            games = [p["games"] for p in run["curve"]]
            est = [p["score_vs"][name] for p in run["curve"]]
            mean = np.array([e["mean"] for e in est])
            lo = np.array([e["ci95"][0] for e in est])
            hi = np.array([e["ci95"][1] for e in est])
            ax.plot(games, mean, label=label)
            ax.fill_between(games, lo, hi, alpha=0.2)
        ax.axhline(0.5, color="grey", lw=0.8)
        ax.set_title(f"vs {name if len(name) < 30 else 'evolved buy list'}")
        ax.set_xlabel("games trained")
        ax.set_ylabel("score (fixed probe seeds, 95% CI)")
    np.atleast_1d(axes)[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--run", default=None, help="the JSON that 'tabletune train --json' wrote")
    ap.add_argument("--plot", default=None, help="write the learning curves of --curves here")
    ap.add_argument("--curves", nargs="*", default=[],
                    help="LABEL=RUN.json runs to plot (default: --run)")
    ap.add_argument("--decks", nargs="*", default=[],
                    help="opponents to play (400 games each) for a table of final decks")
    args = ap.parse_args()
    if args.plot:
        pairs = [c.split("=", 1) for c in args.curves] or [["run", args.run]]
        runs = {}
        for label, path in pairs:
            with open(path, encoding="utf-8") as fh:
                runs[label] = json.load(fh)
        plot_curves(runs, args.plot)
    model = load_model(args.model)
    kingdom = tuple(k for k in KINGDOM_KEYS if k in model.kingdom)
    layout = layout_of(model.feature_set) or SOURCES
    slots = slot_cards(layout, model.kingdom)
    worth = (["(the general layout has no card features: see the top features)"]
             if layout.general else worth_table(model.weights, kingdom, slots))
    lines = ["Worth of one more copy (first three bought, card features only):",
             "", *worth, "",
             "Worth of a VP lead (relative to level) by Provinces left:", "",
             *lead_table(model.weights, layout=layout), "",
             *top_features(model.weights, layout=layout, slots=slots)]
    for opp in args.decks:
        lines += ["", f"Cards owned at the end (mean of 400 games against {opp}):", "",
                  *deck_table(final_decks(args.model, opp))]
    if args.run:
        with open(args.run, encoding="utf-8") as fh:
            lines += ["", "Learning curve (greedy play, fixed probe seed set):", "",
                      *curve_table(json.load(fh))]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
