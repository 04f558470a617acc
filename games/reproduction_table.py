"""A reproduction that is only data: line-ups, options, seeds and published values in a TOML
table beside the game, each row played by one generic runner.

A table file reads::

    game = "NAME"               # the registered game every row plays
    seed = 2013                 # root seed of every part (``--seed`` overrides it)

    [seeds]                     # optional: a part's own root seed (``--seed`` overrides it)
    PART = 140014

    [columns]                   # optional: the names two row fields take in the data JSON
    published = "thesis"        #   the published value (default "published")
    turns = "mean_rounds"       #   the mean of the games' turns (default "mean_turns")

    [[parts.PART]]              # one row of part PART; rows play in file order
    label = "Bot A vs Bot B"
    candidate = "bot-a:3"       # bot specs as ``--bots`` takes them
    opponent = "bot-b"
    size = "games"              # the reproduction's size that gives the row's game count
    published = 48              # optional: the published value (a percentage)
    options = { cap = 100 }     # optional: the game's options (default: its defaults)

A bot spec may hold ``{NAME}`` fields that the reproduction fills (``fill``) from its game's
own data, so a row that plays a tuned strategy follows it. The module of such a reproduction
loads its table with :func:`load_table` and plays the requested parts with :func:`collect`
(or one part with :func:`play_part`): each part leaves ``results-PART.json`` (seed, the
command, one row per line-up, saved after every row), which the module's README reads.
"""

from __future__ import annotations

import json
import time
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.core import InputError, Record
from games.reproduction import Settings, say

__all__ = ["Row", "Table", "collect", "load_table", "measure", "play_part"]

_ROW_KEYS = {"label", "candidate", "opponent", "size", "published", "options"}
_TOP_KEYS = {"game", "seed", "seeds", "columns", "parts"}


@dataclass(frozen=True)
class Row:
    """One line-up of a part: two bots, the size giving its game count, the published value."""

    label: str
    candidate: str
    opponent: str
    size: str
    published: int | float | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Table:
    """A reproduction's line-ups by part, the game they play and their root seeds."""

    game: str
    seed: int
    parts: Mapping[str, tuple[Row, ...]]
    seeds: Mapping[str, int] = field(default_factory=dict)
    published_key: str = "published"
    turns_key: str = "mean_turns"

    def seed_for(self, part: str, override: int | None = None) -> int:
        """The root seed of ``part``: ``override`` (``--seed``), else its own, else the
        table's."""
        return override if override is not None else self.seeds.get(part, self.seed)


def _fail(path: Path, where: str, what: str) -> InputError:
    return InputError(f"{path}: {where}: {what}")


def _text(path: Path, where: str, value: Any, fill: Mapping[str, str]) -> str:
    if not isinstance(value, str) or not value:
        raise _fail(path, where, f"expected a non-empty string, got {value!r}")
    if "{" not in value:
        return value
    try:
        return value.format_map(fill)
    except (KeyError, ValueError, IndexError) as exc:
        raise _fail(path, where, f"cannot fill {value!r} ({exc})") from None


def _row(path: Path, where: str, raw: Any, sizes: Collection[str],
         fill: Mapping[str, str]) -> Row:
    if not isinstance(raw, dict):
        raise _fail(path, where, "expected a table")
    unknown = set(raw) - _ROW_KEYS
    if unknown:
        raise _fail(path, where, f"unknown key {sorted(unknown)[0]!r} "
                                 f"(allowed: {', '.join(sorted(_ROW_KEYS))})")
    for key in ("label", "candidate", "opponent", "size"):
        if key not in raw:
            raise _fail(path, where, f"missing {key!r}")
    size = _text(path, f"{where}.size", raw["size"], {})
    if sizes and size not in sizes:
        raise _fail(path, f"{where}.size", f"no size {size!r} (sizes: {', '.join(sizes)})")
    published = raw.get("published")
    if published is not None and (isinstance(published, bool)
                                  or not isinstance(published, int | float)):
        raise _fail(path, f"{where}.published", f"expected a number, got {published!r}")
    options = raw.get("options", {})
    if not isinstance(options, dict):
        raise _fail(path, f"{where}.options", "expected a table")
    return Row(label=_text(path, f"{where}.label", raw["label"], {}),
               candidate=_text(path, f"{where}.candidate", raw["candidate"], fill),
               opponent=_text(path, f"{where}.opponent", raw["opponent"], fill),
               size=size, published=published, options=dict(options))


