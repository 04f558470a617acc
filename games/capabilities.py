"""The optional capabilities of a game, one table of them, one protocol each, and the one
way to ask for one.

A game's description (:class:`games.registry.Game`) is a small core: its name, player
counts, options, bots and the batch entry point :meth:`~games.registry.Game.play`.
Everything else it may do is a capability listed in the table below, and none of it is a
member of ``Game``. A game offers a capability in one of three ways, each found by
presence: its description defines the capability's hooks (a protocol below), it sets the
capability's attribute, or its own package holds the capability's part (a module beside
``game.py`` naming one object, as ``games/<game>/codec.py`` names ``CODEC``). Shared code
asks :func:`offers` (``offers(game, "solver")``) before it relies on one, or calls it
through :func:`use` (``use(game, "report").baselines(options, study)``), which gives the
neutral default (:class:`Neutral`: no notes, no extra columns, no exact value) or one line
refusing where the game has no hook of its own; never ``hasattr``, ``getattr`` or a caught
``NotImplementedError`` of its own. A part is fetched with :func:`part`. Where a capability
needs shared code around the game (OpenSpiel's bots at the table of every game that
OpenSpiel can play), its row names that code's module (``layer``) and the registry joins it
to each game that offers the capability when the game registers: the game writes nothing
for it.

The table (:data:`CAPABILITIES`; "reads": further members it has, each with a neutral
default in :class:`Neutral`):

=================  ================================  ===================  ========================
capability         offered by                        reads                what uses it
=================  ================================  ===================  ========================
``settle``         hook ``settle_options``                                what a run fixes from
                                                                          its root seed when it
                                                                          starts (a kingdom drawn
                                                                          at random), said once
``solver``         hook ``solve``                    ``solve_options``    `tabletune solve GAME`
``exact``          hook ``exact``                                         studies score a
                                                                          candidate exactly
                                                                          instead of sampling
``state``          hook ``new_state``                                     search players, the
                                                                          contract suite's
                                                                          turn-level checks
``state_players``  hook ``state_player``             ``rollout_bot``      the game's own bots
                                                                          beside OpenSpiel's,
                                                                          MCTS's heuristic
                                                                          rollouts
``genomes``        hook ``genome_kinds``             ``genome_options``   `tabletune evolve`
                   (with ``parse_bot`` and                                (DEAP)
                   ``check_bot`` of genome texts)
``watch``          hook ``watch``                                         `tabletune watch GAME`
``report``         hooks ``report_notes``,                                `tabletune report`, the
                   ``yardstick``, ``comparisons``,                        re-evaluation of a
                   ``baselines``                                          study's best
``tally``          hooks ``tally``,                                       `tabletune play` of a
                   ``summarize_tally``                                    one-seat game (extra
                                                                          averaged columns)
``contract``       hook ``invariants``               ``golden_bots``,     the contract suite,
                                                     ``test_options``,    the kernel warm-up
                                                     ``contract_line_up``,
                                                     ``in_contract_suite``
``kernels``        hooks ``releases_gil``,           ``warm_skip``        matches on threads, the
                   ``warm_up``                                            kernel warm-up
                                                                          (`python -m games.warm`)
``objectives``     hooks ``objective_values``,       ``objectives``,      every study: what it may
                   ``direction``, ``check_study``    ``has_winner``       ask, how a game scores
                                                                          it (``win_rate``,
                                                                          ``mean_score`` generic),
                                                                          the win columns
``opponents``      attribute ``default_opponents``                        a study whose spec names
                                                                          no opponents
``play_defaults``  attributes ``default_bots``,                           `tabletune play` and
                   ``default_games``,                                     `tabletune solve` (its
                   ``cli_aliases``                                        defaults and flags)
``trainer``        attribute ``has_trainer``         ``trainer()``        `tabletune train`, a
                                                                          spec's ``[train]``
``reproductions``  attribute ``reproductions``                            `tabletune reproduce`
``codec``          part ``codec.CODEC``                                   OpenSpiel, PettingZoo
                   (:class:`games.interop.bridge                          (the game's action
                   .Bridge` subclass)                                     ids and observations)
``dealer``         part ``dealer.DEALER``                                 OpenSpiel (the game's
                   (:class:`games.interop.chance                          draws as chance
                   .Dealer` subclass)                                     outcomes)
``openspiel``      ``state``, ``codec`` and                               `openspiel-mcts` joins
                   ``dealer`` together                                    the game's bots
                                                                          (:mod:`games.interop
                                                                          .seats`); the game is
                                                                          an OpenSpiel game and
                                                                          a PettingZoo env
``compiling``      part ``FIRST_USE_COMPILE`` and                         the notice while numba
                   ``FIRST_USE_SECONDS`` of the                           compiles, the order of
                   package itself                                         `python -m games.warm`
``board``          part ``board.BOARD`` (a board's                        `tabletune board`
                   ladder, seeds, genome:                                 (:mod:`tuning._board`)
                   :mod:`tuning._board`)
=================  ================================  ===================  ========================

The protocols below are the signatures shared code calls. They are not
``runtime_checkable``: ask :func:`offers`, which also knows attributes and parts.
:class:`GenomeKind`, an object a game builds, is ``runtime_checkable``.

Longer than 400 lines on purpose: this is the one page a game author reads for everything
beyond the core, the table, each capability's protocol and its neutral default side by
side; split, the defaults would drift from the protocols they stand in for.

The genome handshake (how an evolution sends a genome to the game)
--------------------------------------------------------------------
1. **Kinds.** ``genome_kinds()`` returns ``{kind name: factory}``; a study names one in
   ``[genome] kind = "..."``. The spec loader checks only the name. When a run starts, the
   evolution calls ``factory(options)`` with the spec's ``[game]`` table updated by the
   ``[genome]`` table's other keys (minus ``kind`` and the evolution's own
   ``hall_of_fame_opponents`` and ``pool_every``); a bad option raises ``InputError``. Import
   the genome module inside ``genome_kinds`` so that listing games loads none.
2. **Genes.** The factory returns a :class:`GenomeKind`. A genome is a plain list of genes
   (ints, strings, tuples): it pickles, compares with ``==`` and goes into checkpoints.
   The evolution draws every random number through the ``rng`` it passes (Python's
   ``random`` module, which DEAP draws from too), so one saved state resumes a run exactly.
3. **Text.** The evolution never sends genes to the game: each candidate travels as the
   one-line ``to_text(genes)``, in ``BotSpec(name="candidate", params={}, genome=TEXT)``,
   to worker processes that call ``play((candidate, *opponents), ...)``. So ``play`` must
   build a bot from ``spec.genome`` when it is set (and from ``spec.name`` and
   ``spec.params`` otherwise).
4. **Back from text.** The best genome is kept as that text and comes back through
   ``parse_bot(TEXT)``: as a hall-of-fame opponent of later generations, in `tabletune
   play --bots TEXT`, in reports and as a ``best:STUDY`` opponent. ``parse_bot`` must accept
   every ``to_text`` output and return a spec with ``genome`` set (a label in ``name``), and
   ``check_bot`` must accept such a spec (the base class refuses genomes: a game with
   genomes overrides it) and refuse a bad text with one ``InputError``. ``from_text`` is the
   inverse of ``to_text`` (resume, seed genomes), and ``validate`` names what is wrong.

Examples: ``games/deckbuilder/_genome.py`` (buy rules), ``games/dominion/_genome.py`` (buy
lists), with ``parse_bot``/``check_bot`` in each game's ``game.py``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from games.core import BotSpec, InputError
from games.outcomes import Outcomes
from games.state import State

__all__ = ["CAPABILITIES", "Capability", "ExactValue", "GenomeKind", "Genomes", "Neutral",
           "Offered", "ReportHooks", "Settle", "Solver", "StudyTerms", "Tally", "Trainable",
           "TurnLevel", "Watch", "offers", "own", "package_of", "package_part", "part", "use"]


@dataclass(frozen=True)
class StudyTerms:
    """What a study asks beyond the game's options: its objective and its opponents (bot
    texts). The tuning layer passes it beside the checked options to the report hooks
    (``baselines``, ``comparisons``, ``report_notes``), so a game's options hold only the
    game's own settings."""

    objective: str = "win_rate"
    opponents: tuple[str, ...] = ()


