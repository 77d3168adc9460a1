"""`make run`'s console: the worker prints the e-mails it sends (the console e-mail
backend) and, by default, none of django-tasks' lines for every task it runs (a sweep's pair every few
seconds buried the e-mails); -v 2 brings those lines back. The real worker command, in its own process,
on the test database."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games.models import Game
from games.tables import services
from notices.models import TurnMail
from tests.notices.test_turn_mail import at_table, end_turn

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)


def run_worker(server_env, *args: str) -> str:
    env = {**server_env, "EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    done = subprocess.run(
        [sys.executable, "manage.py", "worker", "--batch", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout + done.stderr


def due_mail(make_user, first: str, second: str) -> None:
    """A turn e-mail due now: `first` ended the turn and `second`, away, is to play."""
    one = make_user(first, email=f"{first}@example.com")
    two = make_user(second, email=f"{second}@example.com")
    game = services.game_create(
        creator=one, kind="triple-quintzee", seats=2, pace="days", absence_limit=86_400
    )
    services.game_join(game_id=game.pk, user=two)
    services.game_start(game_id=game.pk, user=one)
    game = Game.objects.get(pk=game.pk)
    at_table(game, one)
    end_turn(game, one)
    TurnMail.objects.filter(user=two).update(due_at=timezone.now() - timedelta(minutes=1))


def test_the_worker_prints_the_mail_and_not_its_tasks_by_default(make_user, server_env):
    due_mail(make_user, "ann", "bob")
    out = run_worker(server_env)
    assert "To: bob@example.com" in out and "Subject: Your turn in Triple Quintzee" in out, out
    assert "state=RUNNING" not in out and "state=SUCCESSFUL" not in out, out
    assert "Starting worker" not in out, out

    # Asked for, every task is logged again.
    due_mail(make_user, "cy", "dee")
    out = run_worker(server_env, "-v", "2")
    assert "To: dee@example.com" in out, out
    assert "path=notices.tasks.send_due_turn_mails state=SUCCESSFUL" in out, out
