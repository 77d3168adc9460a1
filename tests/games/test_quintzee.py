"""Quintzee (games/rules/quintzee.py), the fifth game: one column of Triple Quintzee's boxes by the official
rules as Verhoeff solved them (docs/rules-engines.md, "Quintzee"), with its optimal expert and its card
players (games/bots/quintzee_expert.py) held to the computer players' contract."""

from __future__ import annotations

import copy
import json
import random

import pytest

from games import bots, rules
from games.bots import cards
from games.bots import quintzee_expert as qe
from games.bots import quintzee_optimum as qo
from games.declaration import declaration
from games.rules import quintzee as q
from games.rules.dice import make_dice
from tests.games.test_bots_contract import reachable

PLAYERS = (*bots.STRENGTHS, "random")


def scripted(*rolls):
    queue = [list(r) for r in rolls]

    def dice(n: int) -> list:
        roll = queue.pop(0)
        assert len(roll) == n
        return roll

    return dice


def turn(state: dict, faces: list[int], box: str) -> dict:
    """One turn: roll ``faces`` and score them in ``box``."""
    player = state["current"]
    state = q.apply(state, player, {"type": "roll", "hold": []}, scripted(faces))
    return q.apply(state, player, {"type": "score", "box": box}, scripted())


def card_with(filled: dict[str, int]) -> dict:
    """A one-player game whose card holds ``filled`` (written as the engine writes a score)."""
    state = q.new_game(["ann"])
    for box, value in filled.items():
        q.RULES.write(state["cards"]["ann"], q.Placement(box, None, None, value), None)
    return state


@pytest.mark.parametrize(
    ("box", "faces", "plain", "joker"),
    [
        ("full_house", [4, 4, 4, 4, 4], 0, 25),
        ("full_house", [2, 2, 5, 5, 5], 25, 25),
        ("small_straight", [6, 6, 6, 6, 6], 0, 30),
        ("large_straight", [1, 1, 1, 1, 1], 0, 40),
        ("three_of_a_kind", [3, 3, 3, 3, 3], 15, 15),
        ("twos", [3, 3, 3, 3, 3], 0, 0),
        ("quintzee", [5, 5, 5, 5, 5], 50, 50),
    ],
)
def test_box_values_plain_and_as_a_joker(box, faces, plain, joker):
    assert q.score(box, faces) == plain
    assert q.joker_score(box, faces) == joker


def test_a_further_quintzee_after_a_50_earns_100_wherever_it_goes():
    state = turn(q.new_game(["ann"]), [6, 6, 6, 6, 6], "quintzee")
    # Its Sixes box is open: no Joker, a Full House of 0, but the bonus all the same.
    state = turn(state, [6, 6, 6, 6, 6], "full_house")
    card = state["cards"]["ann"]
    assert card["boxes"]["full_house"] == 0 and card["quintzee_bonus"] == 100 and card["total"] == 150
    assert state["last_event"]["bonus"] == 100
    # Now Sixes is filled: a Joker, 40 in Large Straight, and 100 more.
    state = turn(state, [6, 6, 6, 6, 1], "sixes")
    state = turn(state, [6, 6, 6, 6, 6], "large_straight")
    card = state["cards"]["ann"]
    assert card["boxes"]["large_straight"] == 40 and card["quintzee_bonus"] == 200
    assert card["total"] == 50 + 0 + 24 + 40 + 200


def test_a_scratched_quintzee_box_still_makes_jokers_but_no_bonus():
    state = card_with({"quintzee": 0, "twos": 6})
    state = turn(state, [2, 2, 2, 2, 2], "small_straight")
    card = state["cards"]["ann"]
    assert card["boxes"]["small_straight"] == 30 and card["quintzee_bonus"] == 0


def test_the_upper_bonus_counts_at_63():
    state = card_with({"sixes": 24, "fives": 20, "fours": 12})
    assert state["cards"]["ann"]["top_bonus"] == 0
    state = turn(state, [3, 3, 1, 2, 5], "threes")
    card = state["cards"]["ann"]
    assert card["top_subtotal"] == 62 and card["top_bonus"] == 0
    state = turn(state, [1, 2, 4, 4, 6], "ones")
    assert state["cards"]["ann"]["top_bonus"] == 35 and state["cards"]["ann"]["total"] == 63 + 35


def test_a_filled_box_is_refused_and_a_game_ends_after_13_turns():
    state = turn(q.new_game(["ann"]), [1, 2, 3, 4, 5], "large_straight")
    with pytest.raises(rules.IllegalAction, match="already filled"):
        turn(state, [1, 2, 3, 4, 5], "large_straight")
    rng = random.Random(3)
    dice = make_dice(rng)
    while not q.is_over(state):
        action = rng.choice(q.legal_actions(state))
        before = copy.deepcopy(state)
        after = q.apply(state, "ann", action, dice)
        assert state == before
        assert json.loads(json.dumps(after)) == after
        state = after
    card = state["cards"]["ann"]
    assert card["complete"] and card["filled"] == 13 and q.winners(state) == ["ann"]


def test_legal_actions_offer_the_joker_values():
    state = card_with({"quintzee": 50, "fours": 16})
    state = q.apply(state, "ann", {"type": "roll", "hold": []}, scripted([4, 4, 4, 4, 4]))
    values = {b["box"]: b["value"] for b in q.preview(state)["boxes"]}
    assert values["full_house"] == 25 and values["large_straight"] == 40 and values["chance"] == 20


