"""The syntax of ``best:STUDY[@STORAGE]`` references, with nothing that resolves them.

A spec's loader checks its references with these helpers only; what a reference plays as
is decided when a run starts (:mod:`tuning._best`). This module imports nothing of
``tuning``, so a spec can be parsed without the study or evolution runners.
"""

from __future__ import annotations

from typing import Any

from games.core import InputError

PREFIX = "best:"
#: ``best:STUDY@published``: the committed report's ``reports/STUDY/run.json``, even where a
#: local run of STUDY exists (``best:STUDY`` reads that run first)
PUBLISHED = "published"
#: the published summary's file name in a report folder (``reports/STUDY/run.json``)
SUMMARY_FILE = "run.json"


def is_best(text: str) -> bool:
    """Whether a bot text names a study's result (``best:...``)."""
    return text.strip().lower().startswith(PREFIX)


def split_ref(text: str) -> tuple[str, str | None]:
    """``best:STUDY@STORAGE`` as (study, storage or None); the first ``@`` separates them
    (a database URL after it may hold more). STORAGE :data:`PUBLISHED` names the published
    summary (a file of that name: ``@./published``)."""
    body = text.strip()[len(PREFIX):]
    study, at, storage = body.partition("@")
    if not study.strip() or (at and not storage.strip()):
        raise InputError(f"{text.strip()!r}: expected best:STUDY or best:STUDY@STORAGE "
                         "(a journal file, a database URL, an evolution checkpoint, or "
                         f"{PUBLISHED} for the published report's run.json)")
    return study.strip(), storage.strip() if at else None


def texts_of(entry: Any) -> list[str]:
    """The bot texts of one ``evaluation.opponents`` entry (a text, or a list of texts)."""
    return [entry] if isinstance(entry, str) else list(entry)


def refs_in(opponents: Any) -> list[str]:
    """The ``best:`` references among an opponent pool's bot texts, in order."""
    return [t for entry in opponents for t in texts_of(entry)
            if isinstance(t, str) and is_best(t)]
