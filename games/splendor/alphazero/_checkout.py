"""The user's checkout of cestpasphoto/alpha-zero-general: checked, then imported at run
time (nothing of it is copied into this package).

:func:`check_checkout` looks at files only (no import, no PyTorch), so bad input is
answered at once: a missing folder, a folder that is not that repository, a missing model
file. :func:`load` imports the repository's own Splendor game, its ``pit.create_player``
(the model loaded as its README's ``pit.py`` loads it, MCTS with the model's own settings,
the most visited move played) and its tables; it needs the ``alphazero`` extra (PyTorch,
torchvision, ONNX, onnxruntime).

The referee draws refills and blind reserves from numba's global random state (its engine
has no seed argument), so :func:`seed_referee` seeds that state before each game: the same
seed gives the same game, as far as the referee is concerned.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from games.core import InputError
from games.splendor.alphazero._tables import Tables

REPOSITORY = "cestpasphoto/alpha-zero-general"
#: the commit the report was measured with
COMMIT = "5d6d1f129b76659837f6afd6fb082e8da57e5428"
MODEL = "splendor/pretrained_2players.pt"
NEEDED = ("MCTS.py", "pit.py", "GameSwitcher.py", "GenericNNetWrapper.py",
          "splendor/SplendorGame.py", "splendor/SplendorLogic.py",
          "splendor/SplendorLogicNumba.py", "splendor/NNet.py")
EXTRA = "pip install -e '.[alphazero]'"


def check_checkout(path: str | Path, model: str | Path | None = None) -> tuple[Path, Path]:
    """(checkout folder, model file), or an InputError of one line saying what is wrong."""
    root = Path(path).expanduser()
    if not root.is_dir():
        raise InputError(f"--az {path}: no such folder (make it with: git clone "
                         f"https://github.com/{REPOSITORY} {path})")
    missing = [f for f in NEEDED if not (root / f).is_file()]
    if missing:
        raise InputError(f"--az {path}: not a checkout of {REPOSITORY} (no {missing[0]})")
    weights = Path(model).expanduser() if model else root / MODEL
    if not weights.is_file():
        raise InputError(f"model file {weights} not found (the checkout holds it as "
                         f"{MODEL}; another with --model FILE)")
    return root.resolve(), weights.resolve()


@njit
def seed_referee(seed: int) -> None:
    """Seed numba's global random state, which the referee's card draws use."""
    np.random.seed(seed)


@dataclass
class AlphaZero:
    """The referee game (the repository's ``SplendorGame``), its tables and one AlphaZero
    player per simulation budget: ``players[sims](canonical_board, move_number)``."""

    game: Any
    tables: Tables
    players: dict[int, Callable[[np.ndarray, int], int]]
    reset: Callable[[], None]


def _import(root: Path) -> Any:
    try:
        return importlib.import_module("pit")
    except ImportError as exc:
        raise InputError(f"the alphazero extra is missing ({exc}): {EXTRA}") from None


def referee(root: Path) -> AlphaZero:
    """The checkout's Splendor game and tables, without any player (no PyTorch needed)."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        logic = importlib.import_module("splendor.SplendorLogic")
        game = importlib.import_module("splendor.SplendorGame").SplendorGame()
    except ImportError as exc:
        raise InputError(f"the alphazero extra is missing ({exc}): {EXTRA}") from None
    tables = Tables((logic.np_all_cards_1, logic.np_all_cards_2, logic.np_all_cards_3),
                    logic.np_all_nobles, logic.np_different_gems_up_to_3,
                    logic.np_different_gems_up_to_2)
    return AlphaZero(game, tables, {}, lambda: None)


def load(root: Path, weights: Path, simulations: list[int]) -> AlphaZero:
    """The referee with one AlphaZero player per budget (its loader's chatter goes to
    stderr)."""
    az = referee(root)
    pit = _import(root)
    mcts = importlib.import_module("MCTS")
    utils = importlib.import_module("utils")
    players = {}
    for sims in simulations:
        args = utils.dotdict(game="splendor", numMCTSSims=sims, fpu=None, cpuct=None)
        try:
            with contextlib.redirect_stdout(sys.stderr):
                players[sims] = pit.create_player(str(weights), args)
        except Exception as exc:  # its loader prints and returns None on a bad file
            raise InputError(f"model file {weights} could not be loaded "
                             f"({type(exc).__name__}: {exc})") from None
    return AlphaZero(az.game, az.tables, players, mcts.MCTS.reset_all_search_trees)


def warm(az: AlphaZero) -> None:
    """One move per player on a new board, so that compiling and the ONNX export are not
    timed (its temporary file goes to a temporary folder)."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(sys.stderr):
        os.chdir(tmp)
        try:
            board = az.game.getInitBoard()
            for player in az.players.values():
                player(az.game.getCanonicalForm(board, 0), 1)
        finally:
            os.chdir(here)
    az.reset()
