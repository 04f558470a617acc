"""The AlphaZero match's own logic, without the AlphaZero repository: positions converted
both ways (tables in the referee's layout made from our cards), a move followed through
the referee's board, turn effects, our players' choice among allowed moves, and the
benchmark's one-line answers to bad input. With a checkout named by TABLETUNE_AZ_CHECKOUT
(and its needs installed) the engines are also compared on a few positions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from games.core import InputError
from games.splendor import SplendorState, make_bot
from games.splendor._rules import M_TAKE, M_TAKE2, O_PHASE, PH_MAIN, TAKE_SETS, apply_move
from games.splendor.alphazero._checkout import NEEDED, check_checkout
from games.splendor.alphazero._chooser import choose, whole_turn
from games.splendor.alphazero._convert import differences, from_theirs, to_theirs
from games.splendor.alphazero._effects import our_effect, our_turns, referee_effect
from games.splendor.alphazero._tables import tables_from_ours

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks" / "splendor_vs_alphazero.py"


def positions(games: int, seed: int = 3):
    """Every position where a turn begins, in games of random against Greedy."""
    rng = np.random.default_rng(seed)
    bots = [make_bot("random", rng=rng), make_bot("greedy", rng=rng)]
    for g in range(games):
        state = SplendorState.new(2, seed, g, 62)
        while not state.is_terminal():
            if state.array[O_PHASE] == PH_MAIN:
                yield state
            state.apply(bots[(state.current_player() + g) % 2].act(state))


def test_round_trip_both_ways() -> None:
    tables = tables_from_ours(1)
    seen = 0
    for state in positions(6):
        board = to_theirs(state.array, tables)
        back = from_theirs(board, state.array, tables)
        assert differences(state.array, back) == []
        assert np.array_equal(to_theirs(back, tables), board)
        seen += 1
    assert seen > 200


def test_a_move_is_followed_through_the_referee_board() -> None:
    """Our engine plays a turn; the board after it, read back with the position before as
    template, is our position after (owners, blind reserves and draws included)."""
    tables = tables_from_ours(2)
    for state in list(positions(3, seed=5))[::3]:
        for turn, _ in our_turns(state.array)[::4]:
            after = state.array.copy()
            for m in turn:
                apply_move(after, m)
            if after[O_PHASE] != PH_MAIN:
                continue  # a noble choice is the player's
            read = from_theirs(to_theirs(after, tables), state.array, tables)
            assert differences(after, read) == [], turn


def test_effects_of_takes_match_the_referee_rows() -> None:
    tables = tables_from_ours(0)
    state = SplendorState.new(2, 7, 0, 62)
    board = to_theirs(state.array, tables)
    turns = our_turns(state.array)
    assert len(turns) == 10 + 5 + 12 + 3  # take 3, take 2, reserve face up, reserve blind
    for turn, effect in turns:
        m = turn[0]
        if M_TAKE <= m < M_TAKE2:
            row = [i for i, r in enumerate(tables.takes)
                   if list(r[:5]) == list(TAKE_SETS[m - M_TAKE])][0]
            assert referee_effect(board, 30 + row, 0, tables) == effect
        elif M_TAKE2 <= m < M_TAKE2 + 5:
            assert referee_effect(board, 55 + m - M_TAKE2, 0, tables) == effect
        else:
            assert effect[0] in ("reserve", "blind") and effect[2][5] == 1


def test_a_player_falls_back_to_its_best_allowed_turn() -> None:
    state = SplendorState.new(2, 7, 0, 62)
    bot = make_bot("greedy")
    turn, after = whole_turn(bot, state)
    own = our_effect(state.array, after.array, turn[0])
    assert choose(bot, state, {own: 99}).preferred
    reserves = {e: 12 + e[1] for _, e in our_turns(state.array) if e[0] == "reserve"}
    choice = choose(bot, state, reserves)
    assert not choice.preferred and choice.action in reserves.values()
    nothing = choose(bot, state, {})
    assert nothing.action == 80 and nothing.turn is None


def test_check_checkout_names_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such folder"):
        check_checkout(tmp_path / "absent")
    with pytest.raises(InputError, match="not a checkout"):
        check_checkout(tmp_path)
    for name in NEEDED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    with pytest.raises(InputError, match="model file"):
        check_checkout(tmp_path)
    (tmp_path / "splendor" / "pretrained_2players.pt").write_bytes(b"")
    assert check_checkout(tmp_path)[0] == tmp_path.resolve()


@pytest.mark.parametrize("extra,words", [
    ([], "no such folder"),
    (["--simulations", "fast"], "unknown budget"),
    (["--jobs", "0"], "worker processes"),
])
def test_benchmark_bad_input_is_one_line_exit_2(tmp_path: Path, extra: list[str],
                                                words: str) -> None:
    az = tmp_path / "absent" if not extra else tmp_path
    done = subprocess.run([sys.executable, str(BENCH), "--az", str(az), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr


def test_benchmark_foreign_checkout_and_missing_model(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH), "--az", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and "not a checkout" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    for name in NEEDED:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    done = subprocess.run([sys.executable, str(BENCH), "--az", str(tmp_path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and "model file" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_engines_agree_on_a_real_checkout() -> None:
    path = os.environ.get("TABLETUNE_AZ_CHECKOUT")
    if not path:
        pytest.skip("TABLETUNE_AZ_CHECKOUT names no checkout of the AlphaZero repository")
    pytest.importorskip("colorama")
    from games.splendor.alphazero._check import run_check
    from games.splendor.alphazero._checkout import referee

    result = run_check(referee(check_checkout(path)[0]), 30, 1)
    assert result.positions == 30 and result.mismatches == []


TEACHER = ROOT / "benchmarks" / "splendor_teacher.py"


def test_teacher_fits_a_model_from_blocks(tmp_path: Path) -> None:
    """The fit reads every block and writes a model the learned players load; a feature
    that decides the result gets the weight of a win."""
    from games.splendor._features import FEATURE_NAMES, NF
    from games.splendor._learned import load_model

    rng = np.random.default_rng(0)
    lead = FEATURE_NAMES.index("p_points")
    for start in (0, 25):
        x = rng.normal(size=(400, NF))
        result = np.where(x[:, lead] > 0, 1, -1)
        np.savez(tmp_path / f"block-{start:05d}.npz", features=x, result=result,
                 ahead=np.zeros(400, dtype=np.int64), seat=np.zeros(400, dtype=np.int64),
                 game=np.arange(start, start + 400) // 16, sims=np.array(100),
                 seed=np.array(1), start=np.array(start), count=np.array(25))
    model = tmp_path / "model.npz"
    done = subprocess.run([sys.executable, str(TEACHER), "--az", str(tmp_path), "--out",
                           str(tmp_path), "--fit", str(model)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = load_model(model)
    assert loaded.meta["samples"] == 800 and loaded.meta["teacher"] == "alphazero"
    assert loaded.weights[lead] > 0.5
    assert np.abs(np.delete(loaded.weights[:NF], lead)).max() < 0.2


@pytest.mark.parametrize("extra,words", [
    (["--jobs", "0"], "take 1 or more"),
    (["--fit", "m.npz"], "no blocks to fit"),
])
def test_teacher_bad_input_is_one_line_exit_2(tmp_path: Path, extra: list[str],
                                              words: str) -> None:
    done = subprocess.run([sys.executable, str(TEACHER), "--az", str(tmp_path), "--out",
                           str(tmp_path / "blocks"), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], done.stderr


def test_teacher_game_on_a_real_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                         ) -> None:
    """Two games of AlphaZero against itself: samples from both seats after every move,
    results of opposite sign (or a shared win) for finished games."""
    path = os.environ.get("TABLETUNE_AZ_CHECKOUT")
    if not path:
        pytest.skip("TABLETUNE_AZ_CHECKOUT names no checkout of the AlphaZero repository")
    pytest.importorskip("torch")
    from games.splendor._features import NF
    from games.splendor.alphazero import _checkout as checkout
    from games.splendor.alphazero._teacher import play_teacher_game

    monkeypatch.chdir(tmp_path)  # the model's ONNX export is written to the folder of work
    az = checkout.load(*check_checkout(path), [25])
    for index in range(2):
        g = play_teacher_game(az, 25, 1, index, choices=True)
        assert g.features.shape == (2 * g.moves, NF)
        assert list(g.seats[:2]) == [0, 1]
        if g.result is not None:
            assert max(g.points) >= 15 and g.result[0] + g.result[1] in (0, 2)
