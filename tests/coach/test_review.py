"""The coach's review of stored games: exact Farkle costs, the card games' properties, the accuracy."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from coach import judge, services
from coach.models import Review, SeatReview
from games import bots, rules
from games.bots.farkle_expert import turn_values
from games.models import Game
from tests.factories import UserFactory
from tests.games.test_replays import play_out
from tests.games.test_services import act, table

pytestmark = pytest.mark.django_db

CARD_GAMES = ["triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee"]


def farkle_game(user, scripted_dice, first_bank):
    """A solo Farkle game to 3000 with known dice: a bank of ``first_bank`` (indices of
    1 1 1 5 2 3), a Farkle, then five 1s banked for the goal."""
    scripted_dice([1, 1, 1, 5, 2, 3], [2, 2, 3, 4, 6, 6], [1, 1, 1, 1, 1, 2])
    game = table(user, options={"goal": 3000, "dice": 6})
    act(game, user, {"type": "roll", "keep": []})
    act(game, user, {"type": "bank", "keep": first_bank})
    act(game, user, {"type": "roll", "keep": []})  # the Farkle: the turn passes with nothing
    act(game, user, {"type": "roll", "keep": []})
    act(game, user, {"type": "bank", "keep": [0, 1, 2, 3, 4]})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_a_scripted_farkle_game_is_reviewed_with_exact_costs(user, scripted_dice):
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    assert services.review_game(game_id=game.pk) == "reviewed"
    review = SeatReview.objects.get(seat__game=game)
    first, last = review.decisions
    values = turn_values(6)
    best = values.choose(0, [1, 1, 1, 5, 2, 3])
    assert first["seq"] == 2 and first["value"] == 1000
    assert first["expert_value"] == pytest.approx(best["expected"], abs=1e-3)
    assert first["cost"] == pytest.approx(best["expected"] - 1000, abs=1e-3)
    # With 1050 set aside and two dice left, rolling on is worth less than banking: the 5 was 50 points.
    assert first["cost"] == 50
    assert first["expert"] == {"type": "bank", "keep": [0, 1, 2, 3]}
    assert first["text"] == "set aside 1 1 1 and bank 1000"
    assert first["expert_text"] == "set aside 1 1 1 5 and bank 1050"
    # Five 1s banked for 10000: nothing beats it.
    assert (last["seq"], last["cost"], last["accuracy"]) == (5, 0, 100)
    assert last["text"] == "set aside 1 1 1 1 1 and bank 10000"
    assert review.decision_count == 2
    assert review.best_count == 1  # the last bank cost nothing
    assert review.total_cost == pytest.approx(first["cost"], abs=1e-3)
    worth = judge.turn_worth("farkle", {"dice": 6})
    expected = (judge.decision_accuracy(first["cost"], worth) + 100) / 2
    assert review.accuracy == pytest.approx(expected, abs=0.01)


def test_the_experts_own_choice_costs_nothing(user, scripted_dice):
    assert turn_values(6).choose(0, [1, 1, 1, 5, 2, 3])["action"] == {"type": "bank", "keep": [0, 1, 2, 3]}
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2, 3])
    services.review_game(game_id=game.pk)
    review = SeatReview.objects.get(seat__game=game)
    assert [d["cost"] for d in review.decisions] == [0, 0]
    assert review.total_cost == 0
    assert review.accuracy == 100


def test_the_review_is_written_once(user, scripted_dice):
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    assert services.review_game(game_id=game.pk) == "reviewed"
    assert services.review_game(game_id=game.pk) == "exists"
    assert Review.objects.filter(game=game).count() == 1
    assert SeatReview.objects.filter(seat__game=game).count() == 1


def test_a_game_being_played_is_not_reviewed(user):
    game = table(user, options={"goal": 3000, "dice": 6})
    assert services.review_game(game_id=game.pk) == "not_ended"
    assert not Review.objects.exists()


def expert_choice(state):
    return bots.best(state["slug"], state).action


def worst_choice_once(rng):
    """The expert's play except one decision, the one with the largest cost at the first chance."""
    done = []

    def choose(state):
        slug = state["slug"]
        if not done and bots.decision(slug, state):
            actions = rules.get(slug).legal_actions(state)
            worst = min(actions, key=lambda a: bots.value(slug, state, a))
            if bots.best(slug, state).value - bots.value(slug, state, worst) > 0:
                done.append(worst)
                return worst
        return expert_choice(state)

    return choose


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_a_card_game_played_by_the_expert_has_accuracy_100(slug, make_user):
    player = make_user(f"expert-{slug}")
    game = play_out(table(player, kind=slug), [player], expert_choice)
    services.review_game(game_id=game.pk)
    review = SeatReview.objects.get(seat__game=game)
    assert review.decision_count > 0
    assert review.total_cost == 0
    assert review.accuracy == 100


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_one_bad_card_decision_costs_and_lowers_accuracy(slug, make_user):
    player = make_user(f"blunder-{slug}")
    game = play_out(table(player, kind=slug), [player], worst_choice_once(random.Random(3)))
    services.review_game(game_id=game.pk)
    review = SeatReview.objects.get(seat__game=game)
    costly = [d for d in review.decisions if d["cost"] > 0]
    assert len(costly) >= 1
    assert all(d["cost"] >= 0 for d in review.decisions)
    assert review.total_cost > 0
    assert review.accuracy < 100
    assert costly[0]["accuracy"] < 100
    assert costly[0]["expert_text"] and costly[0]["text"] != costly[0]["expert_text"]


