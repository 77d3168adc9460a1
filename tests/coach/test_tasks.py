"""The worker's coach tasks: a review per ended game, enqueued by the move that ends it, run once."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from coach import tasks
from coach.models import Review, SeatReview
from tests.coach.test_review import farkle_game

pytestmark = pytest.mark.django_db(transaction=True)


def worker():
    call_command("worker", batch=True, verbosity=0)


def review_runs():
    return DBTaskResult.objects.filter(task_path=tasks.review_game.module_path)


def test_the_move_that_ends_a_game_enqueues_its_review(user, scripted_dice):
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    (run,) = review_runs()
    assert run.status == TaskResultStatus.READY and run.args_kwargs["kwargs"] == {"game_id": game.pk}
    assert not Review.objects.exists()  # the worker has not run yet
    worker()
    review = SeatReview.objects.get(seat__game=game)
    assert review.decision_count == 2 and review.total_cost == 50
    assert list(review_runs().values_list("status", flat=True)) == [TaskResultStatus.SUCCESSFUL]


def test_a_game_whose_review_was_not_enqueued_is_reviewed_when_the_worker_starts(user, scripted_dice):
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    review_runs().delete()  # ended before reviews were enqueued by the end of a game, or its task lost
    assert tasks.enqueue_missing_reviews() == 1
    assert tasks.enqueue_missing_reviews() == 0  # one already waits for this game
    worker()
    assert Review.objects.filter(game=game).count() == 1


def test_the_review_task_runs_once_per_game(user, scripted_dice):
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    assert tasks.enqueue_missing_reviews() == 0  # the game's end enqueued it
    worker()
    assert tasks.enqueue_missing_reviews() == 0  # reviewed: nothing left to enqueue
    worker()
    assert review_runs().count() == 1
    assert Review.objects.filter(game=game).count() == 1
    # A second task for the same game finds the review and writes nothing.
    assert tasks.review_game.call(game_id=game.pk) == "exists"
    assert SeatReview.objects.filter(seat__game=game).count() == 1
