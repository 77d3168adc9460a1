"""A player cannot stall the worker with push endpoints: a real `manage.py worker` process (the command
`make run`, docker-compose and deploy run) on this test's database, a player with ten devices whose
push service accepts and never answers or drips a byte a second (a listener on 127.0.0.1, the test
settings' PUSH_TEST_SERVICE), four messages to them waiting, and then a computer to move: the computer
moves while the pushes are still stuck (their queue has its own thread), and every push gives up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games.models import Game
from games.tables import services
from notices import push
from notices.models import PushSubscription
from tests.push import listeners
from tests.push.browser_subscription import browser_keys
from tests.reliability.conftest import ARTIFACTS, ROOT, database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow_subprocess]
MESSAGES = 4
DEADLINE = 3  # PUSH_DEADLINE of the worker, seconds: four messages hold the push queue 12 s at least
WAIT = 90  # generous: the machine is shared; only bounds a wait for what must happen


def wait_for(condition, what: str, proc: subprocess.Popen, log) -> object:
    deadline = time.monotonic() + WAIT
    while True:
        value = condition()
        if value:
            return value
        if proc.poll() is not None:
            pytest.fail(f"the worker exited ({proc.returncode}) while waiting for {what}:\n{log.read_text()}")
        assert time.monotonic() < deadline, f"waited {WAIT} s for {what}:\n{log.read_text()[-3000:]}"
        time.sleep(0.1)


def pushes():
    return DBTaskResult.objects.filter(task_path=push.send_push.module_path)


def computer_actions(game: Game) -> int:
    return game.actions.exclude(seat__user__computer="").count()


def test_a_computer_moves_while_pushes_are_stuck_on_endpoints_that_never_answer(make_user, vapid_keys):
    service = listeners.Listener(listeners.routes(hole=listeners.black_hole, drip=listeners.drip(every=1.0)))
    log = ARTIFACTS / "push-stall-worker.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text("")
    proc = None
    try:
        bob = make_user("bob")
        for n in range(10):
            kind = "hole" if n % 2 else "drip"
            PushSubscription.objects.create(
                user=bob, endpoint=f"{service.origin}/{kind}/{n}", device="a browser", **browser_keys()
            )
        message = push.payload(title="Your turn", body="The others wait.", url="/", tag="t")
        for _ in range(MESSAGES):
            push.enqueue(bob, "turn", message)
        # Written after the pushes: on one queue it would wait for all of them.
        ann = make_user("ann")
        game = services.game_create(creator=ann, kind="farkle", seats=2, computers=1, strength="easy")

        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": database_url(),
            "PUSH_TEST_SERVICE": service.origin,
            "PUSH_DEADLINE": str(DEADLINE),
            "VAPID_PRIVATE_KEY": vapid_keys.private,
            "VAPID_PUBLIC_KEY": vapid_keys.public,
            "COMPUTER_PAUSE": "0",
            "COMPUTER_PAUSE_UNWATCHED": "0",
        }
        with log.open("a") as out:
            proc = subprocess.Popen(
                [sys.executable, "manage.py", "worker"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

        def person_to_move_or_computer_moved():
            state = Game.objects.get(pk=game.pk).state
            return computer_actions(game) > 0 or state["current"] == ann.username

        wait_for(person_to_move_or_computer_moved, "the game to start", proc, log)
        if computer_actions(game) == 0:
            from tests.computers.test_computer_moves import pass_turn

            pass_turn(Game.objects.get(pk=game.pk), ann)
        wait_for(lambda: computer_actions(game) > 0, "the computer's move", proc, log)
        # The moment the computer has moved, the pushes are not all done: they never held it.
        unfinished = pushes().exclude(status=TaskResultStatus.SUCCESSFUL).count()
        assert unfinished > 0
        assert service.connections > 0  # the pushes were under way, stuck on the listener

        # And each push gave up: every device failed, none was delivered, no task failed.
        wait_for(
            lambda: pushes().filter(status=TaskResultStatus.SUCCESSFUL).count() == MESSAGES,
            "the pushes to give up",
            proc,
            log,
        )
        assert [row.return_value for row in pushes()] == [{"failed": 10}] * MESSAGES
    finally:
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        service.close()
