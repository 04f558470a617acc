"""The shipped card and noble files, and the loader's refusal of malformed ones."""

from __future__ import annotations

import numpy as np
import pytest

from games.core import InputError
from games.splendor import _cards as cards


def test_tiers_colours_and_points():
    d = cards.load()
    tier, colour, points = d.tier[:90], d.colour[:90], d.points[:90]
    assert [int((tier == t).sum()) for t in range(3)] == [40, 30, 20]
    for t, per in enumerate((8, 6, 4)):
        assert np.bincount(colour[tier == t], minlength=5).tolist() == [per] * 5
    assert int(points.sum()) == 140
    assert [int(points[tier == t].sum()) for t in range(3)] == [5, 55, 80]


def test_nobles_patterns():
    d = cards.load()
    patterns = sorted(tuple(sorted(int(v) for v in r if v)) for r in d.noble_req)
    assert patterns == [(3, 3, 3)] * 5 + [(4, 4)] * 5
    assert (d.noble_points == 3).all()


def test_hidden_placeholders_cannot_be_paid():
    d = cards.load()
    assert (d.cost[90:] > 10).all() and d.tier[90:].tolist() == [0, 1, 2]


def _text(path):
    return path.read_text()


@pytest.mark.parametrize("mutate, needle", [
    (lambda t: t.replace("tier,color", "tier,colour", 1), "header"),
    (lambda t: t.rsplit("\n", 2)[0] + "\n", "expected 90 cards"),
    (lambda t: t.replace("1,white,0,0,3,0,0,0", "1,white,0,0,x,0,0,0", 1), "not an integer"),
    (lambda t: t.replace("1,white,0,0,3,0,0,0", "1,pink,0,0,3,0,0,0", 1), "unknown colour"),
    (lambda t: t.replace("1,white,0,0,3,0,0,0", "1,blue,0,0,3,0,0,0", 1), "of each colour"),
    (lambda t: t.replace("1,white,0,0,3,0,0,0", "1,white,1,0,3,0,0,0", 1), "points"),
    (lambda t: t.replace("1,white,0,0,3,0,0,0", "1,white,0,0,3,0", 1), "fields"),
])
def test_malformed_card_file(tmp_path, mutate, needle):
    from importlib import resources

    good = resources.files("games.splendor.data").joinpath("splendor_cards.csv").read_text()
    bad = tmp_path / "cards.csv"
    bad.write_text(mutate(good))
    with pytest.raises(InputError) as err:
        cards.load(bad)
    message = str(err.value)
    assert needle in message and "\n" not in message and "cards.csv" in message


def test_malformed_noble_file(tmp_path):
    bad = tmp_path / "nobles.csv"
    bad.write_text("points,white,blue,green,red,black\n" + "3,3,3,3,0,0\n" * 9 + "3,5,3,0,0,0\n")
    with pytest.raises(InputError, match="neither"):
        cards.load(None, bad)


def test_missing_file_is_one_line(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        cards.load(tmp_path / "nope.csv")