@dataclass(frozen=True)
class Capability:
    """One row of the table: how a game offers a capability (one of the four ways)."""

    #: methods a game's description defines to offer it (none is a member of
    #: :class:`~games.registry.Game`: a game without them gets :class:`Neutral`'s)
    hooks: tuple[str, ...] = ()
    #: further members it reads, each with a neutral default in :class:`Neutral`
    reads: tuple[str, ...] = ()
    #: an attribute a game's description sets (true, or not empty) to offer it
    flag: str = ""
    #: a part: the module of the game's own package ("" for the package itself) and the
    #: names it holds (the first one offers it)
    module: str | None = None
    names: tuple[str, ...] = ()
    #: offered where the game offers each of these capabilities
    needs: tuple[str, ...] = ()
    #: the shared module that joins a game offering it when the game registers (its
    #: ``join(game class)``; the one place that names it, so neither side imports the other)
    layer: str = ""


#: every capability a game may offer (the table in the module text)
CAPABILITIES: dict[str, Capability] = {
    "settle": Capability(hooks=("settle_options",)),
    "solver": Capability(hooks=("solve",), reads=("solve_options",)),
    "exact": Capability(hooks=("exact",)),
    "state": Capability(hooks=("new_state",)),
    "state_players": Capability(hooks=("state_player",), reads=("rollout_bot",)),
    "genomes": Capability(hooks=("genome_kinds",), reads=("genome_options",)),
    "watch": Capability(hooks=("watch",)),
    "report": Capability(hooks=("report_notes", "yardstick", "comparisons", "baselines")),
    "tally": Capability(hooks=("tally", "summarize_tally")),
    "contract": Capability(hooks=("invariants",), reads=("golden_bots", "test_options",
                                                         "contract_line_up",
                                                         "in_contract_suite")),
    "kernels": Capability(hooks=("releases_gil", "warm_up"), reads=("warm_skip",)),
    "objectives": Capability(hooks=("objective_values", "direction", "check_study"),
                             reads=("objectives", "has_winner")),
    "opponents": Capability(reads=("default_opponents",)),
    "play_defaults": Capability(reads=("default_bots", "default_games", "cli_aliases")),
    "trainer": Capability(flag="has_trainer", reads=("trainer",)),
    "reproductions": Capability(flag="reproductions"),
    "codec": Capability(module="codec", names=("CODEC",)),
    "dealer": Capability(module="dealer", names=("DEALER",)),
    "openspiel": Capability(needs=("state", "codec", "dealer"), layer="games.interop.seats"),
    "compiling": Capability(module="", names=("FIRST_USE_COMPILE", "FIRST_USE_SECONDS")),
    "board": Capability(module="board", names=("BOARD",)),
}


