"""Triple Yahtzee 99 engine: box values, jokers, Yahtzee bonuses, waste boxes, counts and column upgrades."""

from __future__ import annotations

import json
import random

import pytest

from games import rules
from games.rules import IllegalAction
from games.rules import triple_yahtzee_99 as ty

UPPER = ["ones", "xtra_ones", "twos", "threes", "fours", "fives", "sixes"]
LOWER = ["two_pairs", "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight"]
LOWER += ["yahtzee", "yahtzee_bonus", "first_chance", "second_chance"]
SCORING = [b for b in UPPER + LOWER if b != "yahtzee_bonus"]
NOTHING = [1, 2, 3, 4, 6]  # no pair, no run of five, no three of a kind


def roll(state, dice, faces, hold=(), player=None):
    dice.push(faces)
    return ty.apply(state, player or state["current"], {"type": "roll", "hold": list(hold)}, dice)


def put(state, dice, box, column, player=None):
    action = {"type": "score", "box": box, "column": column}
    return ty.apply(state, player or state["current"], action, dice)


def turn(state, dice, faces, box, column):
    return put(roll(state, dice, faces), dice, box, column)


def col(state, c, player="ann"):
    return state["cards"][player]["columns"][c - 1]


def boxes(state, box, player="ann"):
    return [col(state, c, player)["boxes"][box] for c in (1, 2, 3)]


# --- box values ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "faces", "value"),
    [
        ("ones", [1, 1, 1, 4, 5], 3),
        ("xtra_ones", [1, 1, 1, 4, 5], 3),
        ("xtra_ones", [2, 3, 4, 5, 6], 0),
        ("twos", [2, 2, 6, 6, 6], 4),
        ("threes", [3, 3, 3, 3, 3], 15),
        ("fours", [4, 1, 4, 1, 4], 12),
        ("fives", [5, 1, 1, 1, 1], 5),
        ("sixes", [6, 6, 6, 6, 5], 24),
        ("waste_upper", [6, 6, 6, 6, 6], 0),
        ("waste_lower", [1, 2, 3, 4, 5], 0),
        ("two_pairs", [3, 3, 5, 5, 1], 16),
        ("two_pairs", [6, 6, 6, 2, 2], 16),  # a full house's three gives a pair
        ("two_pairs", [6, 6, 6, 6, 5], 24),  # four of a kind is two pairs of its face
        ("two_pairs", [4, 4, 4, 4, 4], 16),  # and so is five of a kind
        ("two_pairs", [2, 2, 5, 5, 6], 14),
        ("two_pairs", [2, 2, 2, 3, 4], 0),
        ("two_pairs", [1, 2, 3, 4, 5], 0),
        ("three_of_a_kind", [2, 2, 2, 3, 4], 13),
        ("three_of_a_kind", [5, 5, 5, 5, 5], 25),
        ("three_of_a_kind", [2, 2, 3, 3, 4], 0),
        ("four_of_a_kind", [2, 2, 2, 2, 4], 12),
        ("four_of_a_kind", [6, 6, 6, 6, 6], 30),
        ("four_of_a_kind", [2, 2, 2, 4, 4], 0),
        ("full_house", [2, 2, 2, 5, 5], 25),
        ("full_house", [6, 6, 6, 5, 5], 28),  # at least 25, more when the dice add up to more
        ("full_house", [1, 1, 1, 1, 1], 25),
        ("full_house", [6, 6, 6, 6, 6], 30),
        ("full_house", [2, 2, 2, 2, 5], 0),
        ("full_house", [1, 2, 3, 4, 5], 0),
        ("small_straight", [3, 4, 5, 6, 1], 40),
        ("small_straight", [2, 3, 4, 5, 5], 35),
        ("small_straight", [1, 2, 3, 4, 4], 30),
        ("small_straight", [1, 2, 3, 4, 5], 35),
        ("small_straight", [2, 3, 4, 5, 6], 40),
        ("small_straight", [1, 2, 3, 5, 6], 0),
        ("small_straight", [1, 1, 1, 1, 1], 30),  # jokers
        ("small_straight", [2, 2, 2, 2, 2], 30),
        ("small_straight", [3, 3, 3, 3, 3], 30),
        ("small_straight", [4, 4, 4, 4, 4], 35),
        ("small_straight", [5, 5, 5, 5, 5], 35),
        ("small_straight", [6, 6, 6, 6, 6], 40),
        ("large_straight", [6, 5, 4, 3, 2], 50),
        ("large_straight", [1, 2, 3, 4, 5], 40),
        ("large_straight", [1, 2, 3, 4, 6], 0),
        ("large_straight", [1, 1, 1, 1, 1], 40),  # jokers
        ("large_straight", [3, 3, 3, 3, 3], 40),
        ("large_straight", [4, 4, 4, 4, 4], 40),
        ("large_straight", [5, 5, 5, 5, 5], 50),
        ("large_straight", [6, 6, 6, 6, 6], 50),
        ("yahtzee", [1, 1, 1, 1, 1], 50),
        ("yahtzee", [3, 3, 3, 3, 3], 50),
        ("yahtzee", [4, 4, 4, 4, 4], 60),
        ("yahtzee", [5, 5, 5, 5, 5], 60),
        ("yahtzee", [6, 6, 6, 6, 6], 75),
        ("yahtzee", [6, 6, 6, 6, 5], 0),
        ("yahtzee_bonus", [2, 2, 2, 2, 2], 100),
        ("yahtzee_bonus", [4, 4, 4, 4, 4], 120),
        ("yahtzee_bonus", [5, 5, 5, 5, 5], 120),
        ("yahtzee_bonus", [6, 6, 6, 6, 6], 150),
        ("yahtzee_bonus", [6, 6, 6, 6, 1], 0),
        ("first_chance", [6, 6, 6, 6, 5], 29),
        ("second_chance", [1, 1, 1, 1, 2], 6),
    ],
)
def test_box_values(box, faces, value):
    assert ty.score(box, faces) == value


