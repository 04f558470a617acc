"""The shipped games' registry hooks as the tuning layer uses them: per-game scores,
seeding, options, baselines, report notes."""

from __future__ import annotations

import numpy as np
import pytest

from games import registry
from games.capabilities import offers, use
from games.core import BotSpec, InputError
from games.learning import Trainer
from tuning.evaluation import Scorer

HEUR = BotSpec("heuristic", {"province_money": 17.0})
DOMINION = Scorer.build("dominion", {}, "win_rate", ["big-money"])
deckbuilder = registry.get("deckbuilder")
dominion = registry.get("dominion")


def test_dominion_scores_do_not_depend_on_block_boundaries():
    whole = DOMINION.block(HEUR, 3, 0, 40)
    parts = np.concatenate([DOMINION.block(HEUR, 3, 0, 15),
                            DOMINION.block(HEUR, 3, 15, 25)])
    assert np.array_equal(whole, parts)
    assert set(np.unique(whole)) <= {0.0, 0.5, 1.0}


def test_dominion_mirror_is_fair_and_candidates_differ():
    mirror = DOMINION.block(BotSpec("big-money"), 1, 0, 400)
    assert abs(mirror.mean() - 0.5) < 0.08
    smithy = DOMINION.block(BotSpec("smithy-big-money"), 1, 0, 400)
    assert smithy.mean() > 0.75


def test_dominion_accepts_buy_list_genomes():
    scores = DOMINION.block(BotSpec("c", genome="province | gold | silver"), 1, 0, 50)
    assert scores.shape == (50,)


def test_dominion_option_checks():
    with pytest.raises(InputError, match="game.colour"):
        dominion.check_options({"colour": "red"})
    with pytest.raises(InputError, match="unknown bot"):
        Scorer.build("dominion", {}, "win_rate", ["nobody"])
    with pytest.raises(InputError, match="2-4 players"):
        Scorer.build("dominion", {}, "win_rate", [["big-money"] * 4])
    with pytest.raises(InputError, match="game.cap"):
        dominion.check_options({"cap": 0})
    Scorer.build("dominion", {"cap": 80}, "win_rate", [["big-money", "big-money-ultimate"]])


def test_dominion_baselines_and_comparisons():
    terms = registry.StudyTerms(opponents=("big-money-ultimate",))
    opts = dominion.check_options({})
    assert "big-money" in dominion.baselines(opts, terms)
    assert dominion.comparisons(opts, terms) == {"vs big-money": {"opponents": ["big-money"]}}
    alone = registry.StudyTerms(opponents=("big-money",))
    assert "big-money" not in dominion.baselines(opts, alone)
    assert dominion.comparisons(opts, alone) == {
        "vs big-money-ultimate": {"opponents": ["big-money-ultimate"]}}
    assert dominion.bots()["heuristic"].params_type is not None


def test_deckbuilder_exact_matches_the_model_and_simulation_agrees():
    from games.deckbuilder import fraction_of_optimum
    cand = BotSpec("heuristic", {"province_left": 8})
    scorer = Scorer.build("deckbuilder", {"turns": 15}, "fraction_of_optimum")
    value = scorer.exact(cand)
    assert value == pytest.approx(fraction_of_optimum("heuristic", 15,
                                                      params={"province_left": 8}))
    assert 0 < value <= 1.0 + 1e-12
    sims = scorer.block(cand, 1, 0, 3000)
    assert abs(sims.mean() - value) < 4 * sims.std(ddof=1) / np.sqrt(sims.size)
    assert scorer.exact(BotSpec("optimal")) == pytest.approx(1.0)


def test_deckbuilder_option_checks():
    with pytest.raises(InputError, match="game.turns"):
        deckbuilder.check_options({"turns": 0})
    with pytest.raises(InputError, match="fixed game length"):
        deckbuilder.check_study(deckbuilder.check_options({"end_chance": 0.1}),
                                "fraction_of_optimum")
    with pytest.raises(InputError, match="game.depth"):
        deckbuilder.check_options({"depth": 3})


