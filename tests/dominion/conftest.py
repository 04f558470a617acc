"""Compile (or load) the Dominion kernels once per machine before the tests start.

With pytest-xdist every worker imports the engine; on a cold cache each would compile the
same kernels at once. A file lock lets the first worker compile and write the cache while
the others wait and then load it.
"""

from __future__ import annotations

import fcntl
import hashlib
import tempfile
from pathlib import Path

_key = hashlib.sha1(str(Path(__file__).resolve()).encode()).hexdigest()[:12]
_lock = Path(tempfile.gettempdir()) / f"tabletune-dominion-compile-{_key}.lock"
with open(_lock, "w") as fh:
    fcntl.flock(fh, fcntl.LOCK_EX)
    try:
        import games.dominion  # noqa: F401  (compiles or loads every kernel)
    finally:
        fcntl.flock(fh, fcntl.LOCK_UN)