def test_score_of_an_unknown_box_is_refused():
    with pytest.raises(IllegalAction):
        ty.score("chance", [1, 2, 3, 4, 5])


def test_module_exposes_the_contract():
    assert rules.get("triple-yahtzee-99") is ty
    assert (ty.slug, ty.name, ty.min_players, ty.max_players) == (
        "triple-yahtzee-99",
        "Triple Yahtzee 99",
        1,
        6,
    )


@pytest.mark.parametrize(
    ("subtotal", "bonus"), [(0, 0), (62, 0), (63, 35), (69, 35), (70, 50), (75, 50), (76, 70), (105, 70)]
)
def test_upper_bonus_tiers(subtotal, bonus):
    assert ty.upper_bonus(subtotal) == bonus


SIXES, FIVES = ("sixes", [6] * 5), ("fives", [5] * 5)


@pytest.mark.parametrize(
    ("plays", "subtotal", "bonus"),
    [
        ([SIXES, FIVES, ("threes", [3, 3, 1, 2, 2])], 61, 0),
        ([SIXES, FIVES, ("threes", [3, 3, 1, 2, 2]), ("twos", [2, 1, 1, 3, 3])], 63, 35),
        ([SIXES, FIVES, ("fours", [4, 4, 4, 1, 1]), ("xtra_ones", [1, 1, 2, 2, 2])], 69, 35),
        ([SIXES, FIVES, ("fours", [4, 4, 4, 1, 1]), ("xtra_ones", [1, 1, 1, 2, 2])], 70, 50),
        ([SIXES, FIVES, ("fours", [4, 4, 4, 4, 1]), ("twos", [2, 2, 1, 1, 1])], 75, 50),
        ([SIXES, FIVES, ("fours", [4, 4, 4, 4, 1]), ("ones", [1, 1, 1, 1, 1])], 76, 70),
    ],
)
@pytest.mark.parametrize("column", [1, 3])
def test_upper_bonus_through_play(dice, plays, subtotal, bonus, column):
    state = ty.new_game(["ann"])
    for box, faces in plays:
        state = turn(state, dice, faces, box, column)
    c = col(state, column)
    assert (c["upper_subtotal"], c["upper_bonus"], c["upper_total"]) == (subtotal, bonus, subtotal + bonus)
    assert ty.scores(state) == {"ann": column * (subtotal + bonus)}


# --- Yahtzee bonus ------------------------------------------------------------------------------------


