"""`tabletune board`: what wins on this board (tuning/_board.py, games/dominion/board.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games.core import InputError
from games.dominion._named_bots import NAMED
from games.dominion.board import BOARD, menu_form
from tuning._board import BoardRequest


def test_a_board_is_ten_base_set_cards_in_any_form():
    attack = BOARD.board("attack")
    assert len(attack) == 10 and BOARD.board(",".join(reversed(attack))) == attack
    assert BOARD.board("random:7") == BOARD.board("random:7")
    for bad, words in (("smithy,village", "ten kingdom cards"), ("", "required"),
                       ("random", "random:N"), ("smithy,smithy", "twice")):
        with pytest.raises(InputError, match=words):
            BOARD.board(bad)


def test_the_ladder_holds_the_bots_that_fit_and_the_witches_where_witch_is():
    board = BOARD.board("attack")
    ladder = BOARD.ladder(board)
    assert ladder[:2] == ["big-money", "big-money-ultimate"]
    assert ladder[-2:] == ["double-witch", "double-witch-ultimate"]
    assert "double-militia" in ladder and "workshop-gardens" not in ladder
    no_witch = BOARD.board("smithy,village,market,festival,cellar,chapel,moat,mine,"
                           "remodel,library")
    assert not {"double-witch", "double-witch-ultimate"} & set(BOARD.ladder(no_witch))
    gardens = BOARD.board("workshop,gardens,smithy,village,market,militia,moat,cellar,"
                          "chapel,festival")
    assert NAMED["workshop-gardens-standard"][0] in BOARD.candidates(gardens)


def test_seeds_are_in_the_genome_menu_form_with_the_same_buys():
    assert menu_form(NAMED["big-money-ultimate"][0]) == (
        "province@<=8@money>=19 | duchy@gains<=4 | estate@gains<=2 | gold | "
        "duchy@gains<=6 | silver")
    assert menu_form(NAMED["workshop-gardens-standard"][0]) is None  # a gain list
    from games.dominion._strategy_genome import DominionStrategy

    board = BOARD.board("attack")
    options = {k: v for k, v in BOARD.genome_options(board).items() if k != "kind"}
    kind = DominionStrategy({"kingdom": ",".join(board), **options})
    assert len(kind.seed_genomes()) == len(BOARD.seeds(board)) >= 5


@pytest.mark.parametrize("kw, words", [
    ({"minutes": 0}, "budget"), ({"minutes": 1e9}, "budget"),
    ({"ladder_games": 10}, "games"), ({"jobs": 0}, "jobs")])
def test_bad_budgets_are_refused(kw, words):
    with pytest.raises(InputError, match=words):
        BoardRequest("dominion", "attack", **kw)


def test_bad_board_input_is_one_line_and_exit_2(main):
    for args, words in ((["splendor", "--kingdom", "attack"], "no board optimiser"),
                        (["dominion", "--kingdom", "witch,moat"], "ten kingdom cards"),
                        (["dominion", "--kingdom", "attack", "--minutes", "0"], "budget"),
                        (["dominion"], "--kingdom is required")):
        code, out, err = main("board", *args)
        assert code == 2 and words in err and "Traceback" not in err, (args, err)
        assert len(err.strip().splitlines()) == 1, err


def test_a_short_board_search_writes_its_report_and_plays_again(main, tmp_path: Path,
                                                                 monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = main("board", "dominion", "--kingdom", "random:7", "--minutes", "0.2",
                          "--games", "200", "--seed", "3", "--json")
    assert code in (0, None), err
    data = json.loads(out)
    assert data["kingdom"] == list(BOARD.board("random:7"))
    assert set(data["ladder"]) == set(BOARD.ladder(BOARD.board("random:7")))
    for row in data["ladder"].values():
        lo, hi = row["score_ci"]
        assert row["games"] == 200 and lo <= row["score"] <= hi
    assert data["seconds"] > 0 and data["strategy"]
    where = tmp_path / "runs" / "boards" / BOARD.slug(BOARD.board("random:7"))
    assert {"result.json", "README.md", "index.html", "search.ckpt"} <= {
        p.name for p in where.iterdir()}
    assert data["strategy"] in (where / "README.md").read_text()
    # best:board: plays it again; a second search of the board asks for --resume
    from tuning._best import resolve_best
    assert resolve_best("best:board:random:7", "dominion").text == data["strategy"]
    code, _, err = main("board", "dominion", "--kingdom", "random:7", "--minutes", "0.2")
    assert code == 2 and "--resume" in err
    (where / "result.json").write_text("{not json")
    with pytest.raises(InputError, match="damaged"):
        resolve_best("best:board:random:7", "dominion")


def test_ctrl_c_keeps_the_search_and_resume_continues_it(cli, tmp_path: Path):
    import signal
    import time

    run = cli.start("board", "dominion", "--kingdom", "random:11", "--minutes", "2",
                    "--games", "200", cwd=tmp_path)
    where = tmp_path / "runs" / "boards" / BOARD.slug(BOARD.board("random:11"))
    deadline = time.monotonic() + 120
    while not (where / "search.ckpt").exists() and time.monotonic() < deadline:
        time.sleep(0.5)
    time.sleep(2)
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=120)
    assert run.returncode == 130, err
    assert "best so far" in err and "--resume" in err and "Traceback" not in err
    again = cli("board", "dominion", "--kingdom", "random:11", "--minutes", "0.2", "--games",
                "200", "--resume", "--json", cwd=tmp_path, timeout=300)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["search_generations"] >= 1