def _row(capability: str) -> Capability:
    if capability not in CAPABILITIES:
        raise ValueError(f"unknown capability {capability!r}; known: "
                         f"{', '.join(CAPABILITIES)}")
    return CAPABILITIES[capability]


def package_of(game: Any) -> str:
    """The package that defines ``game``'s description ('' for a module of its own, such as
    a plug-in loaded from a ``.py`` path: it has no parts)."""
    return type(game).__module__.rpartition(".")[0]


def _module_of(game: Any, row: Capability) -> str:
    package = package_of(game)
    if not package or row.module is None:
        return ""
    return f"{package}.{row.module}" if row.module else package


def offers(game: Any, capability: str) -> bool:
    """Whether ``game`` (a registered description) offers ``capability``: its class
    defines one of the capability's hooks (or, for a row of members only, one of them), it
    sets the capability's attribute, or its package holds the capability's part (found
    without importing the part). An unknown capability name is a programming error
    (ValueError)."""
    row = _row(capability)
    if row.needs:
        return all(offers(game, need) for need in row.needs)
    if row.flag:
        return bool(getattr(game, row.flag, False))
    if row.module is not None:
        name = _module_of(game, row)
        if not name:
            return False
        if row.module:  # a module of its own: there or not (not imported here)
            return importlib.util.find_spec(name) is not None
        return hasattr(importlib.import_module(name), row.names[0])
    return any(hasattr(type(game), member) for member in row.hooks or row.reads)


def own(cls: type, member: str) -> Any:
    """What ``cls`` (a game's description class) defines or inherits for a capability's
    ``member`` (a function for a hook), None where it has none: what a shared layer wraps
    when it joins the game."""
    return getattr(cls, member, None)


def use(game: Any, capability: str) -> Offered:
    """``game`` seen through ``capability``: each hook and member of the capability's row
    is the game's own where it has one, else :class:`Neutral`'s (no notes, no extra
    columns, no exact value; or one line refusing). How shared code calls a capability it
    may call on every game: ``use(game, "report").baselines(options, study)``."""
    return Offered(game, _row(capability))


class Offered:
    """A game seen through one capability (:func:`use`)."""

    def __init__(self, game: Any, row: Capability) -> None:
        self._game, self._row = game, row

    def __getattr__(self, name: str) -> Any:
        row = self._row
        if name.startswith("_") or name not in (*row.hooks, *row.reads, row.flag):
            raise AttributeError(f"{name!r} is not a member of this capability "
                                 f"({', '.join((*row.hooks, *row.reads))})")
        if hasattr(self._game, name):
            return getattr(self._game, name)
        return getattr(Neutral(self._game), name)