def test_yahtzee_bonus_needs_all_three_yahtzee_boxes(dice):
    state = ty.new_game(["ann"])
    state = turn(state, dice, [6] * 5, "yahtzee", 1)
    state = turn(state, dice, [6] * 5, "yahtzee", 2)
    state = roll(state, dice, [6] * 5)
    with pytest.raises(IllegalAction, match="Yahtzee"):
        put(state, dice, "yahtzee_bonus", 1)
    assert not any(a.get("box") == "yahtzee_bonus" for a in ty.legal_actions(state))
    state = put(state, dice, "yahtzee", 3)
    state = roll(state, dice, [6] * 5)
    assert {a["column"] for a in ty.legal_actions(state) if a.get("box") == "yahtzee_bonus"} == {1, 2, 3}


def test_yahtzee_bonus_fills_columns_1_2_3_whatever_column_is_picked(dice):
    state = ty.new_game(["ann"])
    for c in (1, 2, 3):  # scratched Yahtzee boxes are filled too
        state = turn(state, dice, NOTHING, "yahtzee", c)
    state = turn(state, dice, [2] * 5, "yahtzee_bonus", 3)
    assert boxes(state, "yahtzee_bonus") == [100, None, None]
    event = state["last_event"]
    assert (event["column"], event["picked"], event["points"], event["bonus"]) == (1, 3, 100, 100)
    state = roll(state, dice, [5] * 5)
    entries = [e for e in ty.preview(state)["boxes"] if e["box"] == "yahtzee_bonus"]
    assert [(e["column"], e["lands"], e["value"]) for e in entries] == [(1, 2, 120), (2, 2, 120), (3, 2, 120)]
    state = put(state, dice, "yahtzee_bonus", 1)
    assert boxes(state, "yahtzee_bonus") == [100, 120, None]
    state = turn(state, dice, [6] * 5, "yahtzee_bonus", 2)
    assert boxes(state, "yahtzee_bonus") == [100, 120, 150]
    assert [col(state, c)["lower_total"] for c in (1, 2, 3)] == [100, 120, 150]
    assert ty.scores(state) == {"ann": 100 + 2 * 120 + 3 * 150}
    state = roll(state, dice, [6] * 5)
    with pytest.raises(IllegalAction, match="filled"):
        put(state, dice, "yahtzee_bonus", 1)


def test_yahtzee_bonus_takes_only_a_five_of_a_kind_and_a_real_column(dice):
    state = ty.new_game(["ann"])
    for c in (1, 2, 3):
        state = turn(state, dice, [4] * 5, "yahtzee", c)
    state = roll(state, dice, [6, 6, 6, 6, 5])
    with pytest.raises(IllegalAction, match="five of a kind"):
        put(state, dice, "yahtzee_bonus", 1)
    state = roll(state, dice, [6], hold=[0, 1, 2, 3])
    for action in (
        {"type": "score", "box": "yahtzee_bonus"},
        {"type": "score", "box": "yahtzee_bonus", "column": 4},
        {"type": "score", "box": "yahtzee_bonus", "column": 0},
        {"type": "score", "box": "yahtzee_bonus", "column": "1"},
    ):
        with pytest.raises(IllegalAction):
            ty.apply(state, "ann", action, dice)
    state = put(state, dice, "yahtzee_bonus", 3)
    assert boxes(state, "yahtzee_bonus") == [150, None, None]


def test_jokers_and_plain_five_of_a_kinds_do_not_open_the_bonus(dice):
    state = ty.new_game(["ann"])
    state = turn(state, dice, [6] * 5, "small_straight", 1)
    state = turn(state, dice, [6] * 5, "large_straight", 1)
    state = turn(state, dice, [6] * 5, "first_chance", 1)
    assert col(state, 1)["lower_total"] == 40 + 50 + 30
    state = roll(state, dice, [6] * 5)
    with pytest.raises(IllegalAction):
        put(state, dice, "yahtzee_bonus", 1)


# --- waste boxes --------------------------------------------------------------------------------------


