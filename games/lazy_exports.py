"""A package's public names, imported from its private modules on first use.

Each package's ``__init__`` is its public surface: it lists what the package offers and
which private module (``_name.py``) holds each name, and code outside the package imports
from the package, never from a private module. Importing the package itself loads none of
those modules (PEP 562's module ``__getattr__``), so ``tabletune --help`` and a worker that
needs one function stay light:

.. code-block:: python

    __getattr__, __dir__ = lazy_exports(__name__, {"run_study": "_runner", ...})
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: Mapping[str, str]
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``'s ``__init__``: ``exports`` maps
    each public name to the private module (relative to the package) that defines it. A
    name is imported once, then kept in the package's namespace."""
    table = dict(exports)

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(table))

    return __getattr__, __dir__
