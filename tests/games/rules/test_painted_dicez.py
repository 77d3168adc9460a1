"""Painted DiceZ engine: face and colour boxes, both bonuses, the 20-turn card and the turn mechanics."""

from __future__ import annotations

import json
import random

import pytest

from games import rules
from games.rules import IllegalAction
from games.rules import painted_dicez as pd

COLOURS = {"B": "blue", "R": "red", "P": "pink", "G": "green", "Y": "yellow"}
BOXES = ["ones", "twos", "threes", "fours", "fives", "sixes", "blues", "reds", "pinks", "greens", "yellows"]
BOXES += ["four_of_a_kind", "four_of_a_color", "full_house", "painted_house", "straight", "rainbow"]
BOXES += ["flush", "dicez", "chance"]


def paint(text):
    """Dice in the sheet's notation: "B5 R3 ..." is a blue 5, a red 3, ...; a bare face is given
    the colours blue, red, pink, green, yellow in turn."""
    dice = []
    for n, die in enumerate(text.split()):
        if die[0].isdigit():
            dice.append([int(die), list(COLOURS.values())[n % 5]])
        else:
            dice.append([int(die[1:]), COLOURS[die[0]]])
    return dice


def roll(state, dice, text, hold=(), player=None):
    dice.push(paint(text))
    return pd.apply(state, player or state["current"], {"type": "roll", "hold": list(hold)}, dice)


def put(state, dice, box, player=None):
    return pd.apply(state, player or state["current"], {"type": "score", "box": box}, dice)


def turn(state, dice, text, box):
    return put(roll(state, dice, text), dice, box)


# --- box values ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "text", "value"),
    [
        # The sheet's own examples (two of its printed sums are wrong; the rulings' definitions win).
        ("ones", "1 3 4 1 6", 2),
        ("twos", "2 5 3 2 2", 6),
        ("threes", "2 5 3 2 6", 3),
        ("fours", "4 4 6 5 4", 12),
        ("fives", "4 4 6 5 4", 5),
        ("sixes", "6 4 6 5 4", 12),
        ("blues", "B5 B4 B6 R3 P4", 15),
        ("reds", "R2 G4 B6 R6 P3", 8),
        ("pinks", "G2 P3 P6 R4 P4", 13),
        ("greens", "B5 G4 G6 R4 G6", 16),  # the sheet prints 14, a slip: 4 + 6 + 6
        ("yellows", "Y3 Y4 B3 Y3 Y5", 15),
        ("four_of_a_kind", "4 4 4 3 4", 19),
        ("four_of_a_color", "B4 B2 B6 R3 B3", 18),  # the sheet prints 17; all five dice add to 18
        ("full_house", "5 5 5 6 6", 25),
        ("painted_house", "G5 G5 G5 Y6 Y6", 25),
        ("straight", "6 5 4 3 2", 40),
        ("rainbow", "G6 R5 B4 P3 Y2", 40),
        ("flush", "G6 G5 G4 G3 G2", 50),
        ("dicez", "1 1 1 1 1", 50),
        ("chance", "6 4 3 2 5", 20),
        # Edges.
        ("ones", "2 3 4 5 6", 0),
        ("blues", "R6 R6 R6 R6 R6", 0),
        ("yellows", "Y6 Y6 Y6 Y6 Y6", 30),
        ("four_of_a_kind", "3 3 3 3 3", 15),
        ("four_of_a_kind", "3 3 3 2 2", 0),
        ("four_of_a_color", "P1 P2 P3 P4 P5", 15),
        ("four_of_a_color", "P1 P2 P3 R4 R5", 0),
        ("full_house", "2 2 2 2 2", 0),  # five of a kind is not a full house
        ("full_house", "2 2 2 2 3", 0),
        ("full_house", "B2 B2 B2 B3 B3", 25),  # colours do not matter
        ("painted_house", "G1 G2 G3 Y4 Y5", 25),  # faces do not matter
        ("painted_house", "G5 G5 G5 G6 G6", 0),  # five of one colour is not a painted house
        ("painted_house", "G5 G5 G5 G6 Y6", 0),
        ("painted_house", "G5 G5 G5 R6 Y6", 0),
        ("straight", "1 2 3 4 5", 40),
        ("straight", "1 2 3 4 6", 0),
        ("straight", "4 4 4 4 4", 0),
        ("rainbow", "G1 R1 B1 P1 Y1", 40),
        ("rainbow", "G6 R5 B4 P3 P2", 0),
        ("flush", "G6 G5 G4 G3 Y2", 0),
        ("flush", "Y6 Y6 Y6 Y6 Y6", 50),
        ("dicez", "R6 B6 P6 G6 Y6", 50),
        ("dicez", "6 6 6 6 5", 0),
        ("chance", "1 1 1 1 1", 5),
    ],
)
def test_box_values(box, text, value):
    assert pd.score(box, paint(text)) == value