def test_waste_boxes_score_nothing_and_are_used_once(dice):
    state = ty.new_game(["ann"])
    state = turn(state, dice, [6] * 5, "waste_upper", 2)
    assert boxes(state, "waste_upper") == [None, 0, None]
    assert ty.scores(state) == {"ann": 0}
    assert state["cards"]["ann"]["filled"] == 0
    assert "wasted" in state["last_event"]["text"]
    state = roll(state, dice, [6] * 5)
    with pytest.raises(IllegalAction, match="already filled"):
        put(state, dice, "waste_upper", 2)
    state = put(state, dice, "waste_lower", 2)
    assert boxes(state, "waste_lower") == [None, 0, None]
    assert ty.scores(state) == {"ann": 0} and state["turn"] == 2


# --- three-of-a-kind counts ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "faces", "upper", "lower"),
    [
        ("ones", [1, 1, 1, 2, 3], 1, 0),
        ("fours", [4, 4, 4, 1, 2], 1, 0),
        ("sixes", [6, 6, 6, 6, 6], 1, 0),
        ("twos", [2, 2, 3, 4, 5], 0, 0),
        ("xtra_ones", [1, 1, 1, 1, 2], 0, 0),  # Xtra Ones never count
        ("three_of_a_kind", [5, 5, 5, 1, 2], 0, 1),
        ("three_of_a_kind", NOTHING, 0, 0),  # a scratch does not count
        ("four_of_a_kind", [5, 5, 5, 5, 2], 0, 1),
        ("full_house", [2, 2, 2, 3, 3], 0, 1),
        ("full_house", [3] * 5, 0, 1),
        ("yahtzee", [3] * 5, 0, 1),
        ("first_chance", [2, 2, 2, 5, 6], 0, 1),
        ("second_chance", [2, 2, 2, 2, 2], 0, 1),
        ("second_chance", [2, 2, 5, 5, 6], 0, 0),
        ("two_pairs", [3, 3, 3, 5, 5], 0, 0),  # not one of the counted boxes
        ("small_straight", [3] * 5, 0, 0),
        ("large_straight", [3] * 5, 0, 0),
    ],
)
def test_three_of_a_kind_counts(dice, box, faces, upper, lower):
    state = turn(ty.new_game(["ann"]), dice, faces, box, 2)
    assert (col(state, 2)["upper_count"], col(state, 2)["lower_count"]) == (upper, lower)
    assert (col(state, 2)["three_kinds"] == [box]) == bool(upper or lower)


# --- column upgrades ----------------------------------------------------------------------------------

# Ten turns after which a column meets the upgrade minimums, on the tenth exactly:
# upper 9+12+15+18 = 54 with four counts, lower 75+30+30+30+30 = 195 until 28 more makes 223, six counts.
MEET = [
    ("threes", [3, 3, 3, 1, 2]),
    ("fours", [4, 4, 4, 1, 2]),
    ("fives", [5, 5, 5, 1, 2]),
    ("sixes", [6, 6, 6, 1, 2]),
    ("yahtzee", [6] * 5),
    ("three_of_a_kind", [6] * 5),
    ("four_of_a_kind", [6] * 5),
    ("full_house", [6] * 5),
    ("first_chance", [6] * 5),
    ("second_chance", [6, 6, 6, 5, 5]),
]
MET_POINTS = 54 + 223


def meet(state, dice, column):
    for box, faces in MEET:
        assert not col(state, column)["meets_minimums"], f"met too early, before {box}"
        state = turn(state, dice, faces, box, column)
    assert col(state, column)["meets_minimums"]
    return state


def statuses(state):
    return [(col(state, c)["status"], col(state, c)["multiplier"]) for c in (1, 2, 3)]


def test_columns_upgrade_in_order(dice):
    state = ty.new_game(["ann"])
    state = meet(state, dice, 1)
    assert statuses(state) == [("upgraded", 2), ("pending", 2), ("pending", 3)]
    assert col(state, 1)["upgraded"] is True
    assert col(state, 1)["total"] == 2 * MET_POINTS
    assert "upgraded" in state["last_event"]["text"]
    state = meet(state, dice, 2)
    assert statuses(state) == [("upgraded", 2), ("upgraded", 3), ("pending", 3)]
    state = meet(state, dice, 3)
    assert statuses(state) == [("upgraded", 2), ("upgraded", 3), ("upgraded", 5)]
    assert ty.scores(state) == {"ann": (2 + 3 + 5) * MET_POINTS}


