"""The one checkpoint file format: what is saved comes back; anything else is one line."""

from __future__ import annotations

import re

import pytest

from games.checkpoint import load_checked, save_checked
from games.errors import InputError

HEADER = b"TOY-CHECKPOINT v1\n"


def test_a_saved_payload_comes_back_and_the_file_starts_with_its_header(tmp_path):
    path = tmp_path / "runs" / "toy.ckpt"
    payload = {"generation": 3, "genes": [[1, 2], [3]], "rng": (7, "state")}
    save_checked(path, payload, HEADER)
    assert path.read_bytes().startswith(HEADER)
    assert load_checked(path, HEADER, "toy checkpoint") == payload
    assert [p.name for p in path.parent.iterdir()] == ["toy.ckpt"]  # no temporary left


def test_the_evolution_checkpoint_writes_the_same_bytes(tmp_path):
    from tuning.evolution._checkpoint import MAGIC, save_checkpoint

    payload = {"format": "tabletune-evolution", "generation": 1}
    save_checkpoint(tmp_path / "a", payload)
    save_checked(tmp_path / "b", payload, MAGIC)
    assert (tmp_path / "a").read_bytes() == (tmp_path / "b").read_bytes()


@pytest.mark.parametrize("damage,says", [
    (lambda raw: raw[:-3], "corrupt (checksum mismatch)"),
    (lambda raw: raw.replace(b"generation", b"generatiom"), "corrupt (checksum mismatch)"),
    (lambda raw: b"OTHER v1\n" + raw[len(HEADER):], "is not a toy checkpoint (wrong header)"),
    (lambda raw: HEADER, "corrupt (checksum mismatch)"),
])
def test_a_damaged_or_foreign_file_is_refused_in_one_line(tmp_path, damage, says):
    path = tmp_path / "toy.ckpt"
    save_checked(path, {"generation": 3}, HEADER)
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(InputError, match=r"toy\.ckpt.*" + re.escape(says)) as err:
        load_checked(path, HEADER, "toy checkpoint")
    assert "\n" not in str(err.value)


def test_a_body_that_does_not_unpickle_is_refused(tmp_path):
    import hashlib

    path = tmp_path / "toy.ckpt"
    body = b"not a pickle"
    path.write_bytes(HEADER + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    with pytest.raises(InputError, match=r"corrupt \(UnpicklingError\)"):
        load_checked(path, HEADER, "toy checkpoint")


def test_a_missing_file_a_folder_and_a_bad_header_argument(tmp_path):
    with pytest.raises(InputError, match="no checkpoint at .*start without --resume"):
        load_checked(tmp_path / "none", HEADER, "toy checkpoint")
    with pytest.raises(InputError, match="is a folder, not a file"):
        load_checked(tmp_path, HEADER, "toy checkpoint")
    with pytest.raises(ValueError, match="one line"):
        save_checked(tmp_path / "x", {}, b"NO NEWLINE")


def test_a_payload_pickled_from_a_module_that_moved_reads_with_moved(tmp_path):
    import hashlib
    import pickle
    from fractions import Fraction

    path = tmp_path / "toy.ckpt"
    body = pickle.dumps({"value": Fraction(1, 3)}, protocol=0)
    body = body.replace(b"fractions", b"old_home.fractions")
    path.write_bytes(HEADER + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    with pytest.raises(InputError, match=r"corrupt \((ModuleNotFoundError)\)"):
        load_checked(path, HEADER, "toy checkpoint")
    moved = {"old_home.fractions": "fractions"}
    assert load_checked(path, HEADER, "toy checkpoint", moved) == {"value": Fraction(1, 3)}


def test_a_payload_pickled_before_its_module_became_private_still_reads(tmp_path):
    import hashlib
    import pickle

    from tuning.evolution import EvolveSettings

    path = tmp_path / "old.ckpt"
    body = pickle.dumps({"settings": EvolveSettings()}, protocol=0)
    assert b"tuning.evolution._engine" in body
    body = body.replace(b"tuning.evolution._engine", b"tuning.evolution.engine")
    path.write_bytes(HEADER + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    assert load_checked(path, HEADER, "toy checkpoint") == {"settings": EvolveSettings()}
    foreign = pickle.dumps({"value": 1}, protocol=0).replace(b"(dp0", b"cno_such.module\nX\n(dp0")
    other = tmp_path / "foreign.ckpt"
    other.write_bytes(HEADER + hashlib.sha256(foreign).hexdigest().encode() + b"\n" + foreign)
    with pytest.raises(InputError, match="corrupt"):
        load_checked(other, HEADER, "toy checkpoint")
