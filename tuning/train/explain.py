"""What a learned model values, in words: the worth of one more copy of each card by game
stage, the strongest single features, and the learning curve of a run, as Markdown.

    python -m tuning.train.explain --model runs/dominion-learned/model.npz \
        [--run runs/dominion-learned/train.json]
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from games.dominion.cards import CARDS, INDEX, IS_ACTION, IS_TREASURE, KINGDOM_KEYS, VP
from games.dominion.features import (
    NCOUNT,
    NGAINS,
    NPROV,
    NSTAGE,
    OFF_CARD,
    OFF_LEADG,
    OFF_LEADP,
    describe,
)
from games.dominion.learned import load_model

STAGES = (0, 2, 4, 6)  # turns 1-3, 7-9, 13-15, 19-21


START = {"copper": 7, "estate": 3}  # copies in the starting deck


def card_worth(w: np.ndarray, card: int, stage: int, upto: int = 3) -> float:
    """Mean value of one more copy, for the first ``upto`` copies bought (beyond the starting
    deck) at a stage, card features only (money, lead and endgame features add to it)."""
    base = OFF_CARD + card * NCOUNT * NSTAGE
    first = START.get(CARDS[card].key, 0)
    vals = [w[base + (k + 1) * NSTAGE + stage] - w[base + k * NSTAGE + stage]
            for k in range(first, min(first + upto, NCOUNT - 1))]
    return float(np.mean(vals))


def pure_victory(card: int) -> bool:
    """Estate, Duchy, Province: no count feature of their own (they act through the lead)."""
    return VP[card] > 0 and not IS_ACTION[card] and not IS_TREASURE[card]


def worth_table(w: np.ndarray, kingdom: tuple[str, ...]) -> list[str]:
    cards = [k for k in ("copper", "silver", "gold", *kingdom)
             if not pure_victory(INDEX[k])]
    head = "| card | " + " | ".join(f"turns {3 * s + 1}-{3 * s + 3}" for s in STAGES) + " |"
    out = [head, "|---|" + "---|" * len(STAGES)]
    for key in cards:
        c = INDEX[key]
        out.append(f"| {CARDS[c].name} | " + " | ".join(
            f"{card_worth(w, c, s):+.3f}" for s in STAGES) + " |")
    return out


def lead_table(w: np.ndarray, leads: tuple[int, ...] = (-9, -6, -3, 0, 3, 6, 9),
               provinces: tuple[int, ...] = (8, 6, 4, 2, 1)) -> list[str]:
    """Worth of a VP lead by Provinces left (the lead-by-Provinces weight plus the
    lead-by-gains weight with as many gains left as Provinces), relative to a lead of 0."""
    out = ["| Provinces left | " + " | ".join(f"lead {x:+d}" for x in leads) + " |",
           "|---|" + "---|" * len(leads)]

    def val(lead: int, prov: int) -> float:
        return (w[OFF_LEADP + (lead + 15) * NPROV + prov]
                + w[OFF_LEADG + (lead + 15) * NGAINS + min(prov, NGAINS - 1)])

    for prov in provinces:
        out.append(f"| {prov} | " + " | ".join(f"{val(x, prov) - val(0, prov):+.3f}"
                                               for x in leads) + " |")
    return out


def top_features(w: np.ndarray, n: int = 8) -> list[str]:
    order = np.argsort(w)
    out = ["Highest weights:"]
    out += [f"- {w[i]:+.3f}: {describe(int(i))}" for i in order[::-1][:n]]
    out += ["", "Lowest weights:"]
    out += [f"- {w[i]:+.3f}: {describe(int(i))}" for i in order[:n]]
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", required=True)
    ap.add_argument("--run", default=None, help="the JSON that 'tabletune train --json' wrote")
    args = ap.parse_args()
    model = load_model(args.model)
    kingdom = tuple(k for k in KINGDOM_KEYS if k in model.kingdom)
    lines = ["Worth of one more copy (first three bought, card features only):",
             "", *worth_table(model.weights, kingdom), "",
             "Worth of a VP lead (relative to level) by Provinces left:", "",
             *lead_table(model.weights), "", *top_features(model.weights)]
    if args.run:
        with open(args.run, encoding="utf-8") as fh:
            lines += ["", "Learning curve (greedy play, fixed probe seed set):", "",
                      *curve_table(json.load(fh))]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