def test_column_2_first_blocks_itself_and_column_3(dice):
    state = ty.new_game(["ann"])
    state = meet(state, dice, 2)
    assert statuses(state) == [("pending", 1), ("blocked", 2), ("blocked", 3)]
    assert col(state, 2)["upgraded"] is False
    state = meet(state, dice, 1)
    assert statuses(state) == [("upgraded", 2), ("blocked", 2), ("blocked", 3)]
    state = meet(state, dice, 3)
    assert statuses(state) == [("upgraded", 2), ("blocked", 2), ("blocked", 3)]
    assert ty.scores(state) == {"ann": (2 + 2 + 3) * MET_POINTS}


def test_column_3_before_column_2_upgraded_is_blocked(dice):
    state = ty.new_game(["ann"])
    state = meet(state, dice, 1)
    state = meet(state, dice, 3)
    assert statuses(state) == [("upgraded", 2), ("pending", 2), ("blocked", 3)]
    state = meet(state, dice, 2)
    assert statuses(state) == [("upgraded", 2), ("upgraded", 3), ("blocked", 3)]
    assert ty.scores(state) == {"ann": (2 + 3 + 3) * MET_POINTS}


def test_column_3_first_cannot_upgrade_but_columns_1_and_2_still_can(dice):
    state = ty.new_game(["ann"])
    state = meet(state, dice, 3)
    assert statuses(state) == [("pending", 1), ("pending", 2), ("blocked", 3)]
    state = meet(state, dice, 1)
    state = meet(state, dice, 2)
    assert statuses(state) == [("upgraded", 2), ("upgraded", 3), ("blocked", 3)]


def test_an_upgrade_waits_for_the_left_column_only_at_the_moment_of_meeting(dice):
    # Column 2 gets close first, column 1 upgrades, then column 2's last box makes it: it upgrades.
    state = ty.new_game(["ann"])
    for box, faces in MEET[:-1]:
        state = turn(state, dice, faces, box, 2)
    state = meet(state, dice, 1)
    state = turn(state, dice, [6, 6, 6, 5, 5], "second_chance", 2)
    assert statuses(state) == [("upgraded", 2), ("upgraded", 3), ("pending", 3)]


@pytest.mark.parametrize(
    ("plan", "meets"),
    [
        (MEET, True),
        ([("xtra_ones", [1] * 5), *MEET[1:]], False),  # upper 50, but Xtra Ones do not count: 3 counts
        ([("twos", [2, 2, 2, 1, 3]), *MEET[1:]], True),  # upper 6+12+15+18 = 51
        ([("ones", [1, 1, 1, 2, 3]), *MEET[1:]], False),  # upper 3+12+15+18 = 48
        (MEET[:-1], False),  # lower 195
        (
            [
                *MEET[:4],
                ("yahtzee", [6] * 5),
                ("large_straight", [2, 3, 4, 5, 6]),
                ("small_straight", [3, 4, 5, 6, 6]),
                ("two_pairs", [6, 6, 6, 6, 5]),
                ("first_chance", [6, 6, 6, 6, 6]),
            ],
            False,  # lower 75+50+40+24+30 = 219 but only 2 counts
        ),
        (
            [
                *MEET[:4],
                ("yahtzee", [6] * 5),
                ("three_of_a_kind", [6] * 5),
                ("four_of_a_kind", [6] * 5),
                ("full_house", [6] * 5),
                ("large_straight", [2, 3, 4, 5, 6]),
            ],
            True,  # lower 75+30+30+30+50 = 215 with exactly 4 counts
        ),
    ],
)
def test_each_minimum_is_required(dice, plan, meets):
    state = ty.new_game(["ann"])
    for box, faces in plan:
        state = turn(state, dice, faces, box, 1)
    c = col(state, 1)
    assert c["meets_minimums"] is meets
    assert (c["status"], c["multiplier"]) == (("upgraded", 2) if meets else ("pending", 1))


# --- a whole game -------------------------------------------------------------------------------------