def test_score_takes_tuples_too():
    assert pd.score("blues", [(5, "blue"), (4, "blue"), (6, "red"), (1, "pink"), (1, "green")]) == 9


def test_score_of_an_unknown_box_is_refused():
    with pytest.raises(IllegalAction):
        pd.score("yahtzee", paint("1 2 3 4 5"))


def test_module_exposes_the_contract():
    assert rules.get("painted-dicez") is pd
    assert (pd.slug, pd.name, pd.min_players, pd.max_players) == ("painted-dicez", "Painted DiceZ", 1, 6)


# --- bonuses and totals -------------------------------------------------------------------------------


@pytest.mark.parametrize(("ones", "bonus"), [("1 1 1 2 3", 35), ("1 1 2 3 4", 0)])
def test_upper_bonus_at_63(dice, ones, bonus):
    state = turn(pd.new_game(["ann"]), dice, ones, "ones")
    for face, box in enumerate(BOXES[1:6], start=2):
        state = turn(state, dice, f"{face} {face} {face} 1 1", box)
    card = state["cards"]["ann"]
    assert (card["upper_subtotal"], card["upper_bonus"]) == (63 if bonus else 62, bonus)
    assert card["total"] == card["upper_subtotal"] + bonus
    assert pd.scores(state) == {"ann": card["total"]}


@pytest.mark.parametrize(("pinks", "bonus"), [("P3 R1 R1 R1 R1", 35), ("P2 R1 R1 R1 R1", 0)])
def test_colour_bonus_at_63(dice, pinks, bonus):
    state = pd.new_game(["ann"])
    state = turn(state, dice, "B6 B6 B6 B6 B6", "blues")
    state = turn(state, dice, "R6 R6 R6 R6 R6", "reds")
    state = turn(state, dice, pinks, "pinks")
    card = state["cards"]["ann"]
    assert (card["color_subtotal"], card["color_bonus"]) == (63 if bonus else 62, bonus)
    assert card["upper_bonus"] == 0
    assert pd.scores(state) == {"ann": card["color_subtotal"] + bonus}


def test_both_bonuses_and_the_lower_section_add_up(dice):
    state = pd.new_game(["ann"])
    for face, box in enumerate(BOXES[:6], start=1):
        state = turn(state, dice, f"{face} {face} {face} {face} 1", box)
    for colour, box in zip("BRPGY", BOXES[6:11], strict=True):
        state = turn(state, dice, " ".join(f"{colour}5" for _ in range(3)) + " R1 R1", box)
    state = turn(state, dice, "G6 G6 G6 G6 G6", "dicez")
    card = state["cards"]["ann"]
    # Upper: 4 x (1+...+6) minus the four 1s that are not ones, plus ones 5 = 84 + 1.
    assert card["upper_subtotal"] == 4 * 21 + 1 and card["upper_bonus"] == 35
    # Colours: 15 in each box, but the reds box also has its two red 1s.
    assert card["color_subtotal"] == 5 * 15 + 2 and card["color_bonus"] == 35
    assert card["lower_subtotal"] == 50
    assert card["total"] == 85 + 35 + 77 + 35 + 50


# --- a whole game -------------------------------------------------------------------------------------