def test_computer_seats_are_not_reviewed(make_user, scripted_dice):
    person, computer = make_user("person"), make_user("robot", computer="expert")
    scripted_dice([1, 1, 1, 1, 1, 2], [1, 1, 1, 1, 1, 2])
    game = table(person, computer, options={"goal": 3000, "dice": 6})
    for who in (person, computer):
        act(game, who, {"type": "roll", "keep": []})
        act(game, who, {"type": "bank", "keep": [0, 1, 2, 3, 4]})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    services.review_game(game_id=game.pk)
    assert [r.user for r in SeatReview.objects.filter(seat__game=game)] == [person]


def final_round_game(ann, bob, scripted_dice):
    """Farkle to 3000 of ann and bob: ann banks five 1s for the goal, and bob, in the final round, banks
    600 where only 3000 would win."""
    scripted_dice([1, 1, 1, 1, 1, 2], [1, 5, 5, 5, 2, 3])
    game = table(ann, bob, options={"goal": 3000, "dice": 6})
    act(game, ann, {"type": "roll", "keep": []})
    act(game, ann, {"type": "bank", "keep": [0, 1, 2, 3, 4]})
    act(game, bob, {"type": "roll", "keep": []})
    act(game, bob, {"type": "bank", "keep": [0, 1, 2, 3]})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_a_final_round_decision_is_weighed_by_the_chance_of_winning(ann, bob, scripted_dice):
    game = final_round_game(ann, bob, scripted_dice)
    assert services.review_game(game_id=game.pk) == "reviewed"
    ann_review = SeatReview.objects.get(seat__game=game, user=ann)
    bob_review = SeatReview.objects.get(seat__game=game, user=bob)
    assert [d["measure"] for d in ann_review.decisions] == ["points"]
    (bank,) = bob_review.decisions
    assert bank["measure"] == "win"
    # Bob's bank of 600 cannot reach 3000: its chance is 0; the expert rolls on for a chance above 0.
    assert bank["value"] == 0 and bank["expert"]["type"] == "roll"
    assert 0 < bank["cost"] == bank["expert_value"] < 100
    assert bank["accuracy"] == pytest.approx(judge.win_accuracy(bank["cost"]), abs=0.01)
    # The points given away count the decisions weighed in points only.
    assert bob_review.total_cost == 0


def test_the_replay_counts_one_lap_in_the_singular(client, ann, bob, scripted_dice):
    from django.urls import reverse

    game = final_round_game(ann, bob, scripted_dice)
    client.force_login(bob)
    page = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert "(1 lap)" in page and "(1 laps)" not in page


@pytest.mark.django_db(transaction=True)
def test_the_migration_counts_the_best_decisions_of_reviews_written_before_it():
    executor = MigrationExecutor(connection)
    before = [("coach", "0002_seatreview_user_finished")]
    executor.migrate(before)
    # The other apps' tables are as they are now: only the review's row is written as it was then.
    user = UserFactory(username="ann")
    game = Game.objects.create(kind="farkle", status=Game.Status.FINISHED)
    seat = game.seats.create(user=user, position=0)
    review = Review.objects.create(game=game)
    old = executor.loader.project_state(before).apps.get_model("coach", "SeatReview")
    decisions = [{"cost": 0}, {"cost": 12.5}, {"cost": 0}]
    old.objects.create(
        review_id=review.pk,
        seat_id=seat.pk,
        user_id=user.pk,
        kind="farkle",
        decision_count=3,
        total_cost=12.5,
        decisions=decisions,
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # every app: going back took dependants with it
    assert SeatReview.objects.get(seat_id=seat.pk).best_count == 2
