"""The learned bot's model file: linear weights over ``games.dominion._features``.

A model is an ``.npz`` file holding the weights, the feature-set id (the layout of
:mod:`games.dominion._features`: the sources' cards, or the kingdom's), the kingdom it was
trained on and a small JSON of metadata. Loading checks all of it, so a damaged file, a
file of another feature set or another kingdom is refused in one line (``InputError``)
instead of playing nonsense. Saving is atomic (temporary file, then rename).
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from games.atomic import atomic_open
from games.core import InputError
from games.dominion._cards import KEYS
from games.dominion._features import FEATURE_SET, GENERAL, LAYOUTS, layout_of

LEARNED = "learned"
#: the learned player of every base-set kingdom (the general layout), by name, and its
#: committed model
LEARNED_GENERAL = "learned-general"
GENERAL_MODEL = (Path(__file__).resolve().parents[2] / "reports" / "dominion-learned-general"
                 / "model.npz")
#: ``endgame`` values: the estimated endgame, its former name (kept so old commands and
#: specs still run), and the learned value alone
ENDGAME_MODES = ("estimated", "exact", "learned")


@dataclass(frozen=True)
class LearnedPlayParams:
    """How a saved model plays, set with ``--param`` (``play dominion --bots
    learned:PATH,big-money --param endgame=learned``): ``endgame`` ``estimated`` values the
    last gains by their outcome, weighing the opponent's reply by an estimate of its money
    (see games.dominion._kernel.endgame_value), ``learned`` leaves them to the model
    (``exact``, the estimate's former name, is still accepted); ``eps`` is the share of
    random legal buys."""

    endgame: str = "estimated"
    eps: float = 0.0


@dataclass
class LearnedModel:
    """Weights (the layout's ``nf`` float64), the kingdom they were trained on, free-form
    metadata, the layout's id."""

    weights: np.ndarray
    kingdom: tuple[str, ...]
    meta: dict[str, Any] = field(default_factory=dict)
    feature_set: str = ""   # "": the layout whose size the weights have

    def __post_init__(self) -> None:
        if not self.feature_set:
            layout = layout_of(size=len(self.weights))
            self.feature_set = layout.feature_set if layout else FEATURE_SET


def save_model(model: LearnedModel, path: str | Path) -> Path:
    """Write the model atomically (a reader never sees half a file)."""
    path = Path(path)
    with atomic_open(path) as fh:
        np.savez(fh, weights=np.asarray(model.weights, dtype=np.float64),
                 feature_set=np.array(model.feature_set),
                 kingdom=np.array(",".join(model.kingdom)),
                 meta=np.array(json.dumps(model.meta, sort_keys=True)))
    return path


_CACHE: dict[tuple[str, int, int], LearnedModel] = {}


def load_model(path: str | Path) -> LearnedModel:
    """Read and check a model file; every problem is one ``InputError`` line."""
    p = Path(str(path)).expanduser()
    if p.is_dir():
        inside = sorted(p.glob("*.npz"))
        hint = (f"e.g. learned:{inside[0]}" if inside else
                "e.g. learned:reports/dominion-learned/model.npz")
        raise InputError(f"learned model {str(path)!r} is a folder; give a model file "
                         f"(.npz, as tabletune train writes it): {hint}")
    if not p.is_file():
        raise InputError(f"learned model {str(path)!r}: no such file")
    st = p.stat()
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
    if key in _CACHE:
        return _CACHE[key]
    keys = ("weights", "feature_set", "kingdom", "meta")
    missing: list[str] = []
    try:
        loaded = np.load(p, allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):  # a plain .npy array
            missing = list(keys)
        else:
            with loaded as z:  # another program's archive lacks tabletune's arrays
                missing = [k for k in keys if k not in z.files]
                data = {} if missing else {k: z[k] for k in keys}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
        raise InputError(f"learned model {str(path)!r}: damaged or not a model file "
                         f"({type(exc).__name__})") from None
    if missing:
        raise InputError(f"learned model {str(path)!r} is not a tabletune model file (it "
                         f"holds no {', '.join(missing)}); give a model that tabletune "
                         "train wrote, e.g. learned:reports/dominion-learned/model.npz")
    fs = str(data["feature_set"])
    layout = layout_of(fs)
    if layout is None:
        raise InputError(f"learned model {str(path)!r} uses feature set {fs!r}; this engine "
                         f"has {' and '.join(repr(x.feature_set) for x in LAYOUTS)} "
                         "(retrain it)")
    w = np.ascontiguousarray(data["weights"], dtype=np.float64)
    if w.shape != (layout.nf,) or not np.all(np.isfinite(w)):
        raise InputError(f"learned model {str(path)!r}: weights are damaged "
                         f"(shape {w.shape}, expected ({layout.nf},) finite values)")
    kingdom = tuple(k for k in str(data["kingdom"]).split(",") if k)
    if any(k not in KEYS for k in kingdom):
        raise InputError(f"learned model {str(path)!r}: unknown kingdom {kingdom}")
    try:
        meta = json.loads(str(data["meta"]))
    except ValueError:
        raise InputError(f"learned model {str(path)!r}: damaged metadata") from None
    model = LearnedModel(w, kingdom, meta, fs)
    _CACHE[key] = model
    return model


def learned_weights(params: Mapping[str, Any], label: str, kingdom: tuple[str, ...] | None
                    ) -> tuple[np.ndarray, float, bool, str, float]:
    """(weights, exploration rate, record flag, guide buy list or "", reward margin) of a
    learned bot spec.

    ``params`` holds ``path`` (a model file) or ``weights`` (an array, while training),
    plus optional ``eps``, ``record``, ``guide`` (a buy list whose choice is one more
    feature; a model file names its own), ``explore`` and ``endgame`` (checked by the
    caller) and ``margin`` (reward per VP of difference; a model file names its own, 0.01
    when it does not). With ``kingdom`` given, a model trained on another kingdom is
    refused."""
    extra = sorted(set(params) - {"path", "weights", "eps", "record", "guide", "explore",
                                  "endgame", "margin"})
    if extra:
        raise InputError(f"bot {label!r}: unknown parameter(s) {', '.join(extra)}")
    guide = ""
    margin = 0.01
    if "weights" in params:
        w = np.ascontiguousarray(params["weights"], dtype=np.float64)
        if w.ndim != 1 or layout_of(size=w.shape[0]) is None:
            sizes = " or ".join(f"({x.nf},)" for x in LAYOUTS)
            raise InputError(f"bot {label!r}: weights need shape {sizes}, got {w.shape}")
    elif "path" in params:
        model = load_model(params["path"])
        general = model.feature_set == GENERAL.feature_set  # plays any kingdom
        if kingdom is not None and not general and set(model.kingdom) != set(kingdom):
            raise InputError(f"learned model {params['path']!r} was trained on kingdom "
                             f"{','.join(model.kingdom) or 'none'}, not "
                             f"{','.join(kingdom) or 'none'}")
        w = model.weights
        guide = str(model.meta.get("guide", ""))
        margin = float(model.meta.get("margin", margin))
    else:
        raise InputError(f"bot {label!r}: use learned:PATH (a saved model file)")
    eps = float(params.get("eps", 0.0))
    if not 0.0 <= eps <= 1.0:
        raise InputError(f"bot {label!r}: eps must be in [0, 1], got {eps}")
    guide = str(params.get("guide", guide) or "")
    try:
        margin = float(params.get("margin", margin))
    except (TypeError, ValueError):
        margin = float("nan")
    if not 0.0 <= margin <= 1.0:
        raise InputError(f"bot {label!r}: margin must be in [0, 1], got "
                         f"{params.get('margin')!r}")
    return w, eps, bool(params.get("record", False)), guide, margin
