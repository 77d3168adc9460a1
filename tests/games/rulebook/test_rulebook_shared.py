"""The rulebook's shared pieces: dice as drawn, their accessible names, and scripted turns."""

from __future__ import annotations

import pytest

from games.rulebook import shared
from games.rules import triple_quintzee


def test_a_plain_die_has_no_colour_and_a_painted_one_its_letter():
    assert shared.shown_die(4) == {"face": 4, "colour": "", "letter": ""}
    assert shared.shown_die([4, "pink"]) == {"face": 4, "colour": "pink", "letter": "P"}


def test_dice_are_named_for_screen_readers():
    assert shared.aria([2, 2, 5]) == "dice 2 2 5"
    assert shared.aria([[5, "blue"], (4, "red")]) == "dice 5 blue, 4 red"
    assert shared.aria([]) == "no dice"


def test_an_example_keeps_painted_dice_as_lists():
    e = shared.example([(3, "green")], 3, box="greens", gain=3)
    assert e["dice"] == [[3, "green"]]
    assert (e["box"], e["value"], e["gain"], e["label"], e["note"]) == ("greens", 3, 3, "", "")


def test_scripted_dice_fail_loudly_on_a_surprise():
    dice = shared.Scripted([1, 2, 3, 4, 5])
    with pytest.raises(RuntimeError, match="asked for 4 dice"):
        dice(4)
    with pytest.raises(RuntimeError, match="no roll is scripted"):
        dice(5)


def test_a_card_turn_reports_what_the_total_gained():
    state = triple_quintzee.new_game([shared.YOU])
    state, gain = shared.card_turn(triple_quintzee, state, [6, 6, 6, 6, 6], "sixes", 3)
    assert gain == 30 * 3
    assert shared.refused(triple_quintzee, state, shared.YOU, {"type": "score", "box": "sixes", "column": 3})


def test_par_rolls_hold_three_of_each_face():
    for box, roll in shared.par_rolls(triple_quintzee.FACE).items():
        assert roll.count(triple_quintzee.FACE[box]) == 3
        assert triple_quintzee.score(box, roll) == 3 * triple_quintzee.FACE[box]
