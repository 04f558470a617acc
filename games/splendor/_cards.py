"""The 90 development cards and 10 nobles, loaded from the package's CSV files and checked.

Cards become integer ids 0..89 in file order; rows 90..92 are placeholders for a hidden
card of tier 1..3 (a deck top or an opponent's blind reserve seen from outside): they cost
more than any player can pay, so search can hold them but never buy them. The tables are
plain numpy arrays that the numba kernels read as constants.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from games.core import InputError

COLOURS = ("white", "blue", "green", "red", "black")
GOLD = 5
N_COLOURS = 5
N_CARDS = 90
N_NOBLES = 10
TIER_SIZES = (40, 30, 20)
PER_COLOUR = (8, 6, 4)
TOTAL_POINTS = 140  # what the shipped card file sums to (5 + 55 + 80 by tier)
HIDDEN = 90  # HIDDEN + t: an unknown card of tier t (0-based)
UNPAYABLE = 99
_CARD_HEADER = ["tier", "color", "points", *COLOURS]
_NOBLE_HEADER = ["points", *COLOURS]


@dataclass(frozen=True)
class CardData:
    """Card and noble tables: ``cost[c, colour]``, ``points[c]``, ``tier[c]`` (0-based),
    ``colour[c]`` for ids 0..92 (90..92 hidden placeholders); ``noble_req[n, colour]`` and
    ``noble_points[n]``."""

    cost: np.ndarray
    points: np.ndarray
    tier: np.ndarray
    colour: np.ndarray
    noble_req: np.ndarray
    noble_points: np.ndarray


def _rows(text: str, header: list[str], where: str) -> list[list[int | str]]:
    reader = csv.reader(io.StringIO(text))
    try:
        head = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        raise InputError(f"{where}: the file is empty") from None
    if head != header:
        raise InputError(f"{where}: header must be {','.join(header)}, got {','.join(head)}")
    out = []
    for line, row in enumerate(reader, start=2):
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise InputError(f"{where} line {line}: expected {len(header)} fields, "
                             f"got {len(row)}")
        parsed: list[int | str] = []
        for name, cell in zip(header, row, strict=True):
            cell = cell.strip()
            if name == "color":
                if cell.lower() not in COLOURS:
                    raise InputError(f"{where} line {line}: unknown colour {cell!r}")
                parsed.append(cell.lower())
                continue
            try:
                value = int(cell)
            except ValueError:
                raise InputError(f"{where} line {line}: {name} {cell!r} is not an "
                                 f"integer") from None
            if value < 0:
                raise InputError(f"{where} line {line}: {name} {value} is negative")
            parsed.append(value)
        out.append(parsed)
    return out


def parse_cards(text: str, where: str = "cards") -> tuple[np.ndarray, ...]:
    """(cost, points, tier, colour) of the 90 cards in ``text``; InputError when malformed."""
    rows = _rows(text, _CARD_HEADER, where)
    if len(rows) != N_CARDS:
        raise InputError(f"{where}: expected {N_CARDS} cards, got {len(rows)}")
    cost = np.full((N_CARDS + 3, N_COLOURS), UNPAYABLE, dtype=np.int64)
    points = np.zeros(N_CARDS + 3, dtype=np.int64)
    tier = np.zeros(N_CARDS + 3, dtype=np.int64)
    colour = np.zeros(N_CARDS + 3, dtype=np.int64)
    counts = np.zeros((3, N_COLOURS), dtype=np.int64)
    for c, row in enumerate(rows):
        t = int(row[0])
        if t not in (1, 2, 3):
            raise InputError(f"{where} line {c + 2}: tier {t} is not 1, 2 or 3")
        tier[c] = t - 1
        colour[c] = COLOURS.index(str(row[1]))
        points[c] = int(row[2])
        cost[c] = [int(v) for v in row[3:]]
        if cost[c].sum() == 0:
            raise InputError(f"{where} line {c + 2}: a card must cost something")
        counts[t - 1, colour[c]] += 1
    for t in range(3):
        if counts[t].sum() != TIER_SIZES[t]:
            raise InputError(f"{where}: tier {t + 1} has {counts[t].sum()} cards, "
                             f"expected {TIER_SIZES[t]}")
        bad = [COLOURS[k] for k in range(N_COLOURS) if counts[t, k] != PER_COLOUR[t]]
        if bad:
            raise InputError(f"{where}: tier {t + 1} needs {PER_COLOUR[t]} cards of each "
                             f"colour; {bad[0]} has {counts[t, COLOURS.index(bad[0])]}")
    if int(points[:N_CARDS].sum()) != TOTAL_POINTS:
        raise InputError(f"{where}: cards total {int(points.sum())} points, "
                         f"expected {TOTAL_POINTS}")
    for t in range(3):
        tier[HIDDEN + t] = t
    return cost, points, tier, colour


def parse_nobles(text: str, where: str = "nobles") -> tuple[np.ndarray, np.ndarray]:
    """(requirements, points) of the 10 nobles; InputError when malformed."""
    rows = _rows(text, _NOBLE_HEADER, where)
    if len(rows) != N_NOBLES:
        raise InputError(f"{where}: expected {N_NOBLES} nobles, got {len(rows)}")
    req = np.array([r[1:] for r in rows], dtype=np.int64)
    pts = np.array([r[0] for r in rows], dtype=np.int64)
    for n in range(N_NOBLES):
        pattern = sorted(int(v) for v in req[n] if v)
        if pattern not in ([3, 3, 3], [4, 4]):
            raise InputError(f"{where} line {n + 2}: requirement {list(req[n])} is neither "
                             "3+3+3 nor 4+4")
        if pts[n] != 3:
            raise InputError(f"{where} line {n + 2}: a noble is worth 3 points, got {pts[n]}")
    if len({tuple(r) for r in req.tolist()}) != N_NOBLES:
        raise InputError(f"{where}: two nobles have the same requirement")
    return req, pts


def load(cards_path: str | Path | None = None,
         nobles_path: str | Path | None = None) -> CardData:
    """The checked tables, from the shipped files unless paths are given."""

    def text(path: str | Path | None, name: str) -> tuple[str, str]:
        if path is None:
            return resources.files("games.splendor.data").joinpath(name).read_text(), name
        try:
            return Path(path).read_text(), str(path)
        except OSError as exc:
            raise InputError(f"{path}: cannot read ({exc.strerror})") from None

    cost, points, tier, colour = parse_cards(*text(cards_path, "splendor_cards.csv"))
    req, npts = parse_nobles(*text(nobles_path, "splendor_nobles.csv"))
    return CardData(cost, points, tier, colour, req, npts)


DATA = load()
COST = DATA.cost
POINTS = DATA.points
TIER = DATA.tier
COLOUR = DATA.colour
NOBLE_REQ = DATA.noble_req
