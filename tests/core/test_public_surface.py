"""Each package's ``__init__`` is its public surface; implementation modules are private.

Read from the source with ``ast``, importing only the package ``__init__``s:

- every module of games/ and tuning/ is private by name (``_name.py``) unless it is one of
  the kinds of public module listed in :data:`PUBLIC` (each with why it is found by name);
- no module imports a private module of a package it is not inside: code outside a package
  goes through the package's ``__init__`` (tests and benchmarks, which measure the parts
  themselves, may reach in);
- below the CLI, ``tuning/`` never imports ``tuning.commands``;
- a package that names its public names lazily (:func:`games.lazy_exports.lazy_exports`)
  names only what its private modules define, and lists the same names in ``__all__``.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "tuning")

#: the modules kept public by name, by package (a ``*`` key: every game package), and why
PUBLIC: dict[str, set[str]] = {
    # the framework a game is written against: every module of the top package is its API
    "games": {"*"},
    # a game's catalog entry and the parts found beside it by name (games.capabilities)
    "games.*": {"game", "codec", "dealer", "board"},
    # reproductions registered by module name in a game's ``reproductions``, and the ones
    # the reports tell people to run with ``python -m``
    "games.deckbuilder.reproduce": {"cost"},
    "games.dominion.reproduce": {"baseset", "attack", "dominion_replica"},
    "games.splendor.reproduce": {"thesis", "genetic"},
    "games.thegame.reproduce": {"tables", "d2_weights"},
    # the trainer found through ``DominionGame.trainer()``; the two ``python -m`` tools
    "games.dominion.learning": {"trainer", "compare", "explain"},
    "games.splendor.learning": {"trainer"},
    # the bridges a game's codec and dealer subclass, and the two worlds a user opens
    "games.interop": {"bridge", "chance", "openspiel", "pettingzoo", "seats"},
    # the console script's entry point
    "tuning": {"cli"},
    # each command group, imported by name when its command runs (tuning.commands._lazy)
    "tuning.commands": {"balance", "board", "deviation", "evolve", "game_groups", "ladder",
                        "pages", "proxy", "reproduce", "study", "train", "watch"},
}
GAME_PACKAGES = ("games.deckbuilder", "games.dominion", "games.splendor", "games.thegame")


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            found[".".join(parts)] = path
    return found


def allowed_public(package: str) -> set[str]:
    allowed = set(PUBLIC.get(package, ()))
    if package in GAME_PACKAGES:
        allowed |= PUBLIC["games.*"]
    return allowed


def test_implementation_modules_are_private_by_name() -> None:
    public = []
    for name in modules():
        package, _, stem = name.rpartition(".")
        if stem.startswith("_"):
            continue
        allowed = allowed_public(package)
        if "*" not in allowed and stem not in allowed:
            public.append(name)
    assert not public, "public by name but not a kind of public module: " + ", ".join(public)


def reach_arounds(paths: dict[str, Path]) -> list[str]:
    found = []
    for name, path in paths.items():
        importer = name.removesuffix(".__init__")
        inside = importer if path.name == "__init__.py" else importer.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = inside.split(".")[: len(inside.split(".")) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                targets = [module] + [f"{module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            for target in targets:
                parts = target.split(".")
                if parts[0] not in PACKAGES:
                    continue
                for i, part in enumerate(parts):
                    if part.startswith("_") and not part.startswith("__"):
                        owner = ".".join(parts[:i])
                        if inside != owner and not inside.startswith(owner + "."):
                            found.append(f"{name}:{node.lineno} {target}")
                        break
    return found


def test_no_import_reaches_around_a_package_init() -> None:
    found = reach_arounds(modules())
    assert not found, "imports of another package's private module: " + "; ".join(found)


def test_the_rule_sees_a_reach_around(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from tuning.study._runner import run_study\n")
    assert reach_arounds({"games.bad": bad}) == ["games.bad:1 tuning.study._runner",
                                                 "games.bad:1 tuning.study._runner.run_study"]
    inside = tmp_path / "inside.py"
    inside.write_text("from ._runner import run_study\n")
    assert reach_arounds({"tuning.study.inside": inside}) == []


def test_below_the_cli_tuning_never_imports_its_commands() -> None:
    offenders = []
    for name, path in modules().items():
        if not name.startswith("tuning.") or name.startswith(("tuning.commands", "tuning.cli")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            module = (node.module or "") if isinstance(node, ast.ImportFrom) else ""
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [module]
            if any(n == "tuning.commands" or n.startswith("tuning.commands.") for n in names):
                offenders.append(f"{name}:{node.lineno}")
    assert not offenders, "tuning modules below the CLI importing tuning.commands: " + \
        ", ".join(offenders)


def lazy_packages() -> list[str]:
    return sorted(name.removesuffix(".__init__") for name, path in modules().items()
                  if path.name == "__init__.py" and "_EXPORTS" in path.read_text())


@pytest.mark.parametrize("package", lazy_packages())
def test_lazy_public_names_resolve_and_match_all(package: str) -> None:
    module = importlib.import_module(package)
    table = module._EXPORTS
    assert sorted(module.__all__) == sorted(table)
    for name, private in table.items():
        assert private.startswith("_"), f"{package}.{name} comes from public {private}"
        source = importlib.import_module(f"{package}.{private}")
        assert getattr(module, name) is getattr(source, name)
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018
    assert set(table) <= set(dir(module))


def test_every_package_says_what_it_offers() -> None:
    silent = [name for name, path in modules().items() if path.name == "__init__.py"
              and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
              and path.parent.name != "data"]
    assert not silent, "packages whose __init__ has no docstring: " + ", ".join(silent)
