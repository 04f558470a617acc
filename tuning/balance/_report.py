"""A balance study's report folder: ``balance.json`` (the result), ``README.md`` (the tuned
rules against the printed ones, the selection, what the change costs elsewhere) and
``index.html`` (the README rendered, :mod:`tuning.reporting._readme_page`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.atomic import write_atomic

__all__ = ["markdown", "write_report"]


def write_report(where: Path, result: dict[str, Any], command: str) -> Path:
    from tuning.reporting import write_readme_page

    where.mkdir(parents=True, exist_ok=True)
    write_atomic(where / "balance.json", json.dumps(result, indent=1, default=str) + "\n")
    write_atomic(where / "README.md", markdown(result, command))
    return write_readme_page(where)


def _ci(row: dict[str, Any]) -> str:
    lo, hi = row["score_ci"]
    return f"{row['score']:.3f} [{lo:.3f}, {hi:.3f}]"


def _capped(row: dict[str, Any]) -> str:
    games = row.get("games") or row.get("first_seat", {}).get("games") or 0
    capped = row.get("capped")
    return "" if capped is None or not games else f"{capped / games:.1%}"


def _rules(rules: dict[str, Any]) -> str:
    return ", ".join(f"`{k} = {v}`" for k, v in sorted(rules.items())) or "the printed rules"


def markdown(result: dict[str, Any], command: str) -> str:
    conf = result["confirmation"]
    tuned, printed = conf["tuned"], conf["printed"]
    solo = result.get("solo", False)
    target = (f"the table's win rate at {result['target']}, {result['bots'][0]} playing"
              if solo else
              f"the first seat's score (a win 1, a tie 1/2) at {result['target']}, with "
              f"{' and '.join(result['bots'])} at the table, seats rotated"
              if result["kind"] == "first_seat" else
              "a target matrix of scores between " + ", ".join(result["bots"]))
    lines = [f"# Balance study: {result['study']}", "",
             f"The rules of {result['game']} tuned towards {target}. Each of "
             f"{result['trials']} trials played {result['games']:,} games on common seeds "
             f"(root seed {result['seed']}); the best {len(result['selection'])} were "
             "replayed on fresh seeds and the closest confirmed on further games against the "
             "printed rules. Made with:", "", "```", command, "```", "",
             f"**Tuned rules: {_rules(result['best'])}.**", "",
             f"## Confirmation ({conf['games']:,} further games, root seed {conf['seed']})",
             ""]
    if result["kind"] == "first_seat":
        lines += [f"| rules | {'win rate' if solo else 'first seat' + chr(39) + 's score'} | "
                  "distance from the target | mean turns | capped games |",
                  "|---|---|---|---|---|",
                  f"| printed | {_ci(printed['first_seat'])} | {printed['value']:.4f} | "
                  f"{printed['mean_turns']:.2f} | {_capped(printed)} |",
                  f"| tuned | {_ci(tuned['first_seat'])} | {tuned['value']:.4f} | "
                  f"{tuned['mean_turns']:.2f} | {_capped(tuned)} |",
                  "", "A capped game (a standstill, or the round cap) has no winner and counts "
                  "as a tie: rules that make games stall look balanced, so the share is "
                  "shown."]
    else:
        lines += ["| pair | target | printed | tuned |", "|---|---|---|---|"]
        for key, cell in tuned["matrix"].items():
            i, j = (int(x) for x in key.split(","))
            lines.append(f"| {result['bots'][i]} vs {result['bots'][j]} | "
                         f"{result['matrix'][i][j]:.3f} | {_ci(printed['matrix'][key])} | "
                         f"{_ci(cell)} |")
        lines += ["", f"Root mean square distance: printed {printed['value']:.4f}, tuned "
                  f"{tuned['value']:.4f}."]
    if result["elsewhere"]:
        lines += ["", "## What it costs elsewhere", "",
                  ("Each bot on the same fresh deals under both rules, on its own: the first "
                   "bot's win rate (and the game's length)." if solo else
                   "Each line-up on the same fresh seeds under both rules, seats rotated: the "
                   "first bot's score and the first seat's, and the game's length."), "",
                  "| line-up | first bot, printed | first bot, tuned | first seat, printed | "
                  "first seat, tuned | turns, printed | turns, tuned | capped, printed | "
                  "capped, tuned |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for row in result["elsewhere"]:
            p, t = row["printed"], row["tuned"]
            lines.append(f"| {' vs '.join(row['bots'])} | {_ci(p['bots'][0])} | "
                         f"{_ci(t['bots'][0])} | {_ci(p['seats'][0])} | {_ci(t['seats'][0])} "
                         f"| {p['mean_turns']:.2f} | {t['mean_turns']:.2f} | {_capped(p)} | "
                         f"{_capped(t)} |")
    lines += ["", "## Selection", "", "| trial | rules | search value | fresh-seed value |",
              "|---|---|---|---|"]
    for row in result["selection"]:
        lines.append(f"| {row['trial']} | {_rules(row['rules'])} | {row['search_value']:.4f} "
                     f"| {row['value']:.4f} |")
    lines += ["", f"Trials are kept in `{result['storage']}`; {result['seconds']:.0f} s on "
              "this run.", ""]
    return "\n".join(lines)
