"""Legal plays on hand-built positions: both pile kinds, the backwards trick, the minimum."""

from __future__ import annotations

from games.thegame._rules import is_playable, legal_plays, legal_sequences, minimum_play


def test_ascending_pile_takes_higher_cards_and_exactly_ten_lower():
    assert is_playable(0, 40, 41) and is_playable(1, 40, 99)
    assert is_playable(0, 40, 30)  # backwards trick
    assert not is_playable(0, 40, 31) and not is_playable(0, 40, 29)
    assert not is_playable(0, 40, 20)  # only exactly 10
    assert not is_playable(1, 40, 39)


def test_descending_pile_takes_lower_cards_and_exactly_ten_higher():
    assert is_playable(2, 60, 59) and is_playable(3, 60, 2)
    assert is_playable(2, 60, 70)  # backwards trick
    assert not is_playable(3, 60, 69) and not is_playable(3, 60, 71)
    assert not is_playable(2, 60, 80)
    assert not is_playable(2, 60, 61)


def test_legal_plays_of_a_hand_built_position():
    tops = (30, 45, 60, 50)
    plays = set(legal_plays(tops, [20, 35, 55, 61]))
    assert plays == {
        (20, 0),  # 30 - 10 on an ascending pile
        (20, 2), (20, 3),
        (35, 0), (35, 2), (35, 3), (35, 1),  # 35 = 45 - 10 on the second ascending pile
        (55, 0), (55, 1), (55, 2),
        (61, 0), (61, 1),  # 61 > 60 is blocked on pile 2 (only 70 goes back)
    }


def test_sequences_use_the_tops_the_earlier_plays_made():
    seqs = legal_sequences((1, 1, 100, 100), [50, 40], 2)
    assert ((50, 0), (40, 0)) in seqs  # 40 = 50 - 10: backwards trick on the new top
    assert ((40, 0), (50, 0)) in seqs
    assert ((50, 2), (40, 2)) in seqs
    assert ((40, 2), (50, 2)) in seqs  # 50 = 40 + 10 on a descending pile
    blocked = legal_sequences((90, 95, 10, 5), [50, 60], 2)
    assert blocked == []


def test_minimum_is_two_then_one_and_three_in_expert_mode():
    assert minimum_play(30) == 2
    assert minimum_play(1) == 2
    assert minimum_play(0) == 1
    assert minimum_play(30, expert=True) == 3
    assert minimum_play(0, expert=True) == 1
