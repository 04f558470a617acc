"""The contract every registered game keeps (and the toy game of this folder, registered the
same way): determinism by seed, results independent of blocks and jobs, rotated seats,
every bot plays, bad input refused in one line, the game's own invariants, pinned traces,
and the turn-level API and the genome handshake where a game offers them
(:mod:`games.capabilities`).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from games import registry
from games.capabilities import GenomeKind, offers, use
from games.core import BotSpec, InputError, param_ranges
from games.interop._params import OPENSPIEL_BOTS

GOLDEN = Path(__file__).resolve().parent / "golden"
# every registered game, less the stand-ins of other test folders (they mark themselves)
GAMES = [n for n in registry.names() if use(registry.get(n), "contract").in_contract_suite]
SEED = 2024


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> registry.Game:
    return registry.get(request.param)


def line_up(game: registry.Game) -> list[BotSpec]:
    return use(game, "contract").contract_line_up()


def options(game: registry.Game) -> dict:
    return game.check_options(use(game, "contract").test_options)


def play(game: registry.Game, start: int, count: int, seed: int = SEED,
         bots: list[BotSpec] | None = None) -> registry.Outcomes:
    return game.play(bots or line_up(game), options(game), seed, start, count)


def same(a: registry.Outcomes, b: registry.Outcomes) -> bool:
    return all(np.array_equal(getattr(a, k), getattr(b, k))
               for k in ("seating", "outcome", "score", "turns", "capped"))


def test_the_toy_game_arrives_like_any_other():
    assert "toy-deckbuilder" in GAMES and {"deckbuilder", "dominion", "thegame"} <= set(GAMES)


def test_same_seed_same_games_other_seed_other_games(game):
    a, b = play(game, 0, 8), play(game, 0, 8)
    assert same(a, b)
    c = play(game, 0, 8, seed=SEED + 1)
    assert not np.array_equal(a.score, c.score)


def test_any_block_split_gives_the_same_games(game):
    whole = play(game, 0, 9)
    parts = registry.Outcomes.concat([play(game, 0, 4), play(game, 4, 1), play(game, 5, 4)])
    assert same(whole, parts) and parts.start == 0 and parts.count == 9


def test_any_number_of_jobs_gives_the_same_match(game):
    from tuning.evaluation import WorkerPool
    from tuning.evaluation._match import run_match

    bots, opts = line_up(game), options(game)
    results = []
    # processes, and threads (what `play` uses for a game whose kernel releases the lock;
    # every game's blocks must be safe to play side by side in one process)
    for jobs, block, backend in ((1, 12, "loky"), (2, 5, "loky"), (3, 2, "threading")):
        with WorkerPool(jobs, backend) as pool:
            m = run_match(game.name, bots, opts, games=12, seed=SEED, pool=pool, block=block)
        data = m.to_dict()
        for key in ("seconds", "games_per_second"):
            data.pop(key)
        results.append(data)
    assert results[0] == results[1] == results[2]


def test_seats_rotate_game_by_game(game):
    out = play(game, 3, 12)
    n = len(line_up(game))
    seats = out.seating.shape[1]
    assert out.seating.shape == (12, seats) and out.outcome.shape == (12, seats)
    if seats > 1:
        assert np.array_equal(out.seating, registry.seating_for(3, 12, n))
        for b in range(n):  # every bot sits in every seat equally often
            assert len(set((out.seating == b).sum(axis=0).tolist())) == 1


def test_every_bot_plays(game):
    """Each bot plays under the game's test options, or else under its defaults (a bot may
    need the kingdom it was trained on). An OpenSpiel bot sits beside the game's rollout
    bot where it has one: beside it the game's bots play move by move, which not all do."""
    filler = line_up(game)
    for name, info in game.bots().items():
        bot = game.parse_bot(info.example or name)
        table = [bot, *filler[1:]]
        rollout_bot = use(game, "state_players").rollout_bot
        if name in OPENSPIEL_BOTS and rollout_bot:
            table = [bot, *(game.parse_bot(rollout_bot) for _ in filler[1:])]
        try:
            out = game.play(table, options(game), SEED, 0, 2)
        except InputError:
            out = game.play(table, game.check_options({}), SEED, 0, 2)
        assert out.count == 2 and np.all(np.isfinite(out.score)), name


