"""The Game's hand size as a rule a balance study tunes: 0 keeps the rules' hand (8 solo),
the kernel and the turn-level State deal the same hand, and a bigger hand wins more."""

from __future__ import annotations

from games import registry
from games.core import BotSpec


def test_the_rules_hand_is_the_default_and_the_state_deals_the_option():
    game = registry.get("thegame")
    printed = game.new_state(game.check_options({}), 3, 1)
    assert printed.hand_size == 8 and len(printed.hands[0]) == 8
    small = game.new_state(game.check_options({"hand_size": 5}), 3, 1)
    assert small.hand_size == 5 and len(small.hands[0]) == 5
    assert len(small.clone().hands[0]) == 5 and small.clone().hand_size == 5


def test_a_bigger_hand_wins_more_and_zero_is_the_rules_hand():
    game = registry.get("thegame")
    bot = [BotSpec("recovery-fallback")]
    wins = {}
    for size in (0, 6, 8):
        out = game.play(bot, game.check_options({"hand_size": size}), 5, 0, 400)
        wins[size] = int((out.outcome[:, 0] == 1).sum())
    assert wins[0] == wins[8]  # solo: the rules' hand is 8
    assert wins[6] < wins[8]
