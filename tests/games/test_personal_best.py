"""A finished game's personal bests (games.results.highscores.personal_bests), as the snapshot's seats
say them for the game page's end panel: on the game's own all-time list, better
than every earlier result of the player, never a first result."""

from __future__ import annotations

import pytest

from games.live.selectors import game_snapshot, seat_list
from games.results.highscores import personal_bests
from games.tables import services
from tests.games.test_stats import act, farkle_game, farkle_solo, painted_solo

pytestmark = pytest.mark.django_db


FARKLE = [([2, 2, 3, 3, 4, 6], {"type": "roll", "keep": []})]  # a Farkle: the lap is lost
GOAL = [
    ([1, 1, 1, 1, 1, 2], {"type": "roll", "keep": []}),
    (None, {"type": "bank", "keep": [0, 1, 2, 3, 4]}),  # 10000: past the goal of 3000
]


def test_a_first_result_is_nobodys_best_and_a_better_one_is(ann, scripted_dice):
    slow = farkle_solo(ann, FARKLE + GOAL, scripted_dice)  # 2 laps
    assert personal_bests(slow) == set()
    fast = farkle_solo(ann, GOAL, scripted_dice)  # 1 lap: fewer is better
    assert personal_bests(fast) == {"ann"}
    level = farkle_solo(ann, GOAL, scripted_dice)  # as good as the best, not better
    assert personal_bests(level) == set()
    worse = farkle_solo(ann, FARKLE + FARKLE + GOAL, scripted_dice)
    assert personal_bests(worse) == set()
    # Said as it was when the game ended: a later, better game takes nothing away.
    assert personal_bests(fast) == {"ann"}
    assert [s["best"] for s in seat_list(fast)] == [True]
    assert [s["best"] for s in game_snapshot(fast, ann)["seats"]] == [True]


def test_each_goal_and_each_game_is_its_own_list(ann, scripted_dice):
    farkle_solo(ann, FARKLE + GOAL, scripted_dice)
    painted = painted_solo(ann, [[1, "blue"]] * 5, scripted_dice)
    assert personal_bests(painted) == set()  # the first Painted DiceZ result
    ten = services.game_create(creator=ann, kind="farkle", options={"goal": 10000}, seats=1)
    for roll, action in GOAL:
        if roll:
            scripted_dice(roll)
        act(ten, ann, action)
    ten.refresh_from_db()
    assert personal_bests(ten) == set()  # the first to 10000, faster than any to 3000


def test_a_table_of_several_names_each_players_best(ann, bob, scripted_dice):
    farkle_solo(ann, FARKLE + FARKLE + GOAL, scripted_dice)  # ann: 3 laps before
    game = farkle_game(ann, bob, scripted_dice)  # ann wins in 2 laps; bob does not win
    assert personal_bests(game) == {"ann"}
    assert {s["user"]: s["best"] for s in seat_list(game)} == {"ann": True, "bob": False}
