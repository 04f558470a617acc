"""What every reproduction accepts (``Settings``) and the helpers they share.

Each game module of ``tuning.reproduce`` declares its report folder, its sizes (game counts
with their full defaults), its parts and its default seed, and exposes one entry point,
``reproduce(out_dir, settings) -> list[Path]``. ``settings_for`` checks a request against
those declarations in one place, so every bad flag stops with one line (``InputError``).
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from games.core import InputError


@dataclass(frozen=True)
class Settings:
    """One reproduction request, already checked against the game's declarations.

    ``sizes`` holds every size of the game (defaults times ``scale``, then the sizes named
    on the command line, unscaled); ``given`` those named sizes, in order, for the recorded
    command; ``all_parts`` every part the game has, ``parts`` those to play.
    """

    game: str
    jobs: int = 1
    seed: int | None = None
    from_json: bool = False
    sizes: Mapping[str, int] = field(default_factory=dict)
    given: Mapping[str, int] = field(default_factory=dict)
    scale: float = 1.0
    parts: tuple[str, ...] = ()
    params: Mapping[str, str] = field(default_factory=dict)
    benchmark: Path | None = None
    all_parts: tuple[str, ...] = ()

    def n(self, name: str) -> int:
        """The size ``name`` (a game count, or an index such as a chunk's first game)."""
        return self.sizes[name]

    def command(self) -> str:
        """The ``tabletune reproduce`` line that makes what these settings make."""
        words = ["tabletune", "reproduce", self.game, "--jobs", str(self.jobs)]
        if self.seed is not None:
            words += ["--seed", str(self.seed)]
        if self.scale != 1.0:
            words += ["--scale", f"{self.scale:g}"]
        if self.parts != self.all_parts:
            words += ["--parts", ",".join(self.parts)]
        words += [f"--size {name}={value}" for name, value in self.given.items()]
        words += [f"--param {name}={value}" for name, value in self.params.items()]
        if self.benchmark is not None:
            words += ["--benchmark", str(self.benchmark)]
        return " ".join(words)


def say(text: str) -> None:
    """A progress or status line of a reproduction, on stderr: stdout carries only the
    command's result (the files written, or their JSON with ``--json``)."""
    print(text, file=sys.stderr, flush=True)


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


def text_file(out_dir: Path, name: str, folder: str) -> Path | None:
    """A hand-written text the report includes: in ``out_dir``, else in the committed report
    folder ``folder`` (relative to the working directory), else None."""
    for path in (Path(out_dir) / name, Path(folder) / name):
        if path.is_file():
            return path
    return None


def check_benchmark(path: Path) -> None:
    """A ``--benchmark`` file: an existing file that reads as JSON (one line otherwise)."""
    if path.is_dir():
        raise InputError(f"--benchmark {path} is a folder, not a file")
    if not path.is_file():
        raise InputError(f"--benchmark {path} does not exist")
    try:
        json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, OSError) as exc:
        raise InputError(f"--benchmark {path}: not JSON ({exc})") from None


def include_benchmark(out_dir: Path, settings: Settings) -> Path | None:
    """Copy ``--benchmark FILE`` into the report folder as benchmark.json (report data);
    return the report's benchmark.json if there is one."""
    target = Path(out_dir) / "benchmark.json"
    if settings.benchmark is not None:
        check_benchmark(settings.benchmark)
        if settings.benchmark.resolve() != target.resolve():
            shutil.copyfile(settings.benchmark, target)
    return target if target.is_file() else None


def read_json(path: Path) -> Any:
    """A JSON data file of a report, or a one-line error naming it."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"{path} does not exist (run without --from-json first)") from None
    except ValueError as exc:
        raise InputError(f"{path}: not JSON ({exc})") from None


def outside_reports(path: Path | str | None) -> None:
    """Refuse an output path inside a reports/ folder: benchmarks write under runs/ (or
    wherever asked), and only report commands write report folders."""
    if path is not None and "reports" in Path(path).resolve().parts:
        raise SystemExit(f"{path}: benchmarks do not write into reports/; write under runs/ "
                         "and pass the file to the report command (--benchmark/--time-share)")


def play_parts(out_dir: Path, settings: Settings,
               collect: Callable[[Path, Settings], list[Path]]) -> tuple[list[Path], Path | None]:
    """Play the requested parts into ``out_dir`` with ``collect`` (none with ``from_json``)
    and take in the benchmark record; return the files written and that record (or None)."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = [] if settings.from_json else collect(out_dir, settings)
    bench = include_benchmark(out_dir, settings)
    if settings.benchmark is not None and bench is not None:
        written.append(bench)
    return written, bench


def play_and_write_readme(out_dir: Path, settings: Settings,
                          collect: Callable[[Path, Settings], list[Path]],
                          parts: Sequence[str], folder: str,
                          readme_text: Callable[[dict[str, Any], str | None, Any], str]
                          ) -> list[Path]:
    """The reproduction of a game whose parts each leave ``results-PART.json``: play the
    requested parts with ``collect`` (none with ``from_json``), then write README.md from
    every results file present, the folder's ``notes.md`` and the benchmark record; return
    the files written."""
    written, bench = play_parts(out_dir, settings, collect)
    out_dir = Path(out_dir)
    results = {p: json.loads((out_dir / f"results-{p}.json").read_text(encoding="utf-8"))
               for p in parts if (out_dir / f"results-{p}.json").is_file()}
    notes = text_file(out_dir, "notes.md", folder)
    text = readme_text(results, notes.read_text(encoding="utf-8") if notes else None,
                       json.loads(bench.read_text(encoding="utf-8")) if bench else None)
    (out_dir / "README.md").write_text(text, encoding="utf-8")
    return written + [out_dir / "README.md"]
