"""Evolution reports state the Dominion targets and the recorded time share correctly."""

from __future__ import annotations

import json

import pytest

from games.core import InputError
from games.dominion._yardstick import targets as _dominion_targets
from tuning.reporting._evolution import (
    take_time_share,
    time_share_commands,
    time_share_note,
)


def _b(opponent, score, lo, hi):
    return {"opponent": opponent, "score": score, "ci95": [lo, hi]}


def test_dominion_targets_read_the_intervals():
    text = _dominion_targets([_b("big-money", 0.951, 0.948, 0.954),
                              _b("smithy-big-money", 0.508, 0.501, 0.515),
                              _b("big-money-ultimate", 0.49, 0.48, 0.50)])
    assert "95.10% (target 95%: met)" in text
    assert "smithy-big-money beaten, interval above 50%" in text
    assert "big-money-ultimate not separated from 50%" in text
    text = _dominion_targets([_b("big-money", 0.9499, 0.947, 0.953),
                              _b("smithy-big-money", 0.47, 0.46, 0.48)])
    assert "not met" in text and "smithy-big-money lost to, interval below 50%" in text


def test_time_share_note_quotes_the_record(tmp_path):
    assert time_share_note(tmp_path) is None
    record = {"command": "python benchmarks/evolve_profile.py --study s --generations 5",
              "repeats": 3, "share_in_simulation": 0.9968, "share_in_kernel": 0.873,
              "exact": False, "generations": 5, "evals": 323, "wall": 50.98,
              "games": 1334400}
    (tmp_path / "time_share.json").write_text(json.dumps(record))
    note = time_share_note(tmp_path)
    assert "99.7% of the evolution's wall time went into game simulation" in note
    assert "87.3% inside the numba batch kernel" in note and "1,334,400 games" in note
    (tmp_path / "time_share.json").write_text("{not json")
    with pytest.raises(InputError, match="time-share record"):
        time_share_note(tmp_path)


def test_time_share_is_taken_from_a_given_file_not_written_by_the_benchmark(tmp_path):
    record = {"command": "python benchmarks/evolve_profile.py --study s --generations 5",
              "repeats": 2, "share_in_simulation": 0.99, "share_in_kernel": None,
              "exact": True, "generations": 5, "evals": 10, "wall": 3.0}
    src = tmp_path / "runs" / "s-time-share.json"
    src.parent.mkdir()
    src.write_text(json.dumps(record))
    out = tmp_path / "report"
    take_time_share(src, out)
    assert json.loads((out / "time_share.json").read_text()) == record
    assert "99.0% of the evolution's wall time" in time_share_note(out)
    lines = time_share_commands("s", out).splitlines()
    assert lines == ["tabletune evolve s",
                     record["command"] + " --json runs/s-time-share.json",
                     "tabletune report s --time-share runs/s-time-share.json --publish"]
    assert not any("reports/" in line for line in lines)
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    with pytest.raises(InputError, match="time-share record"):
        take_time_share(bad, tmp_path / "other")
    assert not (tmp_path / "other" / "time_share.json").exists()
    with pytest.raises(InputError, match="does not exist"):
        take_time_share(tmp_path / "missing.json", out)


def test_deckbuilder_targets_name_the_fraction_and_the_gaps():
    from games.deckbuilder._yardstick import targets as _deckbuilder_targets

    rows = [{"strategy": "evolved", "turns": 31, "fraction": 0.9997, "gap": 0.02},
            {"strategy": "picky", "turns": 31, "fraction": 0.867, "gap": 9.7},
            {"strategy": "evolved", "turns": 50, "fraction": 0.82, "gap": 22.7},
            {"strategy": "evolved at T = 50 (x-t50)", "turns": 50, "fraction": 0.9882,
             "gap": 1.5143}]
    text = _deckbuilder_targets(rows, 31)
    assert "99.97% of the DP optimum at T = 31 (target 99%: met)" in text
    assert "rule evolved for T = 50 reaches 98.82% (target 99.5%: not met; gap 1.51 points)" \
        in text
    assert "T = 50 reaches 99.60% (target 99.5%: met;" in _deckbuilder_targets(
        [{**rows[3], "fraction": 0.996}], 31)
    assert "not met" in _deckbuilder_targets([{**rows[0], "fraction": 0.98}], 31)
