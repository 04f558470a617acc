"""No import cycles among the modules of games/ and tuning/.

The graph is read from the source with ``ast``, without importing anything. Every import
statement counts: at module level, inside functions (a lazy import still ties the two
modules together) and under ``if TYPE_CHECKING:``. ``from package import name`` points at
``package.name`` when that is a module, else at ``package``; the parent packages that Python
also imports on the way are not counted (a package's ``__init__`` re-exports its modules, and
every module below it would otherwise close a loop with it).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "tuning")

#: cycles that the refactoring of issue 27 removes in its other parts; a cycle found must
#: lie inside one of these, so none may grow or appear anew. Remove an entry once it is gone.
PENDING: tuple[frozenset[str], ...] = ()


def module_files(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Dotted module name -> source file, for every module under ``packages``."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports anywhere in its source."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                target = f"{module}.{alias.name}"
                if target in known:
                    found.add(target)
                elif module in known:
                    found.add(module)
    found.discard(name)
    return found


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    """Module -> the modules it imports, among ``packages`` under ``root``."""
    files = module_files(root, packages)
    return {name: imports_of(name, path, files) for name, path in files.items()}


def cycles(graph: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def test_the_walker_finds_a_cycle_through_a_function_level_import(tmp_path):
    pkg = tmp_path / "games" / "toy"
    pkg.mkdir(parents=True)
    (tmp_path / "games" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from games.toy.game import GAME\n")
    (pkg / "game.py").write_text("from games.toy import rules\nGAME = 1\n")
    (pkg / "rules.py").write_text("def f():\n    from .trace import g\n")
    (pkg / "trace.py").write_text("def g():\n    from games.toy.game import GAME\n")
    (pkg / "alone.py").write_text("import games.toy.rules\n")
    graph = import_graph(tmp_path, ["games"])
    assert graph["games.toy.rules"] == {"games.toy.trace"}
    assert cycles(graph) == [frozenset({"games.toy.game", "games.toy.rules", "games.toy.trace"})]
    (pkg / "trace.py").write_text("def g():\n    return 1\n")
    assert cycles(import_graph(tmp_path, ["games"])) == []


def test_no_import_cycle_in_games_and_tuning():
    graph = import_graph(ROOT, PACKAGES)
    assert "tuning.evaluation.pool" in graph and "games.splendor.trace" in graph
    new = [sorted(c) for c in cycles(graph) if not any(c <= known for known in PENDING)]
    assert not new, f"import cycles: {new}"


def test_games_never_import_the_tuning_layer():
    """One direction only: a game's own reproductions and trainer get the tuning layer's
    services injected (a pool, a match runner), never by import."""
    graph = import_graph(ROOT, PACKAGES)
    assert "games.deckbuilder.reproduce" in graph and "games.dominion.learning.trainer" in graph
    upward = sorted(f"{m} -> {t}" for m, targets in graph.items() if m.startswith("games")
                    for t in targets if t == "tuning" or t.startswith("tuning."))
    assert not upward, upward


def test_the_layer_below_the_command_line_never_imports_it():
    """``tuning/commands/`` is the thin CLI on top: what it and the modules below share
    (such as the ranges of :mod:`tuning.limits`) lives below it."""
    graph = import_graph(ROOT, ["tuning"])
    assert "tuning.spec_checks" in graph and "tuning.train.config" in graph

    def cli(module: str) -> bool:
        return module in ("tuning.cli", "tuning.commands") or module.startswith(
            "tuning.commands.")

    upward = sorted(f"{m} -> {t}" for m, targets in graph.items() if not cli(m)
                    for t in targets if cli(t))
    assert not upward, upward


def test_the_cycles_removed_stay_removed():
    graph = import_graph(ROOT, PACKAGES)
    assert "tuning.evaluation.cluster" not in graph["tuning.evaluation.pool"] or \
        "tuning.evaluation.pool" not in graph["tuning.evaluation.cluster"]
    assert "games.splendor.game" not in graph["games.splendor.trace"]
    assert graph["tuning.evaluation.ordered"] == set()
    # a refused flag's error line comes from the output helpers, not from the Typer groups
    assert "tuning.commands.apps" not in graph["tuning.commands.flags"]
