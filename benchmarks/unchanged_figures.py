"""Every figure a user sees, recorded from one source tree so that two trees can be compared.

A refactoring that changes no rule must leave every figure here equal. One record holds:

- the 18 seeded command-line runs of ``benchmarks/seeded_cli.py`` (play, solve, run,
  evolve, train and watch on every game, on copies of the study specs with a few hundred
  games per evaluation);
- a few more commands whose output a user reads: ``bots GAME --json`` for every game,
  ``studies --json``, ``play`` with a three-player Splendor line-up and a ``run`` with
  ``--option``, and ``reproduce thegame`` at a small scale (one table);
- every published ``best:`` result (each ``reports/STUDY/run.json`` of a spec in
  ``studies/``) resolved as ``best:STUDY@published`` and played for a fixed number of
  seeded games (against a fixed opponent in the two-player games);
- the pinned traces of the contract suite: each committed ``tests/contract/golden/GAME.json``
  replayed (its bots, options, seed and games) and compared with its figures, the trace the
  tree's ``tests/contract/golden.py`` writes (into a scratch folder, never over the
  committed one), and the tree's own golden test.

Every command runs as ``python -m tuning.cli`` with the tree first on ``PYTHONPATH`` and a
scratch folder as its working folder, so nothing in the tree is written but numba's caches.
Timings, games per second, paths and the other figures that depend on the machine or the
place of the run are dropped or replaced (``<tree>``, ``<scratch>``) before recording.

    python benchmarks/unchanged_figures.py --out runs/after.json   # the checkout holding it
    python benchmarks/unchanged_figures.py --tree ../before --out runs/before.json
    python benchmarks/unchanged_figures.py --compare runs/before.json runs/after.json

``--compare`` prints one line per entry (same or DIFFERENT) and exits with status 1 when any
entry differs or is missing from one record. The whole list takes about ten minutes on two
cores once the numba kernels are compiled (``python -m games.warm`` in the tree).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from seeded_cli import RUNS as SEEDED_RUNS  # noqa: E402  (the 18 seeded runs)
from seeded_cli import SMALLER, VOLATILE  # noqa: E402

#: more commands, each as (name, arguments after `tabletune`); {tmp} and {specs} as in RUNS,
#: {runs} the folder of every entry's {tmp} (report-deckbuilder reports run-deckbuilder's study)
EXTRA_RUNS: list[tuple[str, list[str]]] = [
    *[(f"bots-{g}", ["bots", g, "--json"])
      for g in ("deckbuilder", "dominion", "splendor", "thegame")],
    ("studies", ["studies", "--json"]),
    ("play-splendor-3p", ["play", "splendor", "--bots", "greedy,random,minimax:1", "-n", "60",
                          "-s", "7", "--json"]),
    ("play-dominion-4p", ["play", "dominion", "--bots", "big-money,smithy-big-money,heuristic,"
                          "best:dominion-buylist@published", "-n", "400", "-s", "13", "--json"]),
    ("run-dominion", ["run", "{specs}/dominion-heuristic.toml", "--trials", "3", "--storage",
                      "{tmp}/dom.journal", "--json"]),
    ("report-deckbuilder", ["report", "{specs}/deckbuilder-heuristic.toml", "--storage",
                            "{runs}/run-deckbuilder/db.journal", "--out", "{tmp}/report",
                            "--json"]),
    ("run-thegame-option", ["run", "{specs}/thegame-penalty-d0.toml", "--trials", "3",
                            "--option", "players=2", "--storage", "{tmp}/opt.journal",
                            "--json"]),
    ("reproduce-thegame-d0", ["reproduce", "thegame", "--scale", "0.01", "--parts", "d0",
                              "--out", "{tmp}/report", "--json"]),
]

#: a published best plays this opponent where its game seats two (none: alone)
OPPONENT = {"dominion": "big-money", "splendor": "greedy"}
#: games per published best (the deckbuilder model is scored exactly: no game count)
BEST_GAMES = {"dominion": 2000, "splendor": 200, "thegame": 200}
BEST_SEED = 17

#: volatile keys beyond those of seeded_cli.py (a reproduction's data files)
MORE_VOLATILE = re.compile(r"^jobs$|written")


def git_commit(tree: Path) -> str:
    done = subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True,
                          text=True)
    return done.stdout.strip() or "unknown"


def git_dirty(tree: Path) -> list[str]:
    done = subprocess.run(["git", "-C", str(tree), "status", "--porcelain", "--",
                           "games", "tuning", "studies", "reports", "tests/contract"],
                          capture_output=True, text=True)
    return [line for line in done.stdout.splitlines() if line.strip()]


class Runner:
    """Runs commands of one tree in a scratch folder and normalises what they print."""

    def __init__(self, tree: Path, python: str, scratch: Path, timeout: int) -> None:
        self.tree, self.python, self.scratch, self.timeout = tree, python, scratch, timeout
        self.cwd = scratch / "cwd"  # the working folder of every command: runs/ lands here
        self.cwd.mkdir()
        self.specs = scratch / "specs"
        self.specs.mkdir()
        for spec in sorted((tree / "studies").glob("*.toml")):
            text = spec.read_text(encoding="utf-8")
            for pattern, replacement in SMALLER:
                text = pattern.sub(replacement, text)
            (self.specs / spec.name).write_text(text, encoding="utf-8")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETUNE_")}
        self.env["PYTHONPATH"] = os.pathsep.join(
            [str(tree), *filter(None, [os.environ.get("PYTHONPATH")])])
        self.env.pop("PYTHONSTARTUP", None)

    # -- normalising -------------------------------------------------------------------
    def text(self, value: str) -> str:
        for place, label in ((self.scratch, "<scratch>"), (self.tree, "<tree>")):
            value = value.replace(str(place), label)
            value = value.replace(str(place.resolve()), label)
        return value

    def stable(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: self.stable(v) for k, v in value.items()
                    if not VOLATILE.search(k) and not MORE_VOLATILE.search(k)}
        if isinstance(value, list):
            return [self.stable(v) for v in value]
        if isinstance(value, str):
            return self.text(value)
        return value

    # -- running -----------------------------------------------------------------------
    def check_imports(self) -> str:
        """The tree's own packages are the ones imported (not an installed copy)."""
        code = "import games, tuning; print(games.__file__); print(tuning.__file__)"
        done = subprocess.run([self.python, "-c", code], cwd=self.cwd, env=self.env,
                              capture_output=True, text=True, timeout=120)
        files = done.stdout.split()
        if done.returncode or len(files) != 2 or not all(
                Path(f).resolve().is_relative_to(self.tree) for f in files):
            raise SystemExit(f"the tree {self.tree} is not what gets imported: "
                             f"{done.stdout.strip()} {done.stderr.strip()[-300:]}")
        return files[0]

    def command(self, args: list[str], tmp: Path) -> dict[str, Any]:
        """One `tabletune` command: exit status, JSON (or text) output, the `best:` lines
        it printed on stderr, and its wall time (recorded, never compared)."""
        words = [a.format(tmp=tmp, specs=self.specs, runs=tmp.parent) for a in args]
        t0 = time.perf_counter()
        done = subprocess.run([self.python, "-m", "tuning.cli", *words], cwd=self.cwd,
                              env=self.env, capture_output=True, text=True,
                              timeout=self.timeout)
        seconds = time.perf_counter() - t0
        try:
            output: Any = self.stable(json.loads(done.stdout))
        except ValueError:
            output = self.text(done.stdout)
        best_lines = [self.text(line) for line in done.stderr.splitlines()
                      if line.startswith("best:")]
        return {"command": ["tabletune", *[self.text(w) for w in words]],
                "exit": done.returncode, "output": output, "best_lines": best_lines,
                "seconds": round(seconds, 2),
                "stderr_tail": self.text(done.stderr[-600:]) if done.returncode else ""}

    def files(self, folder: Path) -> dict[str, Any]:
        """The JSON files a command wrote into ``folder`` (a reproduction's data)."""
        found = {}
        for path in sorted(folder.rglob("*.json")):
            try:
                found[str(path.relative_to(folder))] = self.stable(
                    json.loads(path.read_text(encoding="utf-8")))
            except ValueError:
                found[str(path.relative_to(folder))] = "not JSON"
        return found

    def traces(self) -> dict[str, Any]:
        """The contract suite's pinned traces: each committed ``golden/GAME.json`` replayed
        (its bots, options, seed and games, as the golden test plays them) and written
        afresh by the tree's ``golden.py`` into the scratch folder; then the golden test."""
        committed = self.tree / "tests" / "contract" / "golden"
        out = self.scratch / "golden"
        out.mkdir()
        names = sorted(p.stem for p in committed.glob("*.json"))
        t0 = time.perf_counter()
        done = subprocess.run([self.python, "-c", TRACE_CODE, str(self.tree / "tests" /
                                                                  "contract" / "golden.py"),
                               str(committed), str(out), *names],
                              cwd=self.cwd, env=self.env, capture_output=True, text=True,
                              timeout=self.timeout)
        seconds = round(time.perf_counter() - t0, 2)
        result: dict[str, Any] = {}
        for name in names:
            want = json.loads((committed / f"{name}.json").read_text(encoding="utf-8"))
            pinned = {k: want.get(k) for k in TRACE_KEYS}
            read = {}
            for kind in ("replayed", "written"):
                path = out / f"{name}.{kind}.json"
                read[kind] = json.loads(path.read_text(encoding="utf-8")) \
                    if path.is_file() else None
            written = read["written"]
            result[f"trace-{name}"] = {
                "command": ["replay tests/contract/golden/" + name + ".json",
                            "tests/contract/golden.py " + name + " (into scratch)"],
                "exit": done.returncode, "output": read["replayed"],
                "matches_committed": read["replayed"] == pinned,
                "written": written,
                "written_matches_committed": written == want,
                "seconds": seconds,
                "stderr_tail": self.text(done.stderr[-600:]) if done.returncode else ""}
        t0 = time.perf_counter()
        test = subprocess.run(
            [self.python, "-m", "pytest", "-p", "no:cacheprovider", "-k",
             "golden", str(self.tree / "tests" / "contract" / "test_contract.py")],
            cwd=self.tree, env=self.env, capture_output=True, text=True, timeout=self.timeout)
        tally = [line for line in test.stdout.splitlines()
                 if re.search(r"\d+ (passed|failed|error)", line)]
        summary = re.sub(r"\s+in [\d.]+s.*$", "", (tally or [""])[-1].strip("= "))
        result["trace-golden-test"] = {
            "command": ["pytest", "tests/contract/test_contract.py", "-k", "golden"],
            "exit": test.returncode, "output": summary,
            "seconds": round(time.perf_counter() - t0, 2),
            "stderr_tail": self.text(test.stdout[-800:]) if test.returncode else ""}
        return result


