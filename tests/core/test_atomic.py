"""The one atomic-write helper: all or nothing, ordinary permissions, no leftovers."""

from __future__ import annotations

import os
import stat

import pytest

from games.atomic import atomic_open, write_atomic


def test_a_write_replaces_the_file_whole(tmp_path):
    path = tmp_path / "deep" / "folder" / "state.bin"
    write_atomic(path, b"old")
    assert write_atomic(path, "new text é") == path
    assert path.read_text(encoding="utf-8") == "new text é"
    assert sorted(p.name for p in path.parent.iterdir()) == ["state.bin"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "checkpoint.pkl"
    write_atomic(path, b"complete")
    with pytest.raises(RuntimeError), atomic_open(path) as fh:
        fh.write(b"half of a fi")
        raise RuntimeError("crash mid-write")
    assert path.read_bytes() == b"complete"
    assert [p.name for p in tmp_path.iterdir()] == ["checkpoint.pkl"]


def test_the_file_gets_the_permissions_the_umask_leaves(tmp_path):
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "model.npz", b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "model.npz").stat().st_mode) == 0o640


def test_only_writing_modes_are_taken(tmp_path):
    with pytest.raises(ValueError, match="writes only"), atomic_open(tmp_path / "x", "ab"):
        pass