def play_card(state, dice, wastes=False, faces=NOTHING):
    """Fill every scoring box of the current player (and the wastes first, if asked); count the turns."""
    turns = 0
    if wastes:
        for c in (1, 2, 3):
            for box in ("waste_upper", "waste_lower"):
                state = turn(state, dice, faces, box, c)
                turns += 1
    for c in (1, 2, 3):
        for box in SCORING:
            assert not ty.is_over(state)
            state = turn(state, dice, faces, box, c)
            turns += 1
    return state, turns


@pytest.mark.parametrize("wastes", [False, True])
def test_a_solo_game_ends_when_the_48_scoring_boxes_are_filled(dice, wastes):
    state, turns = play_card(ty.new_game(["ann"]), dice, wastes)
    assert turns == (54 if wastes else 48) == state["turn"]
    assert ty.is_over(state) and ty.current_player(state) is None
    card = state["cards"]["ann"]
    assert card["complete"] and card["filled"] == 48
    assert boxes(state, "yahtzee_bonus") == [None, None, None]
    assert ty.winners(state) == ["ann"]
    assert ty.legal_actions(state) == []


def test_a_complete_player_gets_no_more_turns(dice):
    state = ty.new_game(["ann", "bob"])
    ann_plan = [(box, c) for c in (1, 2, 3) for box in SCORING]
    bob_plan = [("waste_upper", 1), *ann_plan]
    for n in range(48):
        state = turn(state, dice, NOTHING, *ann_plan[n])
        assert ty.current_player(state) == "bob"
        state = turn(state, dice, [6] * 5, *bob_plan[n])
    # ann is done; bob wasted a turn, so he plays one more alone.
    assert not ty.is_over(state) and ty.current_player(state) == "bob"
    state = turn(state, dice, NOTHING, "second_chance", 3)
    assert ty.is_over(state)
    assert ty.winners(state) == ["bob"]


# --- turns, skip, resign, illegal actions -------------------------------------------------------------


def test_skip_marks_the_waste_boxes_first_then_scratches_in_card_order(dice):
    state = ty.new_game(["ann", "bob"])
    state = roll(state, dice, [6] * 5)
    landed = []
    for _ in range(6):
        state = ty.apply(state, "bob", {"type": "skip"}, dice)
        assert state["dice"] == [] and ty.current_player(state) == "bob"
        landed.append(
            (state["last_event"]["box"], state["last_event"]["column"], state["last_event"]["points"])
        )
        state = ty.apply(state, "ann", {"type": "skip"}, dice)
    assert landed == [
        ("waste_upper", 1, 0),
        ("waste_lower", 1, 0),
        ("waste_upper", 2, 0),
        ("waste_lower", 2, 0),
        ("waste_upper", 3, 0),
        ("waste_lower", 3, 0),
    ]
    assert state["cards"]["ann"]["filled"] == 0 and state["turn"] == 12
    state = ty.apply(state, "bob", {"type": "skip"}, dice)
    assert boxes(state, "ones") == [0, None, None]
    state = ty.apply(state, "ann", {"type": "skip"}, dice)
    state = ty.apply(state, "bob", {"type": "skip"}, dice)
    assert boxes(state, "xtra_ones") == [0, None, None]
    assert state["cards"]["ann"]["filled"] == 2


def test_skip_never_touches_the_yahtzee_bonus(dice):
    state = ty.new_game(["ann", "bob"])
    # 6 wastes, columns 1 and 2, then column 3 up to its Yahtzee box.
    for _ in range(6 + 16 + 16 + 14):
        state = ty.apply(state, "bob", {"type": "skip"}, dice)
        state = ty.apply(state, "ann", {"type": "skip"}, dice)
    assert boxes(state, "yahtzee") == [0, 0, 0]
    assert boxes(state, "first_chance") == [0, 0, None]
    state = ty.apply(state, "bob", {"type": "skip"}, dice)
    assert boxes(state, "first_chance") == [0, 0, 0]
    assert boxes(state, "yahtzee_bonus") == [None, None, None]


def test_resign_and_winners(dice):
    state = ty.new_game(["ann", "bob", "cat"])
    state = turn(state, dice, [6] * 5, "yahtzee", 3)
    state = ty.apply(state, "ann", {"type": "resign"}, dice)
    assert ty.current_player(state) == "bob"
    state = roll(state, dice, NOTHING)
    state = ty.apply(state, "bob", {"type": "resign"}, dice)
    # cat is the last one standing: the game ends at once, and ann's higher total does not win.
    assert ty.is_over(state) and ty.current_player(state) is None and state["dice"] == []
    assert ty.scores(state) == {"ann": 225, "bob": 0, "cat": 0}
    assert ty.winners(state) == ["cat"]