#: the figures of a pinned trace
TRACE_KEYS = ("outcome", "score", "turns", "capped")

#: run by the tree's interpreter: argv = golden.py, committed folder, scratch folder, names.
#: Replays each committed trace as tests/contract/test_contract.py does, and lets the tree's
#: golden.py write its trace into the scratch folder instead of over the committed one.
TRACE_CODE = """
import importlib.util, json, sys
from pathlib import Path
script, committed, out = (Path(a) for a in sys.argv[1:4])
sys.path[:0] = [str(script.parents[2]), str(script.parent)]
spec = importlib.util.spec_from_file_location("golden_writer", script)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from games import registry
failed = 0
for name in sys.argv[4:]:
    want = json.loads((committed / f"{name}.json").read_text())
    try:
        game = registry.get(name)
        bots = [game.parse_bot(t) for t in want["bots"]]
        o = game.play(bots, game.check_options(want["options"]), want["seed"], 0, want["games"])
        got = {"outcome": o.outcome.tolist(), "score": o.score.tolist(),
               "turns": o.turns.tolist(), "capped": o.capped.tolist()}
        (out / f"{name}.replayed.json").write_text(json.dumps(got))
    except Exception as exc:
        failed = 1
        print(f"replay {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
    try:
        module.GOLDEN = out / "written"
        path = module.write(name)
        path.rename(out / f"{name}.written.json")
    except Exception as exc:
        failed = 1
        print(f"golden.py {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
sys.exit(failed)
"""


