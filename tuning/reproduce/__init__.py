"""`tabletune reproduce NAME`: one generic runner over the reproductions games register.

A reproduction belongs to its game (its description's ``reproductions``: name -> module, the
protocol of :mod:`games.reproduction`). This runner finds it by name, checks the request
against the module's declarations (``settings_for``), opens one worker pool for the whole
run and hands the module its :class:`~games.reproduction.Settings` with the pool, a pool
factory and the one match runner, so a game's reproduction plays in parallel without
importing this layer. """

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path
from types import ModuleType

from games.capabilities import use
from games.core import InputError
from games.reproduction import Settings
from tuning.reproduce._common import outside_reports, parse_sizes, settings_for

__all__ = ["Settings", "game_module", "outside_reports", "parse_sizes", "reproduce_game",
           "reproductions", "settings_for"]


def reproductions() -> dict[str, str]:
    """Every reproduction by name -> its module, as the registered games declare them."""
    from games import registry

    found: dict[str, str] = {}
    for name in registry.names():
        for title, module in use(registry.get(name), "reproductions").reproductions.items():
            if title in found and found[title] != module:
                raise RuntimeError(f"two games register the reproduction {title!r}")
            found[title] = module
    return found


def game_module(name: str) -> ModuleType:
    """The reproduction module called ``name``; one-line InputError for an unknown name."""
    known = reproductions()
    if name not in known:
        raise InputError(f"no reproduction named {name!r} (choose from {', '.join(known)})")
    return importlib.import_module(known[name])


def reproduce_game(game: str, out_dir: Path | str | None = None, **request) -> list[Path]:
    """Run the reproduction called ``game`` into ``out_dir`` (default: its report folder).

    ``request`` takes the keywords of ``settings_for`` (jobs, seed, from_json, scale,
    sizes, parts, params, benchmark); returns the files written."""
    from tuning.evaluation import WorkerPool, run_match

    module = game_module(game)
    settings = settings_for(module, game, **request)
    out = Path(out_dir or module.FOLDER)
    if settings.from_json:
        return with_page(out, module.reproduce(out, settings))
    with WorkerPool(settings.jobs) as pool:
        return with_page(out, module.reproduce(out, dataclasses.replace(
            settings, pool=pool, open_pool=WorkerPool, run_match=run_match)))


def with_page(out: Path, written: list[Path]) -> list[Path]:
    """``written`` and the folder's index.html, rendered from the README just written (the
    page states what the README states; see :mod:`tuning.reporting._readme_page`)."""
    from tuning.reporting import builds_own_page, write_readme_page

    if (out / "README.md").is_file() and not builds_own_page(out):
        return [*written, write_readme_page(out)]
    return written
