"""What the DP-optimal player of the deck-building model buys, and the rule that says it.

    python benchmarks/deckbuilder_policy_rule.py --turns 50 100
    python benchmarks/deckbuilder_policy_rule.py --turns 100 --table     # shares by turn
    python benchmarks/deckbuilder_policy_rule.py --turns 31 --json runs/policy-rule.json

For each T: solve exactly, push the starting deck through the optimal policy, print (with
``--table``) the optimal player's action shares per turns left and money bucket, then the
ordered buy rule derived from them (games.deckbuilder._policy_rule), its exact expected
score, the DP optimum, the ratio and how often the rule takes the optimal action. The
derived rules seed the deckbuilder-buylist-t50 and -t100 evolutions.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from games.deckbuilder import DEFAULT, evaluate_rule, solve
from games.deckbuilder._policy_rule import PolicyShares, agreement, policy_shares, rule_from_policy


def table(sh: PolicyShares) -> str:
    """One line per turn: per money bucket, its probability and the actions above 1%."""
    names = ("pass",) + sh.cards
    lows = sh.thresholds
    heads = [f"{lo}-{hi - 1}" if hi - 1 > lo else f"{lo}"
             for lo, hi in zip(lows, lows[1:] + (99,), strict=True)]
    heads[-1] = f"{lows[-1]}+"
    lines = []
    for t in range(sh.turns):
        cells = []
        for b, head in enumerate(heads):
            mass = sh.share[t, b].sum()
            if mass < 1e-4:
                continue
            acts = ",".join(f"{names[a]} {sh.share[t, b, a] / mass:.2f}"
                            for a in range(len(names)) if sh.share[t, b, a] / mass > 0.01)
            cells.append(f"${head} ({mass:.2f}): {acts}")
        lines.append(f"left {sh.turns - t:3d} | " + " | ".join(cells))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, nargs="+", default=[50, 100])
    ap.add_argument("--table", action="store_true", help="print the shares per turn")
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()
    out = []
    for turns in args.turns:
        t0 = time.perf_counter()
        sol = solve(turns, DEFAULT)
        sh = policy_shares(sol)
        rule = rule_from_policy(sh)
        optimum = float(sol.value)
        del sol  # the policy of T = 100 holds about 1 GB
        value = float(evaluate_rule(rule, turns, DEFAULT))
        row = {"turns": turns, "rule": rule.text(), "value": value, "optimum": optimum,
               "fraction": value / optimum, "agreement": agreement(sh, rule),
               "seconds": time.perf_counter() - t0}
        out.append(row)
        if args.table:
            print(table(sh))
        print(f"T = {turns}: {rule.text()}\n  exact {value:.4f} / DP optimum {optimum:.4f}"
              f" = {row['fraction']:.4%}; same action as the optimum on "
              f"{row['agreement']:.2%} of its decisions ({row['seconds']:.1f} s)", flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