class Neutral:
    """What a game that does not offer a capability gives when the capability is used on
    it: each hook's and member's neutral default, or one line refusing (InputError where a
    person asked for it, NotImplementedError where only a caller that skipped
    :func:`offers` can)."""

    def __init__(self, game: Any) -> None:
        self.game = game

    # ---- settle
    def settle_options(self, options: Any, seed: int) -> tuple[Any, list[str]]:
        """Checked options with what a run fixes from its root ``seed`` when it starts (every
        block and worker then plays the same), and one line per choice made, which the
        command that starts the run says. Neutral: the options unchanged, nothing said."""
        return options, []

    # ---- solver
    #: options of ``tabletune solve`` beyond the game's own
    solve_options: tuple[Any, ...] = ()

    def solve(self, options: Mapping[str, Any], strategies: Sequence[str],
              extra: Mapping[str, Any]) -> dict[str, Any]:
        raise NotImplementedError(f"{self.game.name} has no exact solver")

    # ---- exact
    def exact(self, bot: BotSpec, options: Mapping[str, Any], objective: str) -> float | None:
        return None  # sample

    # ---- state, state_players
    def new_state(self, options: Mapping[str, Any], seed: int, players: int) -> State:
        raise NotImplementedError(f"{self.game.name} has no turn-level API")

    #: the bot an OpenSpiel search's ``heuristic`` evaluator plays ('' where none)
    rollout_bot: str = ""

    def state_player(self, spec: BotSpec, options: Mapping[str, Any],
                     rng: np.random.Generator) -> Any:
        raise InputError(f"{self.game.name} bot {spec.name!r} cannot play move by move "
                         "through the turn-level State (beside an OpenSpiel bot)")

    # ---- genomes
    #: options an evolved genome is made for (none)
    genome_options: tuple[str, ...] = ()

    def genome_kinds(self) -> dict[str, Callable[[Mapping[str, Any]], GenomeKind]]:
        return {}

    # ---- watch
    def watch(self, bots: Sequence[BotSpec], options: Mapping[str, Any], seed: int,
              index: int) -> str:
        raise NotImplementedError(f"{self.game.name} has no move-by-move view")

    # ---- report
    def baselines(self, options: Mapping[str, Any],
                  study: StudyTerms = StudyTerms()) -> dict[str, BotSpec]:
        return {}

    def comparisons(self, options: Mapping[str, Any],
                    study: StudyTerms = StudyTerms()) -> dict[str, dict[str, Any]]:
        return {}

    def report_notes(self, options: Mapping[str, Any], data: Mapping[str, Any],
                     study: StudyTerms = StudyTerms()) -> list[str]:
        return []

    def yardstick(self) -> Any:
        return None  # the default table alone

    # ---- tally
    def tally(self, outcomes: Outcomes, options: Mapping[str, Any]) -> dict[str, np.ndarray]:
        return {}

    def summarize_tally(self, means: Mapping[str, tuple[float, tuple[float, float]]]
                        ) -> dict[str, Any]:
        return {name: mean for name, (mean, _) in means.items()}

    # ---- contract
    #: a line-up whose seeded games the contract suite pins (none: :meth:`contract_line_up`)
    golden_bots: tuple[str, ...] = ()
    #: fast options for the contract suite and the warm-up (none: the defaults)
    test_options: Mapping[str, Any] = {}
    #: False for a stand-in that a test registers (not a game)
    in_contract_suite: bool = True

    def invariants(self, options: Mapping[str, Any], seed: int, count: int) -> None:
        return None  # nothing of its own to assert

    def contract_line_up(self) -> list[BotSpec]:
        """``golden_bots``, else the default bots, else the first bot, filling the smallest
        table."""
        game, contract = self.game, use(self.game, "contract")
        names = list(contract.golden_bots or use(game, "play_defaults").default_bots
                     or list(game.bots())[:1])
        seats = min(game.player_counts)
        while len(names) < seats:
            names.append(names[-1])
        return [game.parse_bot(n) for n in names]

    # ---- objectives
    #: objective names a study may ask for; ``win_rate`` and ``mean_score`` are generic
    objectives: tuple[str, ...] = ("win_rate",)
    #: False for a game with a score but no winner (a one-player score attack)
    has_winner: bool = True

    def objective_values(self, outcomes: Outcomes, bot: int, objective: str,
                         options: Mapping[str, Any]) -> np.ndarray:
        """Per-game values of bot ``bot``: ``win_rate`` 1 / 0.5 / 0, ``mean_score`` the
        game's own score (a game with objectives of its own calls this for these two)."""
        if objective == "win_rate":
            return outcomes.bot_result()[:, bot]
        if objective == "mean_score":
            return outcomes.bot_score()[:, bot].astype(np.float64)
        raise InputError(f"{self.game.name} has no objective {objective!r}; "
                         f"known: {', '.join(use(self.game, 'objectives').objectives)}")

    def direction(self, objective: str) -> str:
        return "maximize"  # unless the objective counts something bad (cards left)

    def check_study(self, options: Mapping[str, Any], objective: str) -> None:
        return None  # every objective can be scored under every option

    # ---- opponents
    #: opponents a study plays when its spec names none (none)
    default_opponents: tuple[str, ...] = ()

    # ---- kernels
    #: bots the warm-up leaves out (they compile nothing: Python searches)
    warm_skip: tuple[str, ...] = ()

    def releases_gil(self, bots: Sequence[BotSpec], options: Mapping[str, Any]) -> bool:
        return False  # blocks that run Python go to worker processes

    def warm_up(self) -> None:
        """One game of each bot beside the contract line-up, under the test options (else
        the defaults), ``warm_skip`` left out: every kernel the bots use is compiled."""
        game, contract = self.game, use(self.game, "contract")
        skip = use(game, "kernels").warm_skip
        filler = contract.contract_line_up()
        for name, info in game.bots().items():
            if name in skip:
                continue
            line_up = [game.parse_bot(info.example or name), *filler[1:]]
            try:
                game.play(line_up, game.check_options(contract.test_options), 0, 0, 1)
            except InputError:
                game.play(line_up, game.check_options({}), 0, 0, 1)

    # ---- play_defaults
    #: bots a `tabletune play` uses when none are named
    default_bots: tuple[str, ...] = ()
    #: games a `tabletune play` runs unless told otherwise
    default_games: int = 10_000
    #: old or short CLI spellings -> the flag they stand for (e.g. ``{"-p": "--param"}``)
    cli_aliases: Mapping[str, str] = {}

    # ---- trainer, reproductions
    has_trainer: bool = False

    def trainer(self) -> Any:
        raise InputError(f"{self.game.name} has no trainer")

    #: reproduction name -> module (none)
    reproductions: Mapping[str, str] = {}