def test_the_game_is_one_declaration():
    d = declaration(q.slug)
    assert d.players is bots.players(q.slug)
    assert type(d.players).__module__ == "games.bots.quintzee_expert"
    state = card_with({"quintzee": 50, "fours": 16})
    state = q.apply(state, "ann", {"type": "roll", "hold": []}, scripted([4, 4, 4, 4, 4]))
    said = d.words(state, {"type": "score", "box": "full_house"})
    assert said["params"]["gain"] == 125


def test_the_expert_values_a_fresh_game_at_the_optimum():
    state = q.new_game(["ann"])
    best = bots.best(q.slug, state)
    assert best.action == {"type": "roll", "hold": []}
    assert round(best.value, 3) == round(qo.START_VALUE, 3)
    assert bots.turn_worth(q.slug) == pytest.approx(254.5896 / 13)


def test_the_expert_takes_a_quintzee_and_keeps_what_the_optimum_keeps():
    state = q.apply(q.new_game(["ann"]), "ann", {"type": "roll", "hold": []}, scripted([6, 6, 6, 6, 6]))
    assert bots.best(q.slug, state).action == {"type": "score", "box": "quintzee"}
    state = q.apply(q.new_game(["ann"]), "ann", {"type": "roll", "hold": []}, scripted([1, 5, 5, 5, 2]))
    assert bots.best(q.slug, state).action == {"type": "roll", "hold": [1, 2, 3]}


@pytest.mark.parametrize("seed", range(12))
def test_every_strength_plays_legally_and_nothing_beats_the_best(seed):
    state = reachable(q.slug, seed, 3 + seed * 7)
    if state["over"]:
        return
    legal = q.legal_actions(state)
    best = bots.best(q.slug, state)
    assert best.action in legal
    assert abs(bots.value(q.slug, state, best.action) - best.value) <= 1e-9
    for action in legal:
        assert bots.value(q.slug, state, action) <= best.value + 1e-9
    for strength in PLAYERS:
        action = bots.choose(q.slug, state, strength, random.Random(seed))
        assert action in legal
        assert bots.choose(q.slug, state, strength, random.Random(seed)) == action
    assert bots.decision(q.slug, state) == (len(legal) > 1)


def test_solo_games_through_the_engine_add_up():
    totals = []
    for seed in range(6):
        state = q.new_game(["solo"])
        dice, rng = make_dice(random.Random(seed)), random.Random(seed)
        while not state["over"]:
            state = q.apply(state, "solo", bots.choose(q.slug, state, "expert", rng), dice)
        card = state["cards"]["solo"]
        assert card["total"] == sum(card["boxes"].values()) + card["top_bonus"] + card["quintzee_bonus"]
        totals.append(card["total"])
    assert min(totals) > 100


# --- the card players on Quintzee's evaluation: the site's easy and good, and the heuristic expert ----


def test_the_evaluations_box_values_are_the_engines_and_flag_a_five_of_a_kinds_face():
    rows = qo.dice().u.rows[5]
    arrays = qe.box_arrays(rows)
    for row, sides in enumerate(rows.tolist()):
        faces = [s + 1 for s in sides]
        for box in q.BOXES:
            values, flags = arrays[box]
            assert values[row] == q.score(box, faces)
            assert flags[row] == qe.flag(box, faces) == (faces[0] if len(set(faces)) == 1 else 0)


def points_now(state: dict, action: dict) -> float:
    """What the site's good player counts a placement worth: cards.Turn on Quintzee's evaluation."""
    return cards._turn(qe.HEURISTIC.game, state, False).value(state, action)


def gained(state: dict, action: dict) -> int:
    player = state["current"]
    return q.apply(state, player, action, scripted())["cards"][player]["total"] - q.scores(state)[player]


@pytest.mark.parametrize(
    ("filled", "faces"),
    [
        ({"quintzee": 50, "fours": 16}, [4, 4, 4, 4, 4]),  # a Joker, and the bonus
        ({"quintzee": 50}, [4, 4, 4, 4, 4]),  # its Fours open: no Joker, the bonus all the same
        ({"quintzee": 0, "twos": 6}, [2, 2, 2, 2, 2]),  # a Joker without a bonus
        ({"sixes": 24, "fives": 20, "fours": 12, "threes": 6}, [1, 1, 1, 3, 3]),  # the top bonus reached
        ({"sixes": 24, "fives": 20, "fours": 12, "threes": 6}, [2, 3, 4, 5, 5]),
    ],
)
def test_the_good_player_counts_every_placement_at_what_the_engine_adds(filled, faces):
    state = q.apply(card_with(filled), "ann", {"type": "roll", "hold": []}, scripted(faces))
    for action in q.legal_actions(state):
        if action["type"] == "score":
            assert points_now(state, action) == gained(state, action), action


@pytest.mark.parametrize("seed", range(8))
def test_the_good_player_counts_placements_right_in_played_games(seed):
    state = reachable(q.slug, seed, 10 + seed * 9)
    if state["over"] or state["roll"] == 0:
        return
    for action in q.legal_actions(state):
        if action["type"] == "score":
            assert points_now(state, action) == gained(state, action), action


def test_the_good_player_takes_a_joker_full_house_and_the_heuristic_expert_plays_legally():
    state = card_with({"quintzee": 50, "fours": 16, "large_straight": 40, "small_straight": 30, "chance": 22})
    state = q.apply(state, "ann", {"type": "roll", "hold": []}, scripted([4, 4, 4, 4, 4]))
    state["roll"] = 3  # no re-roll left: the box that adds most now
    assert bots.choose(q.slug, state, "good", random.Random(0)) == {"type": "score", "box": "full_house"}
    assert qe.HEURISTIC.choose(state, "expert", random.Random(0)) in q.legal_actions(state)
