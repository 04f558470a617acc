"""Eighteen seeded command-line runs, recorded so that two revisions can be compared.

Every run is seeded, so its JSON result is a fixed function of the code: a refactoring that
changes no rule must leave every figure equal. The runs cover each command that plays
games (play, solve, run, evolve, train, watch) on every game, at small sizes (the study
specs are copied with fewer games per evaluation). Timing fields, paths and other
figures that depend on the machine are dropped before recording.

    python benchmarks/seeded_cli.py --out runs/seeded-after.json
    python benchmarks/seeded_cli.py --compare runs/seeded-before.json runs/seeded-after.json

Run it from the root of the checkout to measure (``python -m tuning.cli`` of that tree).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

#: keys whose values depend on the machine or the run's place, not on the code's rules
VOLATILE = re.compile(r"second|elapsed|wall|per_s|rate_per|storage|checkpoint|path|"
                      r"journal|model_file|written|started|finished|duration|speed|memory|rss|"
                      r"overhead|^log$|^model$")

#: (name, arguments after `tabletune`); {tmp} is a fresh folder, {specs} the small specs
RUNS: list[tuple[str, list[str]]] = [
    ("play-dominion-bm", ["play", "dominion", "--bots", "big-money,smithy-big-money",
                          "-n", "4000", "-s", "3"]),
    ("play-dominion-heuristic", ["play", "dominion", "--bots",
                                 "best:dominion-heuristic,big-money", "-n", "4000", "-s", "5"]),
    ("play-dominion-buylist", ["play", "dominion", "--bots",
                               "best:dominion-buylist,big-money-ultimate", "-n", "2000"]),
    ("play-deckbuilder-exact", ["play", "deckbuilder", "--bots",
                                "best:deckbuilder-buylist,picky", "-t", "31"]),
    ("play-deckbuilder-sampled", ["play", "deckbuilder", "--bots", "greedy,picky", "-t", "20",
                                  "-n", "3000", "-s", "11"]),
    ("play-splendor-greedy", ["play", "splendor", "--bots", "greedy,random", "-n", "300",
                              "-s", "4"]),
    ("play-splendor-heuristic", ["play", "splendor", "--bots",
                                 "best:splendor-heuristic,greedy", "-n", "300"]),
    ("play-splendor-minimax", ["play", "splendor", "--bots", "minimax:2,greedy", "-n", "16",
                               "-s", "2"]),
    ("play-thegame-d0", ["play", "thegame", "--bots", "best:thegame-penalty-d0", "-n", "1000"]),
    ("play-thegame-3p", ["play", "thegame", "--players", "3", "-n", "300", "-s", "9"]),
    ("solve-deckbuilder", ["solve", "deckbuilder", "--turns", "20"]),
    ("run-deckbuilder", ["run", "{specs}/deckbuilder-heuristic.toml", "--trials", "12",
                         "--storage", "{tmp}/db.journal"]),
    ("run-thegame", ["run", "{specs}/thegame-penalty-d0.toml", "--trials", "4",
                     "--storage", "{tmp}/tg.journal", "-j", "2"]),
    ("run-splendor", ["run", "{specs}/splendor-heuristic.toml", "--trials", "3",
                      "--storage", "{tmp}/sp.journal"]),
    ("evolve-deckbuilder", ["evolve", "{specs}/deckbuilder-buylist.toml", "-g", "3", "-P", "12",
                            "--checkpoint", "{tmp}/db.ckpt"]),
    ("evolve-dominion", ["evolve", "{specs}/dominion-buylist.toml", "-g", "2", "-P", "8",
                         "-j", "2", "--checkpoint", "{tmp}/dom.ckpt"]),
    ("train-dominion", ["train", "{specs}/dominion-learned.toml", "-n", "2000", "-j", "2",
                        "--model", "{tmp}/model.npz", "--checkpoint", "{tmp}/train.ckpt"]),
    ("watch-splendor", ["watch", "splendor", "--bots", "greedy,minimax:2", "-s", "1",
                        "-i", "2"]),
]

#: spec keys shrunk in the copies: (pattern, replacement)
SMALLER = [(re.compile(r"^(games\s*=\s*)\d[\d_]*", re.M), r"\g<1>400"),
           (re.compile(r"^(reevaluate_games\s*=\s*)\d[\d_]*", re.M), r"\g<1>400"),
           (re.compile(r"^(block\s*=\s*)\d[\d_]*", re.M), r"\g<1>100"),
           (re.compile(r"^(probe_games\s*=\s*)\d[\d_]*", re.M), r"\g<1>200"),
           (re.compile(r"^(round_games\s*=\s*)\d[\d_]*", re.M), r"\g<1>500"),
           (re.compile(r"^(probe_every\s*=\s*)\d[\d_]*", re.M), r"\g<1>2")]


def small_specs(folder: Path) -> None:
    """Copies of the ready-made specs with a few hundred games per evaluation."""
    for spec in Path("studies").glob("*.toml"):
        text = spec.read_text(encoding="utf-8")
        for pattern, replacement in SMALLER:
            text = pattern.sub(replacement, text)
        (folder / spec.name).write_text(text, encoding="utf-8")


def stable(value: Any) -> Any:
    """``value`` without the keys that depend on the machine or the paths of the run."""
    if isinstance(value, dict):
        return {k: stable(v) for k, v in value.items() if not VOLATILE.search(k)}
    if isinstance(value, list):
        return [stable(v) for v in value]
    return value


def run_one(args: list[str], tmp: Path, specs: Path) -> dict[str, Any]:
    """One command: its exit status, its JSON (or text, for watch) and its wall time."""
    words = [a.format(tmp=tmp, specs=specs) for a in args]
    if words[0] not in ("watch",):
        words.append("--json")
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tuning.cli", *words], capture_output=True,
                          text=True, timeout=900)
    seconds = time.perf_counter() - t0
    try:
        output: Any = stable(json.loads(done.stdout))
    except ValueError:
        output = done.stdout
    return {"exit": done.returncode, "output": output, "seconds": round(seconds, 2),
            "stderr_tail": done.stderr[-400:] if done.returncode else ""}


def record(out: Path, only: list[str] | None) -> None:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as scratch:
        specs = Path(scratch) / "specs"
        specs.mkdir()
        small_specs(specs)
        for name, args in RUNS:
            if only and name not in only:
                continue
            tmp = Path(scratch) / name
            tmp.mkdir()
            results[name] = run_one(args, tmp, specs)
            print(f"{name:28s} exit {results[name]['exit']}  {results[name]['seconds']:7.2f} s",
                  flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def compare(before: Path, after: Path) -> int:
    """Print one line per run: same figures or not; exit status 1 if any differ. The
    volatile keys are dropped again, so records made with an older list compare too."""
    a = json.loads(before.read_text(encoding="utf-8"))
    b = json.loads(after.read_text(encoding="utf-8"))
    differ = 0
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            print(f"{name:28s} only in {'after' if name in b else 'before'}")
            differ += 1
            continue
        same = ((a[name]["exit"], stable(a[name]["output"]))
                == (b[name]["exit"], stable(b[name]["output"])))
        differ += not same
        print(f"{name:28s} {'same' if same else 'DIFFERENT'}  exit {a[name]['exit']}/"
              f"{b[name]['exit']}  {a[name]['seconds']:.1f} s / {b[name]['seconds']:.1f} s")
    print(f"{len(set(a) | set(b)) - differ} of {len(set(a) | set(b))} runs give the same "
          "figures")
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("runs/seeded-cli.json"))
    parser.add_argument("--only", nargs="*", help="run only these names")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    ns = parser.parse_args()
    if ns.compare:
        raise SystemExit(compare(*ns.compare))
    record(ns.out, ns.only)


if __name__ == "__main__":
    main()
