"""Checking a reproduction request against what its module declares.

``settings_for`` checks a request (jobs, seed, scale, sizes, parts, params, benchmark)
against a reproduction module's SIZES, PARTS, SEED, PARAMS and BENCHMARK in one place, so
every bad flag stops with one line (``InputError``) before any game is played. The module
protocol and the helpers reproductions share live in :mod:`games.reproduction`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

from games.core import InputError
from games.reproduction import Settings, check_benchmark


def settings_for(module: ModuleType, game: str, *, jobs: int = 1, seed: int | None = None,
                 from_json: bool = False, scale: float = 1.0,
                 sizes: Mapping[str, int] | None = None, parts: Sequence[str] | None = None,
                 params: Mapping[str, str] | None = None,
                 benchmark: Path | None = None) -> Settings:
    """Check a request against ``module``'s SIZES, PARTS, SEED, PARAMS and BENCHMARK."""
    if jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {jobs}")
    if not scale > 0:
        raise InputError(f"--scale must be positive, got {scale}")
    declared: dict[str, int] = dict(module.SIZES)
    given = dict(sizes or {})
    for name, value in given.items():
        if name not in declared:
            allowed = ", ".join(declared) or "none"
            raise InputError(f"{game} has no size {name!r} (sizes: {allowed})")
        if value < 0 or (value == 0 and name.endswith("games")):
            raise InputError(f"--size {name} must be positive, got {value}")
    resolved = {name: given.get(name, max(10, int(value * scale)) if name.endswith("games")
                                else value)
                for name, value in declared.items()}
    all_parts: tuple[str, ...] = tuple(module.PARTS)
    chosen = tuple(parts) if parts else all_parts
    for part in chosen:
        if part not in all_parts:
            raise InputError(f"{game} has no part {part!r} (parts: {', '.join(all_parts)})")
    if seed is not None and module.SEED is None:
        raise InputError(f"{game} plays fixed seeds (stated in its README); drop --seed")
    if params and not module.PARAMS:
        raise InputError(f"{game} takes no --param")
    if benchmark is not None:
        if not module.BENCHMARK:
            raise InputError(f"{game} takes no --benchmark")
        check_benchmark(Path(benchmark))  # before any game is played
    return Settings(game=game, jobs=jobs, seed=seed, from_json=from_json, sizes=resolved,
                    given=given, scale=scale, parts=chosen, params=dict(params or {}),
                    benchmark=None if benchmark is None else Path(benchmark),
                    all_parts=all_parts)


def parse_sizes(items: Sequence[str]) -> dict[str, int]:
    """``name=N`` pairs from ``--size`` flags; one-line errors for anything else."""
    out: dict[str, int] = {}
    for item in items:
        name, sep, value = item.partition("=")
        try:
            out[name.strip()] = int(value.replace("_", "").replace(",", ""))
        except ValueError:
            sep = ""
        if not sep or not name.strip():
            raise InputError(f"--size expects name=N (a whole number), got {item!r}")
    return out










def outside_reports(path: Path | str | None) -> None:
    """Refuse an output path inside a reports/ folder: benchmarks write under runs/ (or
    wherever asked), and only report commands write report folders."""
    if path is not None and "reports" in Path(path).resolve().parts:
        raise SystemExit(f"{path}: benchmarks do not write into reports/; write under runs/ "
                         "and pass the file to the report command (--benchmark/--time-share)")
