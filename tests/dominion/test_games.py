"""Contract tests: seeded games reproduce, cards are conserved, games end or are capped,
random play never crashes, splits over jobs do not change results, reference figures.

Games are played through the game's one entry point (``GAME.play``, blocks spread by
``games.blocks.map_blocks``) and matches through the tuning layer's ``run_match``."""

from __future__ import annotations

import numpy as np
import pytest

from games.blocks import map_blocks
from games.dominion import BotSpec
from games.dominion._bots import compile_bots
from games.dominion._cards import INDEX, KINGDOM_KEYS, NC, SOURCE_CARDS, initial_supply
from games.dominion._engine import (
    DISCARD,
    DLEN,
    END_STANDARD,
    HAND,
    NTS,
    OWNED,
    PLAY,
    game_over,
)
from games.dominion._kernel import new_record, setup_game
from games.dominion._play import take_turn
from games.dominion.game import GAME
from games.outcomes import Outcomes, seating_for

BM, SBM = BotSpec("big-money"), BotSpec("smithy-big-money")
RANDOM = BotSpec("random")
# The sources' kingdom cards but Harem: ten cards incl. Steward.
FULL = tuple(k for k in KINGDOM_KEYS if INDEX[k] < SOURCE_CARDS and k != "harem")


def play(bots, seed, start, count, **options):
    """Games ``start..start+count-1`` through the game's entry point (checked options)."""
    return GAME.play(bots, GAME.check_options(options), seed, start, count)


def match(bots, games, seed, **options):
    """A whole match through the tuning layer's one match runner, as ``play`` reports it."""
    from tuning.evaluation import WorkerPool
    from tuning.evaluation._match import run_match

    with WorkerPool(1) as pool:
        return run_match("dominion", bots, GAME.check_options(options), games=games,
                         seed=seed, pool=pool).to_dict()


class Inline:
    """The smallest pool ``map_blocks`` takes: one job, blocks played here in order."""

    jobs = 1

    def map(self, fn, tasks):
        return [fn(*task) for task in tasks]


def _arrays(r):
    return r.seating, r.outcome, r.score, r.turns, r.extra["plies"], r.capped


def test_seeded_games_reproduce_and_differ_by_seed():
    a = play([SBM, BM], 11, 0, 300)
    b = play([SBM, BM], 11, 0, 300)
    c = play([SBM, BM], 12, 0, 300)
    assert all(np.array_equal(x, y) for x, y in zip(_arrays(a), _arrays(b), strict=True))
    assert not np.array_equal(a.score, c.score)


def test_results_do_not_depend_on_the_split():
    bots = [SBM, BM, BotSpec("heuristic")]
    whole = play(bots, 5, 0, 240)
    parts = Outcomes.concat(map_blocks(GAME.play, (bots, GAME.check_options({}), 5), 240,
                                       pool=Inline(), block=37))
    assert all(np.array_equal(x, y) for x, y in zip(_arrays(whole), _arrays(parts),
                                                    strict=True))
    tail = play(bots, 5, 100, 50)
    assert np.array_equal(tail.score, whole.score[100:150])


def test_results_identical_with_two_jobs():
    from tuning.evaluation import WorkerPool

    one = play([SBM, BM], 9, 0, 400)
    with WorkerPool(2) as pool:
        two = Outcomes.concat(map_blocks(GAME.play, ([SBM, BM], GAME.check_options({}), 9),
                                         400, pool=pool, block=60))
    assert all(np.array_equal(x, y) for x, y in zip(_arrays(one), _arrays(two), strict=True))


def test_seats_rotate_and_per_bot_outcomes_follow_them():
    r = play([SBM, BM], 3, 0, 10)
    assert list(r.seating[:, 0]) == [0, 1] * 5
    assert np.array_equal(r.seating, seating_for(0, 10, 2))  # the shared rotation
    fixed = GAME.play([SBM, BM], GAME.check_options({}), 3, 0, 10, rotate=False)
    assert np.all(fixed.seating == [0, 1])
    bo = r.bot_outcome()
    assert np.array_equal(bo[1::2, 1], r.outcome[1::2, 0])
    assert np.all(r.bot_result().sum(axis=1) == 1.0)
    assert np.array_equal(r.bot_score()[1::2, 1], r.score[1::2, 0])  # VP follow the bot


