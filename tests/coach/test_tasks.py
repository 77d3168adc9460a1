"""The worker's coach tasks: a review per ended game, once, even for games that ended while it was down."""

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


def test_a_game_that_ended_while_the_worker_was_down_is_reviewed_when_it_starts(user, scripted_dice):
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    assert not Review.objects.exists()  # no worker yet: nothing reviewed the game
    worker()
    review = SeatReview.objects.get(seat__game=game)
    assert review.decision_count == 2 and review.total_cost == 50
    assert list(review_runs().values_list("status", flat=True)) == [TaskResultStatus.SUCCESSFUL]


def test_the_review_task_runs_once_per_game(user, scripted_dice):
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    assert tasks.enqueue_missing_reviews() == 1
    assert tasks.enqueue_missing_reviews() == 0  # one already waits for this game
    worker()
    assert tasks.enqueue_missing_reviews() == 0  # reviewed: nothing left to enqueue
    worker()
    assert review_runs().count() == 1
    assert Review.objects.filter(game=game).count() == 1
    # A second task for the same game (two sweeps racing) finds the review and writes nothing.
    assert tasks.review_game.call(game_id=game.pk) == "exists"
    assert SeatReview.objects.filter(seat__game=game).count() == 1


def test_the_sweep_keeps_one_run_waiting_and_enqueues_the_reviews(user, scripted_dice):
    tasks.schedule_sweep()
    tasks.schedule_sweep()
    sweeps = DBTaskResult.objects.filter(task_path=tasks.sweep_reviews.module_path)
    assert sweeps.filter(status=TaskResultStatus.READY).count() == 1
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    assert tasks.sweep_reviews.call() == 1
    assert review_runs().filter(status=TaskResultStatus.READY).count() == 1
    worker()
    assert Review.objects.filter(game=game).exists()
