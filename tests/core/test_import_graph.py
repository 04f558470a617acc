"""No import cycles among the modules of games/ and tuning/.

The graph is read from the source with ``ast``, without importing anything. Every import
statement counts: at module level, inside functions (a lazy import still ties the two
modules together) and under ``if TYPE_CHECKING:``. ``from package import name`` points at
``package.name`` when that is a module, else at ``package``; the parent packages that Python
also imports on the way are not counted (a package's ``__init__`` re-exports its modules, and
every module below it would otherwise close a loop with it). A package whose ``__init__``
names its public names lazily (``_EXPORTS``, :mod:`games.lazy_exports`) imports none of its
modules when it loads: ``from package import name`` points at the private module that
defines ``name``, and the ``__init__``'s own imports under ``if TYPE_CHECKING:`` (what the
names are, for type checkers) are not edges.
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


def lazy_exports_of(path: Path) -> dict[str, str]:
    """A package ``__init__``'s ``_EXPORTS`` table (public name -> private module), or {}."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == "_EXPORTS":
            return ast.literal_eval(node.value)
    return {}


def _type_checking_blocks(tree: ast.Module) -> set[int]:
    """The ids of the nodes under a module-level ``if TYPE_CHECKING:``."""
    inside: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            inside.update(id(n) for part in node.body for n in ast.walk(part))
    return inside


def imports_of(name: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports anywhere in its source."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lazy = lazy_exports_of(path) if path.name == "__init__.py" else {}
    skipped = _type_checking_blocks(tree) if lazy else set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            exports = (lazy_exports_of(known[module]) if module in known
                       and known[module].name == "__init__.py" else {})
            for alias in node.names:
                target = f"{module}.{alias.name}"
                if target in known:
                    found.add(target)
                elif alias.name in exports and f"{module}.{exports[alias.name]}" in known:
                    found.add(f"{module}.{exports[alias.name]}")
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
    assert "tuning.evaluation._pool" in graph and "games.splendor._trace" in graph
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
    (such as the ranges of :mod:`tuning._limits`) lives below it."""
    graph = import_graph(ROOT, ["tuning"])
    assert "tuning._spec_checks" in graph and "tuning.train._config" in graph

    def cli(module: str) -> bool:
        return module in ("tuning.cli", "tuning.commands") or module.startswith(
            "tuning.commands.")

    upward = sorted(f"{m} -> {t}" for m, targets in graph.items() if not cli(m)
                    for t in targets if cli(t))
    assert not upward, upward


def test_the_cycles_removed_stay_removed():
    graph = import_graph(ROOT, PACKAGES)
    assert "tuning.evaluation._cluster" not in graph["tuning.evaluation._pool"] or \
        "tuning.evaluation._pool" not in graph["tuning.evaluation._cluster"]
    assert "games.splendor.game" not in graph["games.splendor._trace"]
    assert graph["tuning.evaluation._ordered"] == set()
    # a refused flag's error line comes from the output helpers, not from the Typer groups
    assert "tuning.commands._apps" not in graph["tuning.commands._flags"]


def test_a_lazy_package_points_at_the_module_that_defines_the_name(tmp_path):
    pkg = tmp_path / "games" / "toy"
    pkg.mkdir(parents=True)
    (tmp_path / "games" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from games.toy._impl import f\n"
        "_EXPORTS = {'f': '_impl'}\n")
    (pkg / "_impl.py").write_text("from games import user\ndef f():\n    return 1\n")
    (tmp_path / "games" / "user.py").write_text("def g():\n    from games.toy import f\n")
    graph = import_graph(tmp_path, ["games"])
    assert graph["games.toy"] == set()
    assert graph["games.user"] == {"games.toy._impl"}
    assert cycles(graph) == [frozenset({"games.toy._impl", "games.user"})]
