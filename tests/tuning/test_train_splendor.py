"""`tabletune train` drives the learned Splendor player's trainer as it drives Dominion's."""

from __future__ import annotations

import json

from games.splendor._learned import load_model


def test_a_short_training_run_writes_a_model_that_plays(tmp_path, main):
    model, ckpt = tmp_path / "m.npz", tmp_path / "c.pkl"
    code, out, err = main("train", "splendor-learned", "-n", "600", "-j", "1", "--model",
                          str(model), "--checkpoint", str(ckpt), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["games_trained"] == 600 and model.is_file()
    assert load_model(model).meta["study"] == "splendor-learned"