def _check_conservation(zones, draw, pinfo, piles, total):
    players = zones.shape[0]
    owned = zones[:, OWNED].sum(axis=0)
    supply = np.where(piles[0] >= 0, piles[0], 0)
    assert np.array_equal(supply + owned + piles[1], total)
    for p in range(players):
        counts = zones[p, DISCARD] + zones[p, HAND] + zones[p, PLAY]
        counts = counts + np.bincount(draw[p, :pinfo[p, DLEN]], minlength=NC)
        assert np.array_equal(counts, zones[p, OWNED])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cards_conserved_turn_by_turn(players):
    kingdom = FULL
    supply = initial_supply(players, kingdom)
    specs = [RANDOM, BotSpec("heuristic", {"steward_share": 0.2}), SBM, BM][:players]
    specs = [s if s != SBM else BotSpec("sbm", genome="province | gold | smithy:2 | "
                                        "steward:2 | market | silver") for s in specs]
    comp = compile_bots(specs, supply)
    total = np.where(supply >= 0, supply, 0)
    total[INDEX["copper"]] += 7 * players
    total[INDEX["estate"]] += 3 * players
    zones = np.zeros((players, 4, NC), dtype=np.int64)
    draw = np.zeros((players, 400), dtype=np.int8)
    pinfo = np.zeros((players, 2), dtype=np.int64)
    piles = np.zeros((2, NC), dtype=np.int64)
    ts = np.zeros(NTS, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    seats = np.arange(players, dtype=np.int64)
    ended = 0
    for game in range(40):
        setup_game(np.uint64(1000 + game), supply, 5, zones, draw, pinfo, piles, rng)
        for turn in range(60 * players):
            p = turn % players
            take_turn(p, p, comp.rules, comp.nrules, comp.amode, comp.bmode, comp.fparams,
                      comp.weights, comp.lparams, comp.dparams, comp.porder, seats, zones,
                      draw, pinfo, piles, ts, rng, *new_record(0))
            _check_conservation(zones, draw, pinfo, piles, total)
            assert zones[p, HAND].sum() <= 5 and zones[p, PLAY].sum() == 0
            if game_over(piles, END_STANDARD):
                ended += 1
                break
    assert ended >= 30


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_never_crashes_and_games_end_or_are_capped(players):
    r = play([RANDOM] * players, 77, 0, 1000, kingdom=list(FULL), cap=60)
    assert r.count == 1000
    assert np.all(r.turns <= 60) and np.all(r.turns >= 1)
    assert np.array_equal(r.capped, r.turns == 60) or np.all(r.turns[r.capped] == 60)
    assert np.all((r.outcome == 1).sum(axis=1) <= 1)
    assert np.all((r.outcome >= 0).sum(axis=1) >= 1)  # someone always finishes first
    mixed = play([RANDOM, BotSpec("heuristic")] + [BM] * (players - 2), 78, 0, 500,
                 kingdom="default", cap=60)
    assert mixed.count == 500


def test_capped_games_are_counted():
    idle = "province@money>999"  # buys nothing in 30 turns (a dead entry is refused)
    stall = [BotSpec("idle", genome=idle), BotSpec("idle2", genome=idle)]
    r = play(stall, 1, 0, 20, kingdom="smithy", cap=30)
    assert np.all(r.capped) and np.all(r.turns == 30)
    m = match(stall, 20, 1, kingdom="smithy", cap=30)
    assert m["capped_games"] == 20 and m["bots"]["idle"]["ties"] == 20


def test_whole_games_end_on_three_empty_piles():
    # No bot buys a Province, so only three empty piles can end these games early.
    cheap = [BotSpec("cheap", genome="great-hall | woodcutter | village | estate | copper")]
    kingdom = "great-hall,woodcutter,village"
    r = play(cheap * 2, 31, 0, 50, kingdom=kingdom, cap=100)
    assert not r.capped.any() and r.turns.max() < 60
    assert np.all(r.score.sum(axis=1) > 6)  # more than the starting Estates: piles bought
    provinces_only = play(cheap * 2, 31, 0, 50, kingdom=kingdom, cap=100,
                          end_rule="provinces")
    assert provinces_only.capped.all()  # the blog's rule ignores empty piles


def test_big_money_mirror_ties_about_a_third():
    r = play([BM, BM], 21, 0, 4000)
    ties = (r.outcome == 0).all(axis=1).mean()
    assert 0.28 < ties < 0.38
    assert abs(r.bot_result()[:, 0].mean() - 0.5) < 1e-12 + 0.03


def test_smithy_big_money_beats_big_money():
    m = match([SBM, BM], 4000, 22)
    lo, hi = m["bots"]["smithy-big-money"]["score_ci"]
    assert lo < 0.95 and hi > 0.93 - 0.01


def test_solo_big_money_turns_to_four_provinces():
    r = play([BM], 23, 0, 3000, solo=4)
    assert abs(r.turns.mean() - 16.8) < 0.25 and not r.capped.any()
    one = play([BM], 23, 0, 1000, solo=1)
    assert one.turns.mean() < r.turns.mean() - 5


def test_stale_kernel_cache_is_dropped(tmp_path):
    from games.dominion import _cache

    folder = tmp_path / "pkg"
    (folder / "__pycache__").mkdir(parents=True)
    for name in _cache._SOURCES:
        (folder / name).write_text(name)
    stale = folder / "__pycache__" / "_play.run_games-1.py311.nbi"
    other = folder / "__pycache__" / "match.cpython-311.pyc"
    stale.write_text("x")
    other.write_text("x")
    _cache.invalidate_stale_cache(folder)
    assert not stale.exists() and other.exists()
    stamp = folder / "__pycache__" / "dominion-kernels.stamp"
    assert stamp.read_text() == _cache.fingerprint(folder)
    stale.write_text("x")
    _cache.invalidate_stale_cache(folder)  # same sources: cache kept
    assert stale.exists()
    (folder / "_engine.py").write_text("changed")
    _cache.invalidate_stale_cache(folder)
    assert not stale.exists()
    stale.write_text("x")
    (folder / "_features.py").write_text("changed")  # the encoder is compiled into kernels
    _cache.invalidate_stale_cache(folder)
    assert not stale.exists()