def package_part(package: str, capability: str, name: str = "") -> Any:
    """The part ``capability`` of a package that is imported already (a game's package
    named by a compiling kernel's module), never importing it; None where it holds none."""
    row = _row(capability)
    module = sys.modules.get(f"{package}.{row.module}" if row.module else package)
    return None if module is None else getattr(module, name or row.names[0], None)


def part(game: Any, capability: str, name: str = "") -> Any:
    """The part ``capability`` of ``game``'s package (``name``: one of the row's names,
    default its first), imported on first use; None where the game offers none."""
    row = _row(capability)
    module = _module_of(game, row)
    if not module or importlib.util.find_spec(module) is None:
        return None
    return getattr(importlib.import_module(module), name or row.names[0], None)


class Settle(Protocol):
    """``settle``: what a run fixes from its root seed when it starts.

    A command calls it once, on the checked options, with the run's root seed, says each
    line it returns, and passes the settled options down: every block and worker (and a
    resumed run) then plays the same, such as a kingdom drawn at random."""

    def settle_options(self, options: Any, seed: int) -> tuple[Any, list[str]]: ...


class Solver(Protocol):
    """``solver``: the game solved exactly, for `tabletune solve GAME`.

    The command is listed only for games that offer it. Its flags are the game's option
    schema plus ``solve_options``; ``solve`` gets the checked options, the strategy texts
    of ``--evaluate`` and the checked extra flags by name, and returns JSON data with
    ``optimal`` and the exact value of each strategy (``strategies``: a dict by name)."""

    solve_options: tuple[Any, ...]

    def solve(self, options: Mapping[str, Any], strategies: Sequence[str],
              extra: Mapping[str, Any]) -> dict[str, Any]: ...


class ExactValue(Protocol):
    """``exact``: a bot's exact objective value, used in place of sampled games.

    A study with no opponents asks it for every candidate (a trial, a genome) and for the
    baselines; None means "no exact value for this one: play games". Candidates of a game
    that does not offer it are always sampled, so a study may play trials back to back."""

    def exact(self, bot: BotSpec, options: Mapping[str, Any],
              objective: str) -> float | None: ...


