"""The learned Splendor players and their model file.

``learned`` searches whole turns (alpha-beta, one turn deep by default) and scores its
leaves with the learned value of :mod:`games.splendor._features`; ``expert`` is the same
player searching three turns deep. Both read a model file (``model``; by default the
committed :data:`DEFAULT_MODEL` for ``learned`` and :data:`EXPERT_MODEL`, the same value
refitted on the expert's own games, for ``expert``) that `tabletune train` wrote: an
``.npz`` with the value's weights, the feature set they are for and the run's facts. Their return and noble decisions are
Greedy's with allEval, as every searching bot's are.
"""

from __future__ import annotations

import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from games.atomic import atomic_open
from games.core import InputError, tunable
from games.splendor._features import FEATURE_SET, NV
from games.splendor._payment import PAY_POLICIES

#: the committed model of ``learned`` and ``expert``
DEFAULT_MODEL = (Path(__file__).resolve().parents[2] / "reports" / "splendor-learned"
                 / "model.npz")
#: the expert's committed model: DEFAULT_MODEL refitted on the expert's own three-turn games,
#: two-player (studies/splendor-learned-deep.toml), then three-player
#: (studies/splendor-learned-table.toml)
EXPERT_MODEL = (Path(__file__).resolve().parents[2] / "reports" / "splendor-learned-deep"
                / "model.npz")
MODEL_DOC = "model file of the learned value (.npz, as tabletune train writes it)"


def default_model(name: str) -> Path:
    """The committed model a learned player reads when its ``model`` is "": the expert's
    own for ``expert``, else the self-play model."""
    return EXPERT_MODEL if name == "expert" else DEFAULT_MODEL


@dataclass(frozen=True)
class LearnedParams:
    """The learned player: ``depth`` whole turns of alpha-beta, the learned value at the
    leaves (``model``: its file, "" for the committed one); ``pay``: its payment policy."""

    depth: int = tunable(1, 1, 6, integer=True, doc="turns searched")
    model: str = field(default="", metadata={"doc": MODEL_DOC})
    pay: str = tunable("gold-last", choices=PAY_POLICIES, doc="how a chosen buy is paid")


@dataclass(frozen=True)
class ExpertParams(LearnedParams):
    """The expert: the learned player searching three whole turns, with the value refitted
    on its own games (``model`` "": :data:`EXPERT_MODEL`)."""

    depth: int = tunable(3, 1, 6, integer=True, doc="turns searched")


@dataclass
class LearnedModel:
    """A model file's content: the value's weights (:data:`NV`) and the run's facts."""

    weights: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)
    feature_set: str = FEATURE_SET


def save_model(model: LearnedModel, path: str | Path) -> Path:
    """Write the model atomically (a reader never sees half a file)."""
    path = Path(path)
    with atomic_open(path) as fh:
        np.savez(fh, weights=np.asarray(model.weights, dtype=np.float64),
                 feature_set=np.array(model.feature_set),
                 meta=np.array(json.dumps(model.meta, sort_keys=True)))
    return path


_CACHE: dict[tuple[str, int, int], LearnedModel] = {}


def load_model(path: str | Path = "") -> LearnedModel:
    """Read and check a model file ("" for the committed one); every problem is one
    ``InputError`` line."""
    p = Path(str(path)).expanduser() if str(path) else DEFAULT_MODEL
    if p.is_dir():
        raise InputError(f"learned model {str(p)!r} is a folder; give a model file (.npz, "
                         "as tabletune train writes it)")
    if not p.is_file():
        raise InputError(f"learned model {str(p)!r}: no such file")
    st = p.stat()
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size)
    if key in _CACHE:
        return _CACHE[key]
    keys = ("weights", "feature_set", "meta")
    try:
        with np.load(p, allow_pickle=False) as z:
            missing = [k for k in keys if k not in z.files]
            data = {} if missing else {k: z[k] for k in keys}
    except (OSError, ValueError, AttributeError, zipfile.BadZipFile, EOFError) as exc:
        raise InputError(f"learned model {str(p)!r}: damaged or not a model file "
                         f"({type(exc).__name__})") from None
    if missing:
        raise InputError(f"learned model {str(p)!r} is not a Splendor model file (it holds "
                         f"no {', '.join(missing)})")
    fs = str(data["feature_set"])
    if fs != FEATURE_SET:
        raise InputError(f"learned model {str(p)!r} uses feature set {fs!r}; this engine's "
                         f"is {FEATURE_SET!r} (a model of another game or version: retrain "
                         "it)")
    w = np.ascontiguousarray(data["weights"], dtype=np.float64)
    if w.shape != (NV,) or not np.all(np.isfinite(w)):
        raise InputError(f"learned model {str(p)!r}: weights are damaged (shape {w.shape}, "
                         f"expected ({NV},) finite values)")
    try:
        meta = json.loads(str(data["meta"]))
    except ValueError:
        raise InputError(f"learned model {str(p)!r}: damaged metadata") from None
    model = LearnedModel(w, meta, fs)
    _CACHE[key] = model
    return model