def published(tree: Path) -> list[tuple[str, str]]:
    """(study, game) of every published result: reports/STUDY/run.json with its spec."""
    found = []
    for run in sorted((tree / "reports").glob("*/run.json")):
        spec = tree / "studies" / f"{run.parent.name}.toml"
        if spec.is_file():
            raw = tomllib.loads(spec.read_text(encoding="utf-8"))
            found.append((run.parent.name, str(raw.get("study", {}).get("game"))))
    return found


def best_args(study: str, game: str) -> list[str]:
    bots = f"best:{study}@published"
    if game in OPPONENT:
        bots += "," + OPPONENT[game]
    args = ["play", game, "--bots", bots, "-s", str(BEST_SEED), "--json"]
    if game in BEST_GAMES:
        args[4:4] = ["-n", str(BEST_GAMES[game])]
    return args


def record(tree: Path, out: Path, only: list[str] | None, python: str, timeout: int) -> int:
    tree = tree.resolve()
    plan: list[tuple[str, str, list[str]]] = [
        *[("seeded", name, [*args, *([] if args[0] == "watch" else ["--json"])])
          for name, args in SEEDED_RUNS],
        *[("extra", name, args) for name, args in EXTRA_RUNS],
        *[("best", f"best-{study}", best_args(study, game)) for study, game in
          published(tree)]]
    entries: dict[str, Any] = {}
    started = time.perf_counter()
    failed = 0
    with tempfile.TemporaryDirectory(prefix="unchanged-figures-") as folder:
        runner = Runner(tree, python, Path(folder).resolve(), timeout)
        imported = runner.check_imports()
        print(f"tree {tree} (commit {git_commit(tree)[:10]}): imports {imported}", flush=True)
        for kind, name, args in plan:
            if only and name not in only:
                continue
            tmp = runner.scratch / "runs" / name
            tmp.mkdir(parents=True)
            entry = runner.command(args, tmp)
            if args[0] in ("reproduce", "report"):
                entry["files"] = runner.files(tmp / "report")
            entry["kind"] = kind
            entries[name] = entry
            failed += entry["exit"] != 0
            print(f"{name:36s} exit {entry['exit']}  {entry['seconds']:7.2f} s", flush=True)
        if not only or any(n.startswith("trace") for n in only):
            for name, entry in runner.traces().items():
                entry["kind"] = "trace"
                entries[name] = entry
                failed += entry["exit"] != 0 or entry.get("matches_committed") is False
                note = ""
                if "matches_committed" in entry:
                    note = (f"  replay {'matches' if entry['matches_committed'] else 'DIFFERS'}"
                            f", golden.py writes "
                            f"{'the same' if entry['written_matches_committed'] else 'ANOTHER'}"
                            " trace")
                print(f"{name:36s} exit {entry['exit']}  {entry['seconds']:7.2f} s{note}",
                      flush=True)
    meta = {"tree_commit": git_commit(tree), "uncommitted_changes": git_dirty(tree),
            "python": sys.version.split()[0], "cpus": os.cpu_count(),
            "total_seconds": round(time.perf_counter() - started, 1),
            "made": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"meta": meta, "entries": entries}, indent=1, sort_keys=True)
                   + "\n", encoding="utf-8")
    print(f"{len(entries)} entries in {meta['total_seconds']:.0f} s, {failed} failed or "
          f"unlike the committed trace; written to {out}")
    return 1 if failed else 0


