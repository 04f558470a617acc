"""Balance studies (`tabletune balance`): a game's rules tuned towards the first seat's
score or a target matrix; trials kept and continued; the report against the printed rules;
bad input in one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from games.dominion._cards import INDEX, initial_supply

SPEC = """
[study]
name = "{name}"
game = "dominion"
optimizer = "balance"

[balance]
{balance}

[evaluation]
games = 400
block = 200
seed = 3
reevaluate_top = 2
reevaluate_games = 400
confirm_games = 400

[optuna]
trials = {trials}
sampler = "random"
pruner = "none"

[space.provinces]
type = "int"
low = 3
high = 12
{extra}
"""
FIRST_SEAT = 'bots = ["big-money-ultimate", "big-money-ultimate"]\ntarget = 0.5\n' \
             'elsewhere = ["smithy-big-money,big-money"]'


def _spec(tmp_path: Path, name: str = "bal", balance: str = FIRST_SEAT, trials: int = 3,
          extra: str = "") -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(SPEC.format(name=name, balance=balance, trials=trials, extra=extra))
    return path


def test_the_supply_rules_change_the_piles():
    printed = initial_supply(2, ["smithy", "witch"])
    assert printed[INDEX["province"]] == 8 and printed[INDEX["curse"]] == 10
    assert printed[INDEX["smithy"]] == 10
    tuned = initial_supply(3, ["smithy", "gardens"], (5, 4, 7))
    assert tuned[INDEX["province"]] == 5 and tuned[INDEX["curse"]] == 8
    assert tuned[INDEX["smithy"]] == 7 and tuned[INDEX["gardens"]] == 12  # a Victory pile
    assert np.array_equal(initial_supply(2, ["smithy"], (0, 10, 10)),
                          initial_supply(2, ["smithy"]))


def test_fewer_provinces_make_shorter_games(main):
    turns = []
    for provinces in ("4", "12"):
        code, out, err = main("play", "dominion", "--bots", "big-money,big-money", "-n", "400",
                              "--provinces", provinces, "--json")
        assert code == 0, err
        turns.append(json.loads(out)["mean_turns"])
    assert turns[0] + 3 < turns[1]


def test_a_first_seat_study_runs_continues_and_reports(tmp_path, main):
    path, journal = _spec(tmp_path), str(tmp_path / "bal.journal")
    code, out, err = main("balance", str(path), "--storage", journal, "--trials", "2",
                          "--out", str(tmp_path / "r2"), "--json")
    assert code == 0, err
    first = json.loads(out)
    assert first["trials"] == 2
    code, out, err = main("balance", str(path), "--storage", journal, "--out",
                          str(tmp_path / "report"), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["trials"] == 3 and set(result["best"]) == {"provinces"}
    kept = {row["trial"]: row["rules"] for row in first["selection"]}
    again = {row["trial"]: row["rules"] for row in result["selection"] if row["trial"] < 2}
    assert all(kept[t] == rules for t, rules in again.items())  # the first two kept
    conf = result["confirmation"]
    for side in ("tuned", "printed"):
        seat = conf[side]["first_seat"]
        assert seat["games"] == 400 and seat["score_ci"][0] <= seat["score"]
        assert abs(conf[side]["value"] - abs(seat["score"] - 0.5)) < 1e-12
    assert len(result["elsewhere"]) == 1
    folder = tmp_path / "report"
    assert (folder / "index.html").is_file() and (folder / "balance.json").is_file()
    readme = (folder / "README.md").read_text()
    assert "Tuned rules" in readme and "What it costs elsewhere" in readme


def test_a_matrix_target_is_scored_by_its_distance(tmp_path, main):
    balance = ('bots = ["big-money", "smithy-big-money", "big-money-ultimate"]\n'
               "matrix = [[0.5, 0.4, 0.45], [0.6, 0.5, 0.55], [0.55, 0.45, 0.5]]")
    path = _spec(tmp_path, "mat", balance, trials=2)
    code, out, err = main("balance", str(path), "--storage", str(tmp_path / "m.journal"),
                          "--out", str(tmp_path / "m"), "--json")
    assert code == 0, err
    result = json.loads(out)
    cells = result["confirmation"]["tuned"]["matrix"]
    assert set(cells) == {"0,1", "0,2", "1,2"}
    target = result["matrix"]
    errors = []
    for key, cell in cells.items():
        i, j = (int(x) for x in key.split(","))
        errors += [(cell["score"] - target[i][j]) ** 2, (1 - cell["score"] - target[j][i]) ** 2]
    assert abs(result["confirmation"]["tuned"]["value"] - np.sqrt(np.mean(errors))) < 1e-12


@pytest.mark.parametrize("balance,extra,message", [
    (FIRST_SEAT.replace("target = 0.5", "target = 1.5"), "",
     "balance.target: a score lies in [0, 1]"),
    ('bots = ["big-money"]', "", "balance.bots: expected at least two bot texts"),
    ('bots = ["big-money", "nosuch"]', "", "balance.bots[1]"),
    ('bots = ["big-money", "big-money"]\nmatrix = [[0.5]]', "",
     "balance.matrix: expected 2 rows of 2 scores"),
    (FIRST_SEAT, '[space.cap]\ntype = "int"\nlow = 10\nhigh = 50\n',
     "space.cap: not a rule of dominion a balance study may tune"),
    (FIRST_SEAT, '[space.kingdom_pile]\ntype = "int"\nlow = 0\nhigh = 10\n',
     "space.kingdom_pile: bad range"),
    (FIRST_SEAT + '\nspeed = 1', "", "balance.speed: unknown key"),
])
def test_bad_balance_input_is_one_line(tmp_path, main, balance, extra, message):
    code, _, err = main("balance", str(_spec(tmp_path, balance=balance, extra=extra)))
    assert code == 2 and message in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_a_balance_table_needs_the_balance_optimizer(tmp_path, main):
    path = _spec(tmp_path).read_text().replace('optimizer = "balance"', 'optimizer = "optuna"')
    (tmp_path / "x.toml").write_text(path.replace("[study]", '[study]\nstrategy = "heuristic"'))
    code, _, err = main("run", str(tmp_path / "x.toml"))
    assert code == 2 and "balance" in err


def test_a_one_seat_game_is_tuned_to_a_win_rate(tmp_path, main):
    """The Game seats one bot: its win rate is the score aimed at (a difficulty)."""
    path = tmp_path / "diff.toml"
    path.write_text(SPEC.format(name="diff", balance='bots = ["recovery-fallback"]\n'
                                'target = 0.3\nelsewhere = ["recoverability,recovery-fallback"]',
                                trials=2, extra="").replace('game = "dominion"',
                                                            'game = "thegame"')
                    .replace("[space.provinces]", "[space.hand_size]").replace(
                        "low = 3\nhigh = 12", "low = 6\nhigh = 8"))
    code, out, err = main("balance", str(path), "--storage", str(tmp_path / "d.journal"),
                          "--out", str(tmp_path / "d"), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["solo"] and set(result["best"]) == {"hand_size"}
    seat = result["confirmation"]["tuned"]["first_seat"]
    assert seat["ties"] == 0 and abs(result["confirmation"]["tuned"]["value"]
                                     - abs(seat["score"] - 0.3)) < 1e-12
    assert "win rate" in (tmp_path / "d" / "README.md").read_text()