def test_a_solo_game_ends_after_exactly_20_turns(dice):
    state = pd.new_game(["ann"])
    for n, box in enumerate(BOXES):
        assert not pd.is_over(state) and state["turn"] == n
        state = turn(state, dice, "R1 B2 P3 G4 Y6", box)
    assert pd.is_over(state) and pd.current_player(state) is None
    card = state["cards"]["ann"]
    assert card["complete"] and card["filled"] == 20
    # 1+2+3+4+6 upper, the five colour boxes the same, rainbow 40, chance 16.
    assert pd.scores(state) == {"ann": 16 + 16 + 40 + 16}
    assert pd.winners(state) == ["ann"]
    assert pd.legal_actions(state) == [] and pd.preview(state) == {"boxes": []}


def test_winners_share_a_tie(dice):
    state = pd.new_game(["ann", "bob", "cat"])
    for box in BOXES:
        for text in ("R1 B2 P3 G4 Y6", "R1 B2 P3 G4 Y6", "R1 R2 R3 R4 R6"):
            assert pd.winners(state) == []
            state = turn(state, dice, text, box)
    totals = pd.scores(state)
    assert totals["ann"] == totals["bob"] != totals["cat"]
    expected = ["ann", "bob"] if totals["ann"] > totals["cat"] else ["cat"]
    assert pd.winners(state) == expected


# --- dice, turns, illegal actions ---------------------------------------------------------------------


def test_dice_are_stored_as_lists_and_held_dice_keep_their_colour(dice):
    state = pd.new_game(["ann"])
    dice.push([(5, "blue"), (5, "red"), (2, "pink"), (3, "green"), (5, "yellow")])
    state = pd.apply(state, "ann", {"type": "roll", "hold": []}, dice)
    assert state["dice"] == [[5, "blue"], [5, "red"], [2, "pink"], [3, "green"], [5, "yellow"]]
    state = roll(state, dice, "G5 G5", hold=[0, 1, 4])
    assert state["dice"] == [[5, "blue"], [5, "red"], [5, "green"], [5, "green"], [5, "yellow"]]
    assert dice.calls == [5, 2]
    assert json.loads(json.dumps(state)) == state
    state = put(state, dice, "dicez")
    assert state["last_event"]["five_of_a_kind"] is True and state["last_event"]["column"] is None
    assert state["last_event"]["dice"][4] == [5, "yellow"]


@pytest.mark.parametrize(
    "action",
    [
        {"type": "score", "box": "chance", "column": 1},
        {"type": "score", "box": "chance", "column": None},
        {"type": "score", "box": "ones_", "column": None},
        {"type": "score", "box": "full_house_", "column": 1},
        {"type": "score", "box": "quintzee"},
        {"type": "score", "box": "colour"},
        {"type": "score"},
        {"type": "roll", "hold": [0, 0]},
        {"type": "roll", "hold": [-1]},
        {"type": "roll", "hold": [7]},
        {"type": "roll", "hold": ["a"]},
        {"type": "roll", "hold": [True]},
        {"type": "roll", "hold": [0, 1, 2, 3, 4]},
        {"type": "skip", "box": "ones"},
        "score",
        None,
    ],
)
def test_malformed_actions_are_refused(dice, action):
    state = roll(pd.new_game(["ann", "bob"]), dice, "1 2 3 4 5")
    with pytest.raises(IllegalAction):
        pd.apply(state, "ann", action, dice)


def test_box_already_filled_and_other_turn_checks(dice):
    state = pd.new_game(["ann", "bob"])
    with pytest.raises(IllegalAction, match="Roll the dice first"):
        put(state, dice, "chance")
    with pytest.raises(IllegalAction, match="It is not your turn"):
        pd.apply(state, "bob", {"type": "roll", "hold": []}, dice)
    state = turn(state, dice, "1 2 3 4 5", "chance")
    state = turn(state, dice, "1 2 3 4 5", "chance")
    state = roll(state, dice, "6 6 6 6 6")
    with pytest.raises(IllegalAction, match="Chance is already filled"):
        put(state, dice, "chance")
    state = roll(roll(state, dice, "6", hold=[0, 1, 2, 3]), dice, "6", hold=[0, 1, 2, 3])
    with pytest.raises(IllegalAction, match="You have used all three rolls; choose a box"):
        pd.apply(state, "ann", {"type": "roll", "hold": [0]}, dice)