def test_bad_names_options_and_parameters_are_refused_in_one_line(game):
    with pytest.raises(InputError, match="no-such-bot"):
        game.parse_bot("no-such-bot")
    with pytest.raises(InputError, match="game.no_such_option"):
        game.check_options({"no_such_option": 1})
    for name, info in game.bots().items():
        numeric = {k: r for k, r in param_ranges(info.params_type or object).items()
                   if r.choices is None} if info.params_type else {}
        if numeric:
            key, r = next(iter(numeric.items()))
            with pytest.raises(InputError, match=key):
                game.check_bot(BotSpec(name, {key: r.high + 1}))
            with pytest.raises(InputError, match="no_such_param"):
                game.check_bot(BotSpec(name, {"no_such_param": 1}))
            break
    from tuning.cli import app
    res = CliRunner().invoke(app, ["play", game.name, "--bots", "no-such-bot", "-n", "2"])
    assert res.exit_code == 2 and "no-such-bot" in res.output
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1


def test_the_games_own_invariants_hold_over_many_random_games(game):
    use(game, "contract").invariants(options(game), SEED, 300)


def test_golden_trace(game):
    path = GOLDEN / f"{game.name}.json"
    if not path.is_file():
        pytest.fail(f"no pinned trace for {game.name}: run `python tests/contract/golden.py "
                    f"{game.name}` and commit {path.name}")
    want = json.loads(path.read_text())
    bots = [game.parse_bot(t) for t in want["bots"]]
    out = game.play(bots, game.check_options(want["options"]), want["seed"], 0, want["games"])
    got = {"outcome": out.outcome.tolist(), "score": out.score.tolist(),
           "turns": out.turns.tolist(), "capped": out.capped.tolist()}
    for key, value in got.items():
        assert value == want[key], (game.name, key)


def test_turn_level_api_where_offered(game):
    if not offers(game, "state"):
        pytest.skip(f"{game.name} offers no turn-level API")
    state = game.new_state(options(game), SEED, min(game.player_counts))
    rng = np.random.default_rng(SEED)
    moves = 0
    twin = None
    while not state.is_terminal() and moves < 5000:
        legal = state.legal_moves()
        assert legal and 0 <= state.current_player()
        if moves == 10:
            twin, played = state.clone(), []
        move = legal[int(rng.integers(len(legal)))]
        state.apply(move)
        if twin is not None:
            played.append(move)
        moves += 1
    assert state.is_terminal() and state.legal_moves() == []
    returns = state.returns()  # 1 win, 0.5 shared, 0 loss (a cooperative table: all alike)
    assert returns and all(r in (0.0, 0.5, 1.0) for r in returns)
    assert len(state.scores()) == len(returns)
    if twin is not None:  # a clone replays the same moves to the same end
        for move in played:
            twin.apply(move)
        assert twin.returns() == state.returns() and twin.history == state.history
        assert twin.scores() == state.scores()
    with pytest.raises(ValueError):
        state.apply(object())


def test_genome_handshake_where_offered(game):
    """A genome goes to the game as its text (games.capabilities): the candidate spec that
    the evolution sends plays, and parse_bot reads the same text back as a genome bot."""
    if not offers(game, "genomes"):
        pytest.skip(f"{game.name} offers no genome kinds")
    opts = options(game)
    rng = random.Random(SEED)
    for name, factory in game.genome_kinds().items():
        kind = factory(dict(opts))
        assert isinstance(kind, GenomeKind) and kind.name == name
        for _ in range(5):
            genes = kind.random(rng)
            kind.validate(genes)
            text = kind.to_text(genes)
            assert "\n" not in text and kind.from_text(text) == genes
            assert game.parse_bot(text).genome == text
            candidate = game.check_bot(BotSpec("candidate", {}, text))
            assert candidate.genome == text
            bots = [candidate, *line_up(game)[1:]]
            first = game.play(bots, opts, SEED, 0, 6)
            assert same(first, game.play(bots, opts, SEED, 0, 6))
