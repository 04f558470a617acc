"""The game registry: every game registers one :class:`Game` description, and from then on
the CLI, the study specs, both optimisers, the reports and the contract tests know it by name.

A description names the game, its player counts, its bots with their parameter dataclasses
(ranges declared with :func:`games.core.tunable`), its option schema (what ``[game]`` in a
spec and the game's own CLI flags accept) and one batch entry point with the same signature
and result type in every game::

    play(bots, options, seed, start, count, rotate=True) -> Outcomes

Game ``i`` of a run with root ``seed`` uses ``game_seeds(seed, ., i)`` and seats rotated by
``i`` (seat ``k`` holds bot ``(k + i) % len(bots)``), so any split of a run into blocks gives
the same games. Everything else a game may do (an exact value or solver, the turn-level
State, genome kinds, report notes, a move-by-move view, tallies, its contract-suite
invariants, a trainer, reproductions, its OpenSpiel codec and dealer) is a capability that
it offers by presence, not a member of :class:`Game`: one table lists them all, with a
protocol each, in :mod:`games.capabilities`, whose ``offers(game, "solver")`` and
``use(game, "report")`` are how shared code asks.

``Option``, ``GameOptions``, ``option``, ``Outcomes`` and ``seating_for`` live in
:mod:`games.options` and :mod:`games.outcomes` and are re-exported here, so a game imports
only this module. A game declares its options once, as a frozen dataclass of typed options
(``options_type``, fields made by ``option``); ``check_options`` returns one.

Built-in games are known by name from :mod:`games.catalog` and each registers when
:func:`get` first asks for it, so a command imports only the game it uses; a game defined
elsewhere (a plug-in, a test) calls :func:`register` with its instance, and names its module
(dotted name or ``.py`` path) in the ``TABLETUNE_GAMES`` environment variable (comma
separated) so that worker processes and other commands import it too.

What :class:`Game` builds on is apart (:mod:`games.options`, :mod:`games.outcomes`,
:mod:`games.catalog`, :mod:`games.capabilities`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games import catalog, compiling
from games.bot_names import bot_key, find_bot
from games.capabilities import CAPABILITIES, StudyTerms, offers
from games.core import BotSpec, InputError, make_params, param_ranges
from games.options import FrozenOptions, GameOptions, Option, option, options_schema
from games.outcomes import Outcomes, seating_for

__all__ = ["BotInfo", "BotSpec", "Game", "GameOptions", "Option", "Outcomes", "StudyTerms",
           "bot_key", "describe_params", "find_bot", "get", "names", "option", "params_of",
           "parse_bot_text", "register", "seating_for", "typed"]

_GAMES: dict[str, Game] = {}
_IMPORTED: set[str] = set()


# --------------------------------------------------------------------------- bots


@dataclass(frozen=True)
class BotInfo:
    """A bot a game offers: name, one-line summary, params dataclass (None: no parameters)
    and the parameter names that ``name:v1,v2`` fills by position (``minimax:3``)."""

    name: str
    summary: str
    params_type: type | None = None
    positional: tuple[str, ...] = ()
    detail: str = ""  # e.g. the buy list a named bot follows
    example: str = ""  # a full text for bots whose bare name is not enough (``learned:PATH``)
    #: the names players use for it, the first its usual one (``Double Witch``); any of them
    #: names the bot in any case, spacing or hyphenation (:func:`find_bot`)
    aliases: tuple[str, ...] = ()


def parse_bot_text(text: str, known: Mapping[str, BotInfo]) -> BotSpec:
    """``name`` or ``name:v1,k=v`` in the registry's parameter syntax (unchecked values);
    the name may be any of the bot's aliases (:func:`find_bot`)."""
    raw = text.strip()
    head, _, rest = raw.partition(":")
    name = find_bot(head, known)
    if name is None:
        raise InputError(f"unknown bot {raw!r}; known bots: {', '.join(known)}")
    info = known[name]
    params: dict[str, Any] = {}
    if rest.strip():
        for i, item in enumerate(p.strip() for p in rest.split(",")):
            key, sep, value = item.partition("=")
            if not sep:
                if i >= len(info.positional):
                    raise InputError(f"bot {raw!r}: {item!r} needs a name (name=value)")
                key, value = info.positional[i], item
            if not key.strip() or not value.strip():
                raise InputError(f"bot {raw!r}: expected name=value, got {item!r}")
            params[key.strip()] = _number_or_text(value.strip())
    return BotSpec(name, params)


