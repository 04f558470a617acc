"""The players: one value-function family each, with the seed's defaults and declared ranges.

A player is a name, a params dataclass (fields declared with games.core.tunable, so the
tuning layer sees their ranges) and the family code of games.thegame._values. ``encode``
turns a player and its params into the flat vector the numba engine reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from games.core import InputError, make_params, tunable
from games.thegame import _values as V
from games.thegame._endgame import MAX_PILE

FORMS = ("inner", "outer")  # 1 - rho**lambda  |  (1 - rho)**lambda


@dataclass(frozen=True)
class CapacityParams:
    """Capacities: w_first weighs the first ascending and first descending pile (others 1)."""

    w_first: float = tunable(1.0, 0.1, 3.0, doc="weight of piles 1-up and 1-down")


@dataclass(frozen=True)
class WeightedPerceivedParams(CapacityParams):
    w_first: float = tunable(0.675, 0.1, 3.0, doc="weight of piles 1-up and 1-down")


@dataclass(frozen=True)
class WeightedRealParams(CapacityParams):
    w_first: float = tunable(0.6, 0.1, 3.0, doc="weight of piles 1-up and 1-down")


@dataclass(frozen=True)
class PlayabilityParams:
    """f(x) = exp(-kappa x) for a card playable on x piles."""

    kappa: float = tunable(1.5, 0.05, 10.0, doc="decay of f(x) = exp(-kappa x)")
    hand_weight: float = tunable(1.0, 0.25, 4.0, doc="multiplier of hand cards' penalties")


@dataclass(frozen=True)
class RecoverabilityParams:
    """Penalty alpha per pile on which a card cannot go."""

    alpha: float = tunable(3.5, 1.0, 20.0, doc="penalty of a pile the card cannot go on")
    w_first: float = tunable(1.0, 0.25, 3.0, doc="exponent of piles 1-up/1-down penalties")
    hand_weight: float = tunable(1.0, 0.25, 4.0, doc="multiplier of hand cards' penalties")


@dataclass(frozen=True)
class DistanceParams(RecoverabilityParams):
    """Not playable: alpha - beta * exp(-gamma (gap - 1)), at least 1."""

    beta: float = tunable(1.0, 0.0, 10.0, doc="magnitude of the recovery term")
    gamma: float = tunable(0.03, 0.001, 1.0, log=True, doc="falloff of the recovery term")


@dataclass(frozen=True)
class BridgeParams(RecoverabilityParams):
    """Not playable: 1 + (alpha - 1) * A(rho), rho from single bridges."""

    lam: float = tunable(1.0, 0.01, 2.0, doc="power lambda of the amplified term")
    form: str = tunable("inner", choices=FORMS,
                        doc="inner: 1 - rho**lambda, outer: (1 - rho)**lambda")
    hand_bridges: int = tunable(1, 0, 1, integer=True,
                                doc="1: a bridge held in the hand counts; 0: only drawn ones")


@dataclass(frozen=True)
class AmplifiedParams(BridgeParams):
    lam: float = tunable(0.2, 0.01, 2.0, doc="power lambda of the amplified term")


@dataclass(frozen=True)
class FallbackParams(DistanceParams):
    """Bridge term within ``bound`` of the top, distance term beyond it."""

    lam: float = tunable(0.2, 0.01, 2.0, doc="power lambda of the amplified term")
    bound: int = tunable(10, 0, 40, integer=True, doc="gap up to which bridges are used")
    form: str = tunable("inner", choices=FORMS,
                        doc="inner: 1 - rho**lambda, outer: (1 - rho)**lambda")
    hand_bridges: int = tunable(1, 0, 1, integer=True,
                                doc="1: a bridge held in the hand counts; 0: only drawn ones")
    deepen_k: int = tunable(0, 0, 128, integer=True,
                            doc="value the k best candidates again, deeper (0, 1: off)")
    deepen_plies: int = tunable(1, 1, 2, integer=True,
                                doc="plies the k best are searched beyond d (to 4 at most)")
    endgame_pile: int = tunable(-1, -1, MAX_PILE, integer=True,
                                doc="solo: exact play once the draw pile holds at most this "
                                    "many cards (-1: never)")


@dataclass(frozen=True)
class LayMoreParams(FallbackParams):
    """Recovery with fallback, the weights fitted at d = 0 (reports/thegame-penalty-d0), and
    more than the minimum laid while one more card scores better by ``lay_margin``."""

    alpha: float = tunable(5.137766281766317, 1.0, 20.0,
                           doc="penalty of a pile the card cannot go on")
    beta: float = tunable(0.07623242763683438, 0.0, 10.0, doc="magnitude of the recovery term")
    gamma: float = tunable(0.005042452797870999, 0.001, 1.0, log=True,
                           doc="falloff of the recovery term")
    lam: float = tunable(0.17236899328960764, 0.01, 2.0,
                         doc="power lambda of the amplified term")
    bound: int = tunable(23, 0, 40, integer=True, doc="gap up to which bridges are used")
    w_first: float = tunable(1.0775416458161158, 0.25, 3.0,
                             doc="exponent of piles 1-up/1-down penalties")
    hand_weight: float = tunable(1.4663887372635531, 0.25, 4.0,
                                 doc="multiplier of hand cards' penalties")
    lay_margin: float = tunable(0.0, 0.0, 10.0,
                                doc="lay one more card when its v_(d-1) beats v by more")
    held_bridge: float = tunable(0.0, 0.0, 1.0,
                                 doc="bridges all in the hand: penalty 1 + (alpha-1) * this")


@dataclass(frozen=True)
class PlayerSpec:
    """A named player: family code, params type, one line for `tabletune bots thegame`."""

    name: str
    family: int
    params_type: type
    summary: str


PLAYERS: dict[str, PlayerSpec] = {p.name: p for p in (
    PlayerSpec("perceived-capacity", V.F_PERCEIVED, CapacityParams,
               "sum of room left on the piles"),
    PlayerSpec("real-capacity", V.F_REAL, CapacityParams,
               "sum over piles of unlaid cards playable there"),
    PlayerSpec("weighted-perceived-capacity", V.F_PERCEIVED, WeightedPerceivedParams,
               "perceived capacity, first piles weighted 0.675"),
    PlayerSpec("weighted-real-capacity", V.F_REAL, WeightedRealParams,
               "real capacity, first piles weighted 0.6"),
    PlayerSpec("penalize-playability", V.F_PLAYABILITY, PlayabilityParams,
               "minus sum of exp(-1.5 x), x = piles a card is playable on"),
    PlayerSpec("recoverability", V.F_RECOVERABILITY, RecoverabilityParams,
               "minus sum of products of alpha per blocked pile"),
    PlayerSpec("recovery-distance", V.F_DISTANCE, DistanceParams,
               "blocked penalty alpha - beta exp(-gamma (gap-1))"),
    PlayerSpec("single-bridges", V.F_BRIDGES, BridgeParams,
               "blocked penalty from the chance of a bridge next turn"),
    PlayerSpec("single-bridges-amplified", V.F_BRIDGES, AmplifiedParams,
               "single bridges with rho raised to lambda = 0.2"),
    PlayerSpec("recovery-fallback", V.F_FALLBACK, FallbackParams,
               "amplified bridges within 10 of the top, distance beyond"),
    PlayerSpec("fallback-lay-more", V.F_FALLBACK, LayMoreParams,
               "fitted recovery-fallback, laying more than the minimum when that scores better"),
)}

SEED_ORDER = tuple(n for n in PLAYERS if n not in ("recoverability", "fallback-lay-more"))


def player(name: str) -> PlayerSpec:
    """The player called ``name``; InputError listing the known ones otherwise."""
    if name not in PLAYERS:
        raise InputError(f"unknown player {name!r}; choose one of: {', '.join(PLAYERS)}")
    return PLAYERS[name]


def build_params(name: str, values: Mapping[str, Any] | None = None) -> Any:
    """The params of player ``name``: defaults overridden by ``values``, ranges checked."""
    return make_params(player(name).params_type, values)


def params_dict(params: Any) -> dict[str, Any]:
    """Plain dict of a params dataclass (JSON-ready)."""
    return dataclasses.asdict(params)


def encode(name: str, params: Any) -> np.ndarray:
    """The engine's parameter vector for player ``name`` with ``params``."""
    spec = player(name)
    vec = np.zeros(V.N_PARAMS)
    vec[V.P_FAMILY] = spec.family
    vec[V.P_W0:V.P_W0 + 4] = 1.0
    vec[V.P_HAND] = 1.0
    vec[V.P_DRAWS] = 2.0
    vec[V.P_LAMBDA] = 1.0
    vec[V.P_BOUND] = 1000.0
    vec[V.P_HAND_BRIDGES] = 1.0
    vec[V.P_LAY_MARGIN] = np.inf
    vec[V.P_DEEPEN_PLIES] = 1.0
    vec[V.P_ENDGAME] = -1.0
    get = params.__dict__.get
    if get("w_first") is not None:
        vec[V.P_W0] = vec[V.P_W0 + 2] = float(get("w_first"))
    for field, index in (("alpha", V.P_ALPHA), ("beta", V.P_BETA), ("gamma", V.P_GAMMA),
                         ("lam", V.P_LAMBDA), ("bound", V.P_BOUND), ("kappa", V.P_KAPPA),
                         ("hand_weight", V.P_HAND), ("hand_bridges", V.P_HAND_BRIDGES),
                         ("lay_margin", V.P_LAY_MARGIN), ("held_bridge", V.P_HELD),
                         ("deepen_k", V.P_DEEPEN_K), ("deepen_plies", V.P_DEEPEN_PLIES),
                         ("endgame_pile", V.P_ENDGAME)):
        if get(field) is not None:
            vec[index] = float(get(field))
    if get("form") is not None:
        vec[V.P_FORM] = float(FORMS.index(get("form")))
    return vec