class TurnLevel(Protocol):
    """``state``: the turn-level API (:class:`games.state.State`) for search players.

    ``new_state`` deals game ``seed`` for ``players`` seats under checked options; the
    contract suite plays random moves on it (legal moves, clone, returns, scores) for every
    game that offers it."""

    def new_state(self, options: Mapping[str, Any], seed: int, players: int) -> State: ...


@runtime_checkable
class GenomeKind(Protocol):
    """What an evolution needs from a genome kind (built by a ``genome_kinds`` factory).

    ``rng`` is a ``random.Random``-like object; every operator returns a new valid genome
    and leaves its inputs untouched; ``validate`` raises ValueError naming what is wrong."""

    name: str

    def random(self, rng: Any) -> list[Any]: ...

    def mutate(self, genes: list[Any], rng: Any) -> list[Any]: ...

    def crossover(self, a: list[Any], b: list[Any], rng: Any) -> tuple[list[Any], list[Any]]:
        ...

    def to_text(self, genes: list[Any]) -> str: ...

    def from_text(self, text: str) -> list[Any]: ...

    def validate(self, genes: list[Any]) -> None: ...

    def seed_genomes(self) -> list[list[Any]]: ...


class Genomes(Protocol):
    """``genomes``: genome kinds that `tabletune evolve` evolves, and bots given as genome
    texts (the handshake in this module's docstring).

    The spec loader calls ``genome_kinds()`` to check ``[genome] kind``; a run calls the
    kind's factory once; worker processes play ``BotSpec(..., genome=TEXT)`` through
    ``play``; ``parse_bot``/``check_bot`` read the texts back."""

    def genome_kinds(self) -> dict[str, Callable[[Mapping[str, Any]], GenomeKind]]: ...

    def parse_bot(self, text: str) -> BotSpec: ...

    def check_bot(self, spec: BotSpec) -> BotSpec: ...


class Watch(Protocol):
    """``watch``: one game as text, move by move, for `tabletune watch GAME`.

    Game ``index`` of the run with root ``seed``, the same game ``play`` plays there (seats
    rotated); options and bots come checked. The command refuses a game without it in one
    line."""

    def watch(self, bots: Sequence[BotSpec], options: Mapping[str, Any], seed: int,
              index: int) -> str: ...


class ReportHooks(Protocol):
    """``report``: a study's result in the game's own terms.

    After a study, its best is re-evaluated on fresh seeds against ``baselines(options)``
    (reference bots by label) and under each of ``comparisons(options)`` (option overrides
    by label); `tabletune report` appends ``report_notes(options, data, study)`` (sentences;
    ``data`` is the report's JSON) and an evolution report asks ``yardstick()`` (a
    :class:`games.yardstick.Yardstick`, or None for the default table). The defaults add
    nothing, so the tuning layer calls these hooks on every game."""

    def baselines(self, options: Mapping[str, Any], study: StudyTerms = ...
                  ) -> dict[str, BotSpec]: ...

    def comparisons(self, options: Mapping[str, Any], study: StudyTerms = ...
                    ) -> dict[str, dict[str, Any]]: ...

    def report_notes(self, options: Mapping[str, Any], data: Mapping[str, Any],
                     study: StudyTerms = ...) -> list[str]:
        ...

    def yardstick(self) -> Any: ...


class Tally(Protocol):
    """``tally``: further per-game quantities that a match of a one-seat game averages.

    Each worker block calls ``tally(outcomes, options)`` (arrays by name, one value per
    game); the match averages them with 95% intervals and ``summarize_tally`` turns the
    means into the JSON keys of `tabletune play` (e.g. cards left, share of perfect
    games). The defaults add nothing."""

    def tally(self, outcomes: Outcomes, options: Mapping[str, Any]) -> dict[str, np.ndarray]:
        ...

    def summarize_tally(self, means: Mapping[str, tuple[float, tuple[float, float]]]
                        ) -> dict[str, Any]: ...


class Trainable(Protocol):
    """``trainer``: a learned player that `tabletune train` trains.

    ``has_trainer = True`` lets a spec carry a ``[train]`` table (optimizer ``train``);
    when a run starts, ``trainer()`` returns the trainer (the attributes of
    ``games.learning.Trainer``), imported then so that listing games loads none."""

    has_trainer: bool

    def trainer(self) -> Any: ...
