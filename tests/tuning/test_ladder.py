"""`tabletune ladder`: a round robin of bots for any game and table size, with the score
matrix, Bradley-Terry ratings with bootstrap intervals and Alpha-Rank; it continues after a
stop or a kill, gives the same ladder for any --jobs, and refuses bad input in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from games.core import InputError
from tuning.ladder import LadderInterrupted, LadderRequest, run_ladder
from tuning.ladder._ratings import ELO_MEAN, Table, bootstrap, fit

BOTS = ("big-money", "smithy-big-money", "big-money-ultimate")


def _pairs(true: np.ndarray, games: int, rng: np.random.Generator) -> list[Table]:
    tables = []
    for i in range(len(true)):
        for j in range(i + 1, len(true)):
            p = 1.0 / (1.0 + 10 ** ((true[j] - true[i]) / 400.0))
            w = float(rng.binomial(games, p))
            tables.append(Table((i, j), games, (w, games - w)))
    return tables


def test_ratings_recover_known_elo_differences_within_their_intervals():
    true = np.array([250.0, 100.0, 0.0, -350.0])
    rng = np.random.default_rng(5)
    tables = _pairs(true, 4000, rng)
    ratings = fit(tables, 4)
    assert abs(ratings.mean() - ELO_MEAN) < 1e-6
    assert np.allclose(ratings - ratings.mean(), true - true.mean(), atol=15)
    ci = bootstrap(tables, 4, rng, rounds=300)
    centred = true - true.mean() + ELO_MEAN
    assert np.all(ci[:, 0] < centred + 15) and np.all(centred - 15 < ci[:, 1])
    assert np.all(ci[:, 1] - ci[:, 0] < 60)


def test_a_bot_that_never_wins_has_a_finite_rating_and_bigger_tables_fit_too():
    ratings = fit([Table((0, 1), 50, (50.0, 0.0))], 2)
    assert np.all(np.isfinite(ratings)) and ratings[0] > ratings[1] + 300
    three = fit([Table((0, 1, 2), 3000, (1500.0, 1000.0, 500.0))], 3)
    assert three[0] > three[1] > three[2]
    # Luce: win shares 3 : 2 : 1 at one table are strengths in the same ratio
    assert abs((three[0] - three[2]) - 400 * np.log10(3.0)) < 5


def _request(tmp_path: Path, name: str, **kw) -> LadderRequest:
    return LadderRequest("dominion", kw.pop("bots", BOTS), kw.pop("games", 400),
                         out=tmp_path / name, **kw)


def test_a_two_player_ladder_gives_matrix_ratings_and_alpharank(tmp_path):
    result = run_ladder(_request(tmp_path, "l"))
    assert set(result["ratings"]) == set(BOTS) and result["line_ups"] == 3
    for row in result["ratings"].values():
        lo, hi = row["rating_ci"]
        assert lo <= row["rating"] <= hi and row["games"] == 800
    ratings = [row["rating"] for row in result["ratings"].values()]
    assert ratings == sorted(ratings, reverse=True)
    cell = result["matrix"]["smithy-big-money"]["big-money"]
    other = result["matrix"]["big-money"]["smithy-big-money"]
    assert abs(cell["score"] + other["score"] - 1.0) < 1e-9 and cell["games"] == 400
    assert cell["score_ci"][0] < cell["score"] < cell["score_ci"][1]
    ar = result["alpharank"]
    assert ar is not None and abs(sum(ar["mass"].values()) - 1.0) < 1e-6
    assert ar["ranking"][0] == next(iter(result["ratings"]))
    folder = tmp_path / "l"
    for name in ("ladder.json", "README.md", "ratings.png", "index.html"):
        assert (folder / name).is_file(), name
    page = (folder / "index.html").read_text()
    assert "Alpha-Rank" in page and "smithy-big-money" in page


def test_a_three_seat_ladder_rates_every_bot(tmp_path):
    bots = (*BOTS, "laboratory-big-money")
    result = run_ladder(_request(tmp_path, "three", bots=bots, players=3, games=200))
    assert result["line_ups"] == 4 and set(result["ratings"]) == set(bots)
    assert all(row["games"] == 600 for row in result["ratings"].values())
    assert result["alpharank"] is None and "two-player" in result["alpharank_note"]


def test_a_stopped_ladder_continues_to_the_ladder_of_an_uninterrupted_one(tmp_path,
                                                                          monkeypatch):
    whole = run_ladder(_request(tmp_path, "whole"))
    import tuning.evaluation as match  # the ladder takes run_match from the package

    real, calls = match.run_match, [0]

    def stop_on_second(*args, **kwargs):
        calls[0] += 1
        if calls[0] == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(match, "run_match", stop_on_second)
    with pytest.raises(LadderInterrupted) as stop:
        run_ladder(_request(tmp_path, "cut"))
    assert (stop.value.done, stop.value.total) == (1, 3)
    monkeypatch.setattr(match, "run_match", real)
    said: list[str] = []
    again = run_ladder(_request(tmp_path, "cut"), progress=said.append)
    assert any("1 of 3 line-ups played" in line for line in said)
    assert again["matrix"] == whole["matrix"] and again["ratings"] == whole["ratings"]


def test_the_same_ladder_for_any_jobs(tmp_path):
    one = run_ladder(_request(tmp_path, "j1", jobs=1))
    two = run_ladder(_request(tmp_path, "j2", jobs=2))
    assert one["matrix"] == two["matrix"] and one["ratings"] == two["ratings"]


def test_a_killed_ladder_keeps_its_finished_line_ups(tmp_path):
    """SIGKILL between line-ups: the same command continues from the state file."""
    out = tmp_path / "killed"
    args = [sys.executable, "-m", "tuning.cli", "ladder", "dominion", "--bots",
            "big-money,smithy-big-money,big-money-ultimate,laboratory-big-money", "-n",
            "20000", "--out", str(out)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    state = out / "ladder-state.json"
    end = time.monotonic() + 120
    while time.monotonic() < end and proc.poll() is None:
        if state.exists() and json.loads(state.read_text())["line_ups"]:
            break
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = len(json.loads(state.read_text())["line_ups"])
    assert kept >= 1
    done = subprocess.run([*args, "--json"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["line_ups"] == 6
    if kept < 6:
        assert f"{kept} of 6 line-ups played" in done.stderr


@pytest.mark.parametrize("args,message", [
    (["dominion", "--bots", "big-money"], "a ladder needs at least two bots, got 1"),
    (["dominion", "--bots", "big-money,nosuch"], "unknown bot 'nosuch'"),
    (["dominion", "--bots", "big-money,big-money"], "is given twice"),
    (["thegame", "--bots", "a,b"], "a ladder needs a game of two or more players"),
    (["dominion", "--bots", "big-money,smithy-big-money", "--players", "5"],
     "--players takes 2, 3, 4 for dominion, got 5"),
    (["dominion", "--bots", "big-money,smithy-big-money", "-n", "0"], "--games"),
    (["dominion", "--bots", "big-money,smithy-big-money", "-o", "nope=1"], "nope"),
])
def test_bad_input_is_one_line(main, args, message):
    code, out, err = main("ladder", *args)
    assert code == 2 and message in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_another_ladder_in_the_same_folder_is_refused(tmp_path):
    run_ladder(_request(tmp_path, "same", games=50))
    with pytest.raises(InputError, match="holds a ladder of other settings"):
        run_ladder(_request(tmp_path, "same", games=60))
    assert run_ladder(_request(tmp_path, "same", games=60, restart=True))["line_ups"] == 3


def test_a_default_written_out_is_the_same_ladder(tmp_path):
    """The ladder's identity holds only the options that differ from the defaults: writing
    a default out (or a game gaining an option) continues the same ladder."""
    run_ladder(_request(tmp_path, "same", games=50))
    said: list[str] = []
    again = run_ladder(_request(tmp_path, "same", games=50, options={"cap": "100"}),
                       progress=said.append)
    assert again["line_ups"] == 3 and any("3 of 3 line-ups played" in s for s in said)
    with pytest.raises(InputError, match="holds a ladder of other settings"):
        run_ladder(_request(tmp_path, "same", games=50, options={"cap": "90"}))