def test_registry_refuses_unknown_games_naming_the_known_ones():
    assert registry.get("dominion").name == "dominion"
    with pytest.raises(InputError, match="known games"):
        registry.get("go")


def test_report_notes_state_results_in_the_games_terms():
    from games.deckbuilder import make_card_set, optimal_value
    optimum = float(optimal_value(15, make_card_set(None, None, 5)))
    data = {"best": {"trial": 3, "mean": 0.5, "exact": True, "ci95": [0.5, 0.5]}}
    fraction = registry.StudyTerms(objective="fraction_of_optimum")
    (note,) = deckbuilder.report_notes(deckbuilder.check_options({"turns": 15}), data, fraction)
    assert f"{optimum:.3f} points" in note and f"{optimum / 2:.3f} points" in note
    assert "50.00% of the optimum (exact)" in note
    opts, terms = dominion.check_options({}), registry.StudyTerms(opponents=("big-money-ultimate",))
    close = {"best": {"trial": 1, "mean": 0.51, "ci95": [0.49, 0.53], "games": 2000}}
    clear = {"best": {"trial": 1, "mean": 0.6, "ci95": [0.58, 0.62], "games": 2000},
             "comparisons": [{"label": "vs big-money", "mean": 0.9, "ci95": [0.88, 0.92],
                              "games": 2000}]}
    assert "includes 50%" in dominion.report_notes(opts, close, terms)[1]
    notes = dominion.report_notes(opts, clear, terms)
    assert "excludes 50%" in notes[1] and "vs big-money: 90.00%" in notes[2]


def test_report_yardsticks_come_from_the_game_description():
    from games.yardstick import Yardstick
    from tuning.reporting._baselines import baselines_for

    assert type(baselines_for("thegame").yardstick) is Yardstick  # no yardstick: default
    notes = baselines_for("dominion").yardstick.notes
    rows = [{"opponent": "big-money", "score": 0.96, "ci95": [0.95, 0.97]}]
    assert "946 times in 1,000" in notes(["big-money"], rows)
    assert "against big-money 96.00% (target 95%: met)" in notes(["big-money"], rows)
    assert notes(["smithy-big-money"], rows) == ""
    reference = baselines_for("deckbuilder").yardstick.reference
    opts = deckbuilder.check_options({"turns": 12})
    assert reference(opts, "mean_score") == ("DP optimum", deckbuilder.optimum(opts))
    assert reference(opts, "fraction_of_optimum") is None


def test_a_train_table_needs_a_game_with_a_trainer(tmp_path):
    from tuning._spec import load_spec

    assert offers(dominion, "trainer") and not offers(deckbuilder, "trainer")
    assert isinstance(dominion.trainer(), Trainer)
    with pytest.raises(InputError, match="deckbuilder has no trainer"):
        use(deckbuilder, "trainer").trainer()
    path = tmp_path / "t.toml"
    path.write_text('[study]\nname = "t"\ngame = "deckbuilder"\noptimizer = "train"\n'
                    'objective = "mean_score"\n\n[train]\ngames = 10\n')
    with pytest.raises(InputError, match=r"train: .*a game with a trainer \(deckbuilder "
                                         "has none\\)"):
        load_spec(path)


def test_deckbuilder_yardstick_tables_exact_values_and_companion_rules():
    from games.yardstick import Companion

    rule = "province@8 | gold@6 | silver@3"
    opts = deckbuilder.check_options({"turns": 31})
    table = deckbuilder.yardstick().table(
        rule, opts, lambda: [Companion("x-t50", {"turns": 50}, rule, 100.0)])
    assert [r["turns"] for r in table.rows] == [31] * 4 + [50] * 5 + [100] * 4
    first = table.rows[0]
    assert first["strategy"] == "evolved" and first["optimum"] == deckbuilder.optimum(opts)
    assert first["fraction"] == first["value"] / first["optimum"] < 1
    assert table.rows[8]["strategy"] == "evolved at T = 50 (x-t50)"
    assert table.rows[8]["value"] == 100.0
    assert f"Rule evolved for T = 50 (x-t50): `{rule}`." in table.note
    assert [bar[0] for bar in table.figure[0]] == ["evolved", "greedy", "expensive", "picky"]
