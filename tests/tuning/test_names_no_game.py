"""No module of the tuning layer, and no shared module of ``games/`` (``games/*.py`` and
``games/interop/``: everything outside a game's own package), imports a game package or
names a game in code (a string, an identifier such as a game's class name): reports,
specs, checks and the OpenSpiel/PettingZoo bridge find game-specific work through the
game's registered description and the parts of its package. ``games/catalog.py`` is the
one place that lists the games by name.

``EXCEPTIONS`` lists the modules not moved beside their game yet; shrink it as they move
(a module that no longer names a game must leave the list). Benchmarks reach the
reproductions through the package's public entry points only."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from games import registry

ROOT = Path(__file__).resolve().parents[2]
TUNING = ROOT / "tuning"
#: the one shared module that names every game (a new game's one line)
CATALOG = "games/catalog.py"

#: folders and modules that still name games (to move beside their games)
EXCEPTIONS: tuple[str, ...] = ()


def _excepted(rel: str) -> bool:
    return any(rel == e or (e.endswith("/") and rel.startswith(e)) for e in EXCEPTIONS)


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring constants (docs may name games)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _identifiers(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.alias):
        return [node.asname or node.name.rpartition(".")[2]]
    return []


def game_mentions(source: str, games: set[str], classes: set[str] = frozenset()) -> list[str]:
    """Imports of ``games.<game>``, string literals naming a game (or its modules) and
    identifiers that hold a game's name or are one of ``classes`` (its classes' names)."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    alternatives = "|".join(map(re.escape, sorted(games)))
    module = re.compile(rf"games\.({alternatives})(\.|$)")
    # a game named in running text, e.g. a help text's example (not a study such as NAME-x)
    word = re.compile(rf"(?<![\w-])({alternatives})(?![\w-])", re.IGNORECASE)
    found = []
    flat_games = {g.replace("-", "").replace("_", "").lower() for g in games}
    for node in ast.walk(tree):
        for name in _identifiers(node):
            flat = name.replace("_", "").lower()
            if name in classes or any(g in flat for g in flat_games):
                found.append(f"line {getattr(node, 'lineno', '?')}: identifier {name}")
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names
                      if module.match(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            name = node.module or ""
            if module.match(name) or (name == "games" and
                                      any(a.name in games for a in node.names)):
                found.append(f"line {node.lineno}: from {name} import ...")
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docs
              and (node.value in games or module.match(node.value)
                   or word.search(node.value))):
            found.append(f"line {node.lineno}: {node.value!r}")
    return found


def _modules() -> list[tuple[str, Path]]:
    return [(p.relative_to(ROOT).as_posix(), p) for p in sorted(TUNING.rglob("*.py"))]


def _shared_game_modules() -> list[tuple[str, Path]]:
    """``games/*.py`` and ``games/interop/*.py``: every module of games/ outside a game's
    own package, the catalog excepted."""
    paths = [*(ROOT / "games").glob("*.py"), *(ROOT / "games" / "interop").rglob("*.py")]
    return [(rel, p) for p in sorted(paths)
            if (rel := p.relative_to(ROOT).as_posix()) != CATALOG]


@pytest.fixture(scope="module")
def games() -> set[str]:
    return set(registry.names())


@pytest.fixture(scope="module")
def classes(games) -> set[str]:
    """The names of the games' own classes: descriptions, codecs and dealers."""
    from games.capabilities import part

    out = set()
    for name in games:
        game = registry.get(name)
        out.add(type(game).__name__)
        out.update(p.__name__ for c in ("codec", "dealer") if (p := part(game, c)) is not None)
    return out


def test_the_scan_sees_imports_and_names(games):
    name = sorted(games)[0]
    assert game_mentions(f"import games.{name}.game\n", games)
    assert game_mentions(f"from games.{name} import x\n", games)
    assert game_mentions(f"from games import {name}\n", games)
    assert game_mentions(f"if game == {name!r}:\n    pass\n", games)
    assert game_mentions(f"importlib.import_module('games.{name}.game')\n", games)
    assert game_mentions(f"help = 'by name (e.g. {name.capitalize()})'\n", games)
    assert not game_mentions(f'"""Docs may name {name}."""\nfrom games import registry\n',
                             games)
    assert not game_mentions(f"x = '{name}-buylist'\nfrom games.core import InputError\n",
                             games)


def test_tuning_names_no_game(games, classes):
    offenders = {rel: hits for rel, path in _modules() if not _excepted(rel)
                 for hits in [game_mentions(path.read_text(encoding="utf-8"), games, classes)]
                 if hits}
    assert not offenders, ("modules of tuning/ that name a game (move the code beside its "
                           f"game, found through its description): {offenders}")


def test_the_scan_sees_identifiers(games):
    name = sorted(games)[0]
    assert game_mentions(f"class {name.capitalize()}Bridge:\n    pass\n", games)
    assert game_mentions("x = codecs.SomeGameCodec\n", games, {"SomeGameCodec"})
    assert game_mentions(f"def f({name}_options):\n    pass\n", games)
    assert not game_mentions("def f(game, options):\n    pass\n", games, {"Other"})


def test_shared_modules_of_games_name_no_game(games, classes):
    modules = _shared_game_modules()
    assert any(rel == "games/registry.py" for rel, _ in modules)
    assert any(rel.startswith("games/interop/") for rel, _ in modules)
    offenders = {rel: hits for rel, path in modules
                 for hits in [game_mentions(path.read_text(encoding="utf-8"), games, classes)]
                 if hits}
    assert not offenders, ("shared modules of games/ that name a game (move the code into "
                           f"the game's package, found by presence): {offenders}")


def test_the_catalog_is_the_shared_module_that_names_the_games(games):
    from games import catalog

    assert set(catalog.BUILTIN) <= games
    text = (ROOT / CATALOG).read_text(encoding="utf-8")
    assert all(game_mentions(text, {name}) for name in catalog.BUILTIN)


def test_no_game_package_imports_the_shared_interop_layer_to_join_it():
    """A game offers OpenSpiel by the parts in its package; the registry seats OpenSpiel's
    bots (games.interop.seats), so no game module imports that layer."""
    found = []
    for path in sorted((ROOT / "games").glob("*/*.py")):
        if path.parent.name == "interop":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "") == "games.interop.seats":
                found.append(path.relative_to(ROOT).as_posix())
    assert not found, found


def test_every_exception_still_names_a_game(games):
    for entry in EXCEPTIONS:
        paths = [p for rel, p in _modules() if _excepted(rel) and
                 (rel == entry or rel.startswith(entry))]
        assert any(game_mentions(p.read_text(encoding="utf-8"), games) for p in paths), \
            f"{entry} names no game any more: remove it from EXCEPTIONS"


def test_benchmarks_use_the_public_entry_points_of_the_reproductions():
    private = []
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            private += [f"{path.name}:{node.lineno} {m}" for m in modules
                        if m.startswith("tuning.reproduce.")]
    assert not private, f"import from tuning.reproduce (its __init__) instead: {private}"