def _int(path: Path, where: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _fail(path, where, f"expected a whole number >= 0, got {value!r}")
    return value


def load_table(path: Path | str, *, sizes: Collection[str] = (),
               fill: Mapping[str, str] | None = None) -> Table:
    """Read the table at ``path``; ``sizes`` are the reproduction's size names (every row's
    ``size`` must be one), ``fill`` the values of the ``{NAME}`` fields in bot specs.

    A malformed table is a one-line :class:`InputError` naming the file and the key."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not TOML ({exc})") from None
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise _fail(path, sorted(unknown)[0],
                    f"unknown key (allowed: {', '.join(sorted(_TOP_KEYS))})")
    for key in ("game", "seed", "parts"):
        if key not in data:
            raise _fail(path, key, "missing")
    parts = data["parts"]
    if not isinstance(parts, dict) or not parts:
        raise _fail(path, "parts", "expected at least one [[parts.NAME]] row")
    rows: dict[str, tuple[Row, ...]] = {}
    for part, raw_rows in parts.items():
        if not isinstance(raw_rows, list) or not raw_rows:
            raise _fail(path, f"parts.{part}", "expected [[parts.NAME]] rows")
        rows[part] = tuple(_row(path, f"parts.{part}[{i}]", raw, sizes, fill or {})
                           for i, raw in enumerate(raw_rows))
    seeds = data.get("seeds", {})
    if not isinstance(seeds, dict):
        raise _fail(path, "seeds", "expected a table of part = seed")
    for part in seeds:
        if part not in rows:
            raise _fail(path, f"seeds.{part}", f"no part {part!r} (parts: {', '.join(rows)})")
    columns = data.get("columns", {})
    if not isinstance(columns, dict) or set(columns) - {"published", "turns"}:
        raise _fail(path, "columns", "expected a table with published and/or turns")
    return Table(game=_text(path, "game", data["game"], {}),
                 seed=_int(path, "seed", data["seed"]), parts=rows,
                 seeds={p: _int(path, f"seeds.{p}", s) for p, s in seeds.items()},
                 published_key=_text(path, "columns.published",
                                     columns.get("published", "published"), {}),
                 turns_key=_text(path, "columns.turns", columns.get("turns", "mean_turns"), {}))


def measure(settings: Settings, game: str, candidate: str, opponent: str,
            options: Mapping[str, Any], games: int, seed: int,
            turns_key: str = "mean_turns") -> dict[str, Any]:
    """One line-up: ``games`` seeded games of ``candidate`` against ``opponent``, seats
    rotated, on the run's pool; the candidate's score and interval, and the first seat's
    share over both bots (the first-player advantage)."""
    from games.registry import get

    if settings.run_match is None or settings.pool is None:
        raise RuntimeError("a reproduction plays its rows with the runner's pool and match")
    described = get(game)
    specs = [described.parse_bot(candidate), described.parse_bot(opponent)]
    checked = described.check_options(dict(options))
    t0 = time.perf_counter()
    data = settings.run_match(game, specs, checked, games=games, seed=seed, pool=settings.pool,
                              block=max(1, min(250, games // (4 * settings.jobs))))
    summary = data.to_dict()
    first, other = list(summary["bots"].values())
    seat0 = Record()
    for row in (first, other):
        s = row["per_seat"][0]
        seat0.add(Record(s["wins"], s["ties"], s["losses"]))
    out = {"candidate": candidate, "opponent": opponent, "games": games, "seed": seed,
           "score": first["score"], "score_ci": list(first["score_ci"]),
           "wins": first["wins"], "ties": first["ties"], "losses": first["losses"],
           "first_seat": seat0.score, "first_seat_ci": list(seat0.score_ci),
           turns_key: summary["mean_turns"], "capped_games": summary["capped_games"],
           "seconds": time.perf_counter() - t0}
    say(f"  {candidate} vs {opponent}: {100 * out['score']:.1f}% "
        f"({games} games, {out['seconds']:.0f} s)")
    return out


def play_part(out_dir: Path, settings: Settings, table: Table, part: str) -> Path:
    """Play every row of ``part`` into ``out_dir/results-PART.json``, saved after each row."""
    seed = table.seed_for(part, settings.seed)
    path = Path(out_dir) / f"results-{part}.json"
    out: dict[str, Any] = {"seed": seed, "command": settings.command(), "rows": []}
    for row in table.parts[part]:
        result = measure(settings, table.game, row.candidate, row.opponent, row.options,
                         settings.n(row.size), seed, table.turns_key)
        out["rows"].append({"label": row.label, table.published_key: row.published, **result})
        path.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return path


def collect(out_dir: Path, settings: Settings, table: Table) -> list[Path]:
    """Play every requested part of ``table`` (``settings.parts``); return the files."""
    return [play_part(out_dir, settings, table, part) for part in settings.parts]
