"""Typer's rich help pages without the two imports they never use here.

``typer.rich_utils`` (which draws every ``--help`` page) imports ``rich.markdown`` and
``rich.traceback`` at module level: Markdown for help written in Markdown (this app's help
is plain text: ``rich_markup_mode="rich"``) and Traceback for pretty exceptions (off:
``pretty_exceptions_enable=False``). With markdown_it and attrs behind them they cost about
0.07 s, a quarter of ``tabletune --help``. :func:`load` imports ``typer.rich_utils`` with
stand-ins for those two classes that import the real class the first time they are used,
so the pages are drawn as before (``tests/tuning/test_cli_lazy.py`` compares them) and a
Markdown help text would still render. The stand-ins exist only while ``typer.rich_utils``
is imported: any later ``import rich.markdown`` gets the real module.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

#: module -> class name that typer.rich_utils imports from it and does not need to draw help
DEFERRED = {"rich.markdown": "Markdown", "rich.traceback": "Traceback"}


class _Deferred(type):
    """Metaclass of a stand-in: class attributes (``Traceback.from_exception``) come from
    the real class."""

    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(cls._real(), name)  # type: ignore[attr-defined]


def _stand_in(module: str, name: str) -> type:
    """A class that builds, and reads attributes from, ``module.name`` on first use."""

    def real() -> Any:
        return getattr(importlib.import_module(module), name)

    def new(cls: type, *args: Any, **kwargs: Any) -> Any:
        return real()(*args, **kwargs)

    return _Deferred(name, (), {"__new__": new, "_real": staticmethod(real),
                                "__doc__": f"Stand-in for {module}.{name} (first use imports it)."})


def load() -> None:
    """Import ``typer.rich_utils`` (once) without importing ``rich.markdown`` and
    ``rich.traceback``; where that fails (another Typer), import it as it is."""
    if "typer.rich_utils" in sys.modules:
        return
    placed = [m for m in DEFERRED if m not in sys.modules]
    for module in placed:
        stub = types.ModuleType(module)
        setattr(stub, DEFERRED[module], _stand_in(module, DEFERRED[module]))
        sys.modules[module] = stub
    try:
        importlib.import_module("typer.rich_utils")
    except Exception:  # noqa: BLE001 - a Typer that needs more of them: the plain import
        sys.modules.pop("typer.rich_utils", None)
    finally:
        for module in placed:
            sys.modules.pop(module, None)
    importlib.import_module("typer.rich_utils")