def _number_or_text(value: str) -> Any:
    for cast in (int, float):
        try:
            return cast(value)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(value.lower(), value)


# --------------------------------------------------------------------------- the base class


class Game:
    """What a game registers: the core every game has. Subclasses set the class attributes
    and implement :meth:`bots` and :meth:`play`; the other methods have defaults a game may
    replace. Optional capabilities are not members of this class: a game offers one by
    defining its hooks or holding its parts (the table of :mod:`games.capabilities`)."""

    name: str = ""
    summary: str = ""
    player_counts: tuple[int, ...] = (2,)
    #: the game's typed options (:class:`games.options.GameOptions`: a frozen dataclass
    #: whose fields declare each option once, default included); ``check_options`` returns
    #: one, and ``options`` below is derived from it
    options_type: type[GameOptions] | None = None
    #: the ``[game]`` option schema (also the game's flags of ``tabletune play``): derived
    #: from ``options_type`` where a game declares one
    options: tuple[Option, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("options_type") is not None and "options" not in cls.__dict__:
            cls.options = options_schema(cls.options_type)

    # ---- required
    def bots(self) -> dict[str, BotInfo]:
        """Every bot of the game by name."""
        raise NotImplementedError

    def play(self, bots: Sequence[BotSpec], options: Mapping[str, Any], seed: int, start: int,
             count: int, *, rotate: bool = True) -> Outcomes:
        """Play games ``start..start+count-1`` of the run with root ``seed`` (checked options)."""
        raise NotImplementedError

    # ---- defaults a game may replace
    def parse_bot(self, text: str) -> BotSpec:
        """A bot from its text (``name`` or ``name:v1,k=v``); games may accept more forms."""
        return self.check_bot(parse_bot_text(text, self.bots()))

    def check_bot(self, spec: BotSpec) -> BotSpec:
        """Refuse unknown names and parameters or values out of range (InputError)."""
        known = self.bots()
        if spec.genome is not None:
            raise InputError(f"{self.name} bots have no text genomes; give a bot name")
        if spec.name not in known:
            raise InputError(f"unknown {self.name} bot {spec.name!r}; known bots: "
                             f"{', '.join(known)}")
        ptype = known[spec.name].params_type
        if ptype is None:
            if spec.params:
                raise InputError(f"bot {spec.name!r} takes no parameters")
            return spec
        params = make_params(ptype, spec.params)
        return BotSpec(spec.name, {k: getattr(params, k) for k in spec.params}, None,
                       spec.label_text)

    def check_options(self, options: Mapping[str, Any]) -> GameOptions:
        """The game's typed options (``options_type``; :class:`games.options.FrozenOptions`
        for a game with a schema only), defaults filled in; InputError naming ``game.KEY``
        otherwise. Checked options may be checked again (a changed copy, a worker)."""
        schema = {o.name: o for o in self.options}
        unknown = sorted(set(options) - set(schema))
        if unknown:
            allowed = ", ".join(schema) or "none"
            raise InputError(f"game.{unknown[0]}: unknown option for {self.name}; "
                             f"allowed: {allowed}")
        out = {}
        for name, opt in schema.items():
            out[name] = opt.validate(options.get(name, opt.default), f"game.{name}")
        return FrozenOptions(out) if self.options_type is None else self.options_type(**out)

    def seats(self, n_bots: int, options: Mapping[str, Any]) -> int:
        """Seats at the table for a line-up of ``n_bots`` (default: one seat per bot). One
        seat for several bots means each bot plays alone (solo and cooperative games)."""
        if self.player_counts == (1,):
            return 1
        if n_bots not in self.player_counts:
            counts = ", ".join(str(c) for c in self.player_counts)
            raise InputError(f"{self.name} is played by {counts} players, got {n_bots} bots")
        return n_bots


def typed(game: Game, options: Mapping[str, Any]) -> Any:
    """``options`` as ``game``'s typed options: checked ones as they are (the tuning layer
    passes nothing else), a plain mapping (a Python caller's dict) checked first."""
    if game.options_type is not None and isinstance(options, game.options_type):
        return options
    if game.options_type is None and isinstance(options, FrozenOptions):
        return options
    return game.check_options(options)


def params_of(game: Game, spec: BotSpec) -> Any:
    """The params dataclass instance of a checked bot spec of ``game`` (None for plain
    bots)."""
    ptype = game.bots()[spec.name].params_type
    return None if ptype is None else make_params(ptype, spec.params)


def describe_params(params_type: type | None) -> dict[str, dict[str, Any]]:
    """Defaults and ranges of a params dataclass, JSON-ready (for `tabletune bots`)."""
    if params_type is None:
        return {}
    ranges = param_ranges(params_type)
    out = {}
    for f in dataclasses.fields(params_type):
        row: dict[str, Any] = {"default": f.default}
        r = ranges.get(f.name)
        if r is not None:
            row.update({"choices": list(r.choices)} if r.choices else
                       {"low": r.low, "high": r.high})
        out[f.name] = row
    return out


# --------------------------------------------------------------------------- the registry


def register(game: Game) -> Game:
    """Add a game (its name must be new unless it is the same class re-imported). The
    shared layer of each capability the game offers joins it here (the table's ``layer``
    column, :mod:`games.capabilities`): a game that offers ``openspiel`` (a State, a codec
    and a dealer in its package) gets OpenSpiel's bots among its own
    (:func:`games.interop.seats.join`), with no line of its own."""
    if not game.name:
        raise ValueError("a game needs a name")
    old = _GAMES.get(game.name)
    if old is not None and type(old).__qualname__ != type(game).__qualname__:
        raise ValueError(f"game {game.name!r} is already registered")
    for capability, row in CAPABILITIES.items():
        if row.layer and offers(game, capability):
            importlib.import_module(row.layer).join(type(game))
    _GAMES[game.name] = game
    return game


def _import(reference: str) -> None:
    """Import a module by dotted name or by ``.py`` file path (a plug-in, a test game). A
    file inside a package folder (one with ``__init__.py``) is imported as a module of that
    package, under a name of the folder's own, so the parts beside it are found as a
    built-in game's are (:mod:`games.capabilities`)."""
    if not reference.endswith(".py"):
        importlib.import_module(reference)
        return
    path = os.path.abspath(reference)
    if not os.path.isfile(path):
        raise InputError(f"TABLETUNE_GAMES: no game module at {reference}")
    folder, stem = os.path.dirname(path), os.path.basename(path)[:-3]
    if os.path.isfile(os.path.join(folder, "__init__.py")) and stem != "__init__":
        package = _load_file(os.path.join(folder, "__init__.py"), folder)
        importlib.import_module(f"{package}.{stem}")
    else:
        _load_file(path)


def _load_file(path: str, folder: str | None = None) -> str:
    """Import the file at ``path`` (a package's ``__init__.py`` when ``folder`` is its
    folder) under a name made from its path, once; returns that name."""
    name = "tabletune_game_" + hashlib.sha1((folder or path).encode()).hexdigest()[:12]
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, path, submodule_search_locations=None if folder is None else [folder])
        if spec is None or spec.loader is None:
            raise InputError(f"TABLETUNE_GAMES: no game module at {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return name


def _load(modules: Iterable[str]) -> None:
    """Import each module once (its import registers a game)."""
    for module in modules:
        if module not in _IMPORTED:
            compiling.watch()  # a command that announces compiles hears this game's too
            _import(module)
            _IMPORTED.add(module)


def names() -> list[str]:
    """Every game, sorted: the built-in ones by name (none imported), the plug-ins named in
    ``TABLETUNE_GAMES`` (imported) and any registered directly."""
    _load(catalog.plugin_modules())
    return sorted(set(catalog.BUILTIN) | set(_GAMES))


def get(name: str) -> Game:
    """The game ``name``, importing its module on first use (a built-in game loads alone);
    InputError naming the known games otherwise."""
    if name not in _GAMES and name in catalog.BUILTIN:
        _load([catalog.BUILTIN[name]])
    if name not in _GAMES:
        _load(catalog.plugin_modules())
    if name not in _GAMES:
        raise InputError(f"unknown game {name!r}; known games: {', '.join(names())}")
    return _GAMES[name]