@pytest.mark.parametrize(
    "action",
    [
        {"type": "score", "box": "chance", "column": 1},
        {"type": "score", "box": "waste", "column": 1},
        {"type": "score", "box": "ones"},
        {"type": "score", "box": "ones", "column": 4},
        {"type": "score", "box": "ones", "column": False},
        {"type": "roll", "hold": [5]},
        {"type": "roll", "hold": [1, 1]},
        {"type": "roll", "hold": [False]},
        {"type": "bank"},
        ["score", "ones", 1],
    ],
)
def test_malformed_actions_are_refused(dice, action):
    state = roll(ty.new_game(["ann"]), dice, [1, 2, 3, 4, 5])
    with pytest.raises(IllegalAction):
        ty.apply(state, "ann", action, dice)


def test_turn_checks(dice):
    state = ty.new_game(["ann", "bob"])
    with pytest.raises(IllegalAction, match="Roll the dice first"):
        put(state, dice, "ones", 1)
    with pytest.raises(IllegalAction, match="It is not your turn"):
        ty.apply(state, "bob", {"type": "roll", "hold": []}, dice)
    state = roll(state, dice, NOTHING)
    state = roll(state, dice, [1], hold=[0, 1, 2, 3])
    state = roll(state, dice, [2, 2], hold=[1, 3, 4])
    assert state["dice"] == [2, 2, 2, 4, 1] and state["held"] == [1, 3, 4]
    with pytest.raises(IllegalAction, match="You have used all three rolls; choose a box"):
        ty.apply(state, "ann", {"type": "roll", "hold": []}, dice)


# --- legal_actions, preview, purity -------------------------------------------------------------------


def test_legal_actions_are_exactly_what_apply_accepts(dice):
    state = ty.new_game(["ann"])
    for c in (1, 2, 3):
        state = turn(state, dice, NOTHING, "yahtzee", c)
    state = turn(state, dice, [2] * 5, "yahtzee_bonus", 2)
    state = turn(state, dice, NOTHING, "waste_lower", 3)
    for faces in ([5] * 5, [2, 2, 2, 5, 5]):
        rolled = roll(state, dice, faces)
        legal = ty.legal_actions(rolled)
        assert sum(a["type"] == "roll" for a in legal) == 31
        for box in [*UPPER, *LOWER, "waste_upper", "waste_lower"]:
            for column in (1, 2, 3):
                action = {"type": "score", "box": box, "column": column}
                if action in legal:
                    ty.apply(rolled, "ann", action, dice)
                else:
                    with pytest.raises(IllegalAction):
                        ty.apply(rolled, "ann", action, dice)
        previewed = [
            {"type": "score", "box": e["box"], "column": e["column"]} for e in ty.preview(rolled)["boxes"]
        ]
        assert previewed == [a for a in legal if a["type"] == "score"]


@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_the_contract(seed):
    rng = random.Random(seed)
    players = ["ann", "bob"][: 1 + seed % 2]
    state = ty.new_game(players)

    def source(n):
        return [rng.choice([1, 2, 3, 4, 5, 6, 6, 6]) for _ in range(n)]

    while not ty.is_over(state):
        action = rng.choice(ty.legal_actions(state))
        before = json.dumps(state, sort_keys=True)
        new = ty.apply(state, ty.current_player(state), action, source)
        assert json.dumps(state, sort_keys=True) == before
        assert json.loads(json.dumps(new)) == new
        for p, card in new["cards"].items():
            total = 0
            for c in card["columns"]:
                upper = sum(c["boxes"][b] or 0 for b in UPPER)
                lower = sum(c["boxes"][b] or 0 for b in LOWER)
                total += c["multiplier"] * (upper + ty.upper_bonus(upper) + lower)
                assert c["multiplier"] == (c["column"], ty.UPGRADE[c["column"]])[c["upgraded"]]
            assert card["total"] == total == ty.scores(new)[p]
        state = new
    assert all(state["cards"][p]["filled"] == 48 for p in players)