#: what an entry's comparison looks at (wall time, commands and failure tails are not)
COMPARED = ("exit", "output", "best_lines", "files", "matches_committed", "written",
            "written_matches_committed")


def figures(entry: dict[str, Any]) -> dict[str, Any]:
    def drop(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: drop(v) for k, v in value.items()
                    if not VOLATILE.search(k) and not MORE_VOLATILE.search(k)}
        if isinstance(value, list):
            return [drop(v) for v in value]
        return value
    return {k: drop(entry[k]) for k in COMPARED if k in entry}


def first_difference(a: Any, b: Any, where: str = "") -> str:
    """Where two figures first part (a JSON path), for the DIFFERENT lines."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{where}/{key} only in {'B' if key in b else 'A'}"
            if a[key] != b[key]:
                return first_difference(a[key], b[key], f"{where}/{key}")
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where} length {len(a)} / {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{where}[{i}]")
    shown = [json.dumps(v)[:40] for v in (a, b)]
    return f"{where}: {shown[0]} / {shown[1]}"


def compare(path_a: Path, path_b: Path) -> int:
    """One line per entry: same figures or not; exit status 1 if any differ or is missing."""
    records = [json.loads(p.read_text(encoding="utf-8")) for p in (path_a, path_b)]
    a, b = (r["entries"] for r in records)
    for label, path, rec in (("A", path_a, records[0]), ("B", path_b, records[1])):
        meta = rec.get("meta", {})
        dirty = len(meta.get("uncommitted_changes", []))
        print(f"{label}: {path}  commit {str(meta.get('tree_commit'))[:10]}"
              f"{f' + {dirty} uncommitted files' if dirty else ''}  "
              f"{meta.get('total_seconds', 0):.0f} s")
    names = sorted(set(a) | set(b), key=lambda n: ((a.get(n) or b.get(n))["kind"], n))
    print(f"\n{'entry':36s} {'kind':7s} {'result':10s} {'exit A/B':9s} {'s A / B':>15s}")
    differ = 0
    for name in names:
        if name not in a or name not in b:
            differ += 1
            print(f"{name:36s} {(a.get(name) or b.get(name))['kind']:7s} only in "
                  f"{'B' if name in b else 'A'}")
            continue
        fa, fb = figures(a[name]), figures(b[name])
        same = fa == fb
        differ += not same
        print(f"{name:36s} {a[name]['kind']:7s} {'identical' if same else 'DIFFERENT':10s} "
              f"{a[name]['exit']}/{b[name]['exit']:<7} "
              f"{a[name]['seconds']:6.1f} / {b[name]['seconds']:6.1f}"
              + ("" if same else f"\n    first difference {first_difference(fa, fb)}"))
    print(f"\n{len(names) - differ} of {len(names)} entries give identical figures")
    return 1 if differ else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=HERE.parent,
                        help="the source tree to run (default: the checkout holding this file)")
    parser.add_argument("--out", type=Path, default=Path("runs/unchanged-figures.json"))
    parser.add_argument("--only", nargs="*", help="record only these entries (trace-* for the "
                        "pinned traces)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter (default: this one; its packages serve the tree)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds per command")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"))
    ns = parser.parse_args()
    if ns.compare:
        raise SystemExit(compare(*ns.compare))
    raise SystemExit(record(ns.tree, ns.out, ns.only, ns.python, ns.timeout))


if __name__ == "__main__":
    main()