def test_skip_and_resign(dice):
    state = pd.new_game(["ann", "bob", "cat"])
    state = turn(state, dice, "1 1 1 2 2", "ones")
    state = roll(state, dice, "6 6 6 6 6")
    state = pd.apply(state, "ann", {"type": "skip"}, dice)  # bob is away
    assert state["cards"]["bob"]["boxes"]["ones"] == 0
    assert pd.current_player(state) == "cat" and state["dice"] == []
    state = pd.apply(state, "ann", {"type": "skip"}, dice)
    assert state["cards"]["cat"]["boxes"]["ones"] == 0
    state = pd.apply(state, "bob", {"type": "skip"}, dice)
    assert state["cards"]["ann"]["boxes"]["twos"] == 0
    assert [v for v in state["cards"]["ann"]["boxes"].values() if v is not None] == [3, 0]
    state = pd.apply(state, "cat", {"type": "resign"}, dice)
    assert pd.current_player(state) == "bob"
    state = pd.apply(state, "bob", {"type": "resign"}, dice)
    # Only ann is left of three: the game ends at once and she wins with her card as it stands.
    assert pd.is_over(state) and pd.current_player(state) is None
    assert pd.winners(state) == ["ann"]
    assert pd.scores(state) == {"ann": 3, "bob": 0, "cat": 0}
    with pytest.raises(IllegalAction, match="The game is over"):
        pd.apply(state, "ann", {"type": "roll", "hold": []}, dice)


# --- legal_actions, preview, purity -------------------------------------------------------------------


def test_legal_actions_and_preview(dice):
    state = pd.new_game(["ann"])
    assert pd.legal_actions(state) == [{"type": "roll", "hold": []}]
    state = turn(state, dice, "1 2 3 4 5", "straight")
    state = roll(state, dice, "G5 G5 G5 Y6 Y6")
    legal = pd.legal_actions(state)
    assert sum(a["type"] == "roll" for a in legal) == 31
    scores = [a for a in legal if a["type"] == "score"]
    assert len(scores) == 19 and all(set(a) == {"type", "box"} for a in scores)
    for box in BOXES:
        action = {"type": "score", "box": box}
        if action in legal:
            pd.apply(state, "ann", action, dice)
        else:
            with pytest.raises(IllegalAction):
                pd.apply(state, "ann", action, dice)
    entries = {e["box"]: e for e in pd.preview(state)["boxes"]}
    assert "straight" not in entries
    assert entries["painted_house"] == {"box": "painted_house", "column": None, "value": 25, "lands": None}
    assert entries["full_house"]["value"] == 25 and entries["greens"]["value"] == 15
    assert entries["four_of_a_color"]["value"] == 0


@pytest.mark.parametrize("seed", range(5))
def test_random_games_keep_the_contract(seed):
    rng = random.Random(seed)
    players = ["ann", "bob", "cat", "dan"][: 1 + seed % 4]
    state = pd.new_game(players)

    def source(n):
        return [(rng.randint(1, 6), rng.choice(list(COLOURS.values()))) for _ in range(n)]

    while not pd.is_over(state):
        action = rng.choice(pd.legal_actions(state))
        before = json.dumps(state, sort_keys=True)
        new = pd.apply(state, pd.current_player(state), action, source)
        assert json.dumps(state, sort_keys=True) == before
        assert json.loads(json.dumps(new)) == new
        for p, card in new["cards"].items():
            values = [v or 0 for v in card["boxes"].values()]
            upper, colours = sum(values[:6]), sum(values[6:11])
            bonus = (35 if upper >= 63 else 0) + (35 if colours >= 63 else 0)
            assert card["total"] == sum(values) + bonus == pd.scores(new)[p]
        state = new
    assert state["turn"] == 20 * len(players)
