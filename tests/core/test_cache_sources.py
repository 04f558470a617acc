"""Every module of a game that compiles a numba kernel is in that game's cache fingerprint
(``games/<game>/_cache.py``): a kernel freezes the layouts, tables and helpers of the other
modules, so a change to any of them must drop every cached kernel of the game (a stale one
failed with a wrong state size after Splendor's state grew a slot)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "games"
CACHED = sorted(p.parent.name for p in GAMES.glob("*/_cache.py"))


def test_the_games_with_cached_kernels_are_found():
    assert {"dominion", "splendor", "thegame"} <= set(CACHED)


@pytest.mark.parametrize("game", CACHED)
def test_every_module_with_a_kernel_is_fingerprinted(game):
    cache = importlib.import_module(f"games.{game}._cache")
    folder = GAMES / game
    compiled = {p.name for p in folder.glob("*.py")
                if "njit" in p.read_text(encoding="utf-8") and p.name != "_cache.py"}
    assert compiled <= set(cache._SOURCES), sorted(compiled - set(cache._SOURCES))
