"""What a game's reproduction of its published tables is given, and the helpers they share.

A reproduction belongs to its game: a module beside the game, named in the game's
description (its ``reproductions``, reproduction name -> module: the ``reproductions``
capability of :mod:`games.capabilities`). The module declares ``FOLDER`` (its report
folder), ``SIZES`` (game counts with their full defaults), ``PARTS``, ``SEED`` (None where
the seeds are fixed), ``PARAMS`` and ``BENCHMARK`` (whether it takes ``--param`` and
``--benchmark``), and exposes ``reproduce(out_dir, settings) -> list[Path]``: it writes its
data JSON and README.md into ``out_dir``, reading the hand-written text the README includes
(template.md, notes.md) from the report folder. With ``settings.from_json`` it only rewrites
the README from the data already there.

``tabletune reproduce NAME`` checks the request against those declarations and hands the
module a :class:`Settings` that carries the run's services: ``pool``, one worker pool opened
for the whole reproduction (``jobs``, an ordered ``map``; :func:`games.blocks.map_blocks`
spreads a block function over it), ``open_pool(jobs)`` for a part that needs a pool of its
own size (a speed table), and ``run_match`` (the tuning layer's match over a registered
game, for line-ups with published values). A game's reproduction thus plays its games in
parallel without importing the tuning layer.
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.core import InputError

__all__ = ["Settings", "check_benchmark", "include_benchmark", "play_and_write_readme",
           "play_parts", "read_json", "say", "text_file"]


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
    #: the run's worker pool (``jobs``, ordered ``map``/``imap``, ``on_workers``), opened
    #: once for the whole reproduction; None with ``from_json``
    pool: Any = field(default=None, compare=False, repr=False)
    #: ``open_pool(jobs)``: a context manager giving a fresh pool of ``jobs`` workers
    open_pool: Callable[[int], Any] | None = field(default=None, compare=False, repr=False)
    #: ``run_match(game, bots, options, games=, seed=, pool=, ...)``: a match over a
    #: registered game, tallied per seat (the tuning layer's one play path)
    run_match: Callable[..., Any] | None = field(default=None, compare=False, repr=False)

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


def data_or_collect(out_dir: Path, settings: Settings, collect: Callable[[Settings], Any]
                    ) -> tuple[Any, list[Path]]:
    """A report's ``data.json``: read back with ``from_json``, else played by ``collect``
    and written; returns the data and the files written (none when read back)."""
    path = Path(out_dir) / "data.json"
    if settings.from_json:
        return read_json(path), []
    data = collect(settings)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return data, [path]


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
