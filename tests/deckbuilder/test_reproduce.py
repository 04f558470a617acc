"""The deck-building reproduction lives beside its game: registered in the game's
description, free of the tuning layer, and its simulations spread over the run's pool
with the same figures for any number of workers."""

from __future__ import annotations

from pathlib import Path

from games import registry
from games.deckbuilder import reproduce
from tuning.reproduce import game_module, reproductions

PACKAGE = Path(reproduce.__file__).parent


class SerialPool:
    """The pool protocol ``settings.pool`` follows (``jobs``, an ordered ``map``), in one
    process."""

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs

    def map(self, fn, tasks):
        return [fn(*task) for task in tasks]


def test_reproduce_deckbuilder_is_found_through_the_registry():
    assert registry.get("deckbuilder").reproductions == {
        "deckbuilder": "games.deckbuilder.reproduce"}
    assert reproductions()["deckbuilder"] == "games.deckbuilder.reproduce"
    assert game_module("deckbuilder") is reproduce
    assert reproduce.FOLDER == "reports/deckbuilder"


def test_simulated_figures_do_not_depend_on_the_pool_size():
    one = reproduce.simulated(SerialPool(1), "picky", 12, 37, seed=250)
    three = reproduce.simulated(SerialPool(3), "picky", 12, 37, seed=250)
    other = reproduce.simulated(SerialPool(3), "picky", 12, 37, seed=251)
    assert one.n == three.n == 37
    assert one.to_dict() == three.to_dict()
    assert other.to_dict() != one.to_dict()
