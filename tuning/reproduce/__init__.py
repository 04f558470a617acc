"""Reproductions behind the committed reports: one module per report, one entry point each.

Every module declares FOLDER (its report folder), SIZES (game counts with their full
defaults), PARTS, SEED (None where the seeds are fixed), PARAMS and BENCHMARK (whether it
takes ``--param`` and ``--benchmark``), and exposes ``reproduce(out_dir, settings)``: it
writes its data JSON and README.md into ``out_dir``, reading the hand-written text the
README includes (template.md, notes.md) from the report folder itself. With
``settings.from_json`` it only rewrites the README from the data already there.
``tabletune reproduce GAME`` is the command line over ``reproduce_game``.

Benchmarks share measurements with the reproductions through this module only:
``outside_reports`` (benchmarks never write into reports/) and the names of ``SHARED``,
loaded on first use so that importing this package loads no game.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

from games.core import InputError
from tuning.reproduce.common import Settings, outside_reports, parse_sizes, settings_for

#: measurements that benchmarks share with the reproductions: name -> defining module
SHARED = {
    "dp_run": "tuning.reproduce.deckbuilder_cost",
    "fit_power": "tuning.reproduce.deckbuilder_cost",
    "play_many": "tuning.reproduce.dominion_play",
    "MATCHUPS": "tuning.reproduce.dominion_speed",
    "best_rate": "tuning.reproduce.dominion_speed",
    "peak_kib": "tuning.reproduce.dominion_speed",
    "worker_peak_mib": "tuning.reproduce.dominion_speed",
}

__all__ = ["GAMES", "SHARED", "Settings", "game_module", "outside_reports", "parse_sizes",
           "reproduce_game", "settings_for", *SHARED]

GAMES = {
    "deckbuilder": "tuning.reproduce.deckbuilder",
    "dominion": "tuning.reproduce.dominion",
    "thegame": "tuning.reproduce.thegame",
    "thegame-d2-weights": "tuning.reproduce.thegame_d2_weights",
    "splendor": "tuning.reproduce.splendor",
    "splendor-genetic": "tuning.reproduce.splendor_genetic",
}


def game_module(game: str) -> ModuleType:
    """The reproduction module of ``game``; one-line InputError for an unknown name."""
    if game not in GAMES:
        raise InputError(f"no reproduction named {game!r} (choose from {', '.join(GAMES)})")
    return importlib.import_module(GAMES[game])


def reproduce_game(game: str, out_dir: Path | str | None = None, **request) -> list[Path]:
    """Run ``game``'s reproduction into ``out_dir`` (default: its report folder).

    ``request`` takes the keywords of ``settings_for`` (jobs, seed, from_json, scale,
    sizes, parts, params, benchmark); returns the files written."""
    module = game_module(game)
    settings = settings_for(module, game, **request)
    return module.reproduce(Path(out_dir or module.FOLDER), settings)


def __getattr__(name: str) -> Any:
    """The names of ``SHARED``, imported from their module on first use."""
    if name in SHARED:
        return getattr(importlib.import_module(SHARED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
