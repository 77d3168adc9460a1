"""The worker (`manage.py worker`, docker-compose's command) under real faults, on PostgreSQL and Redis:

- its PostgreSQL backends terminated (pg_terminate_backend) while it is idle and while a coach review
  waits on a lock, and inside a computer's move: the process stays up and reconnects, the review,
  the move and later ones are done;
- the database unreachable at start, or refusing connections for longer than WORKER_DB_OUTAGE_LIMIT:
  the process exits non-zero (its supervisor restarts it) instead of staying up doing nothing;
- killed with SIGKILL in the middle of a review: the row it left "running" is marked failed when a
  worker starts again, and the game is reviewed;
- its own Redis killed while it plays a computer's moves: it goes on playing;
- `make run`'s supervisor (supervisord, supervisord.conf) starts it again when it is killed;
- a turn e-mail: recorded as sent before the SMTP server answers QUIT (killed then, no second copy),
  and sent again with the same Message-ID when the worker is killed while the server holds its reply
  to the message (at least once; notices.services.deliver).

Only this test database's backends are terminated (the worker's, by their application_name), and only
this test's own redis-server is killed.
"""

from __future__ import annotations

import email
import os
import re
import shlex
import signal
import subprocess
import threading
import time
import urllib.request
import uuid
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
from aiosmtpd.controller import Controller
from django.db import connection
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from coach import tasks as coach_tasks
from coach.models import Review
from games.models import Game
from games.tables import services
from notices.models import TurnMail
from tests.coach.test_review import farkle_game
from tests.reliability.conftest import ARTIFACTS, ROOT, database_url, free_port, real_backends
from tests.reliability.own_redis import OwnRedis
from tests.reliability.topology import Worker, secret_key, web_environment

pytestmark = [*real_backends, pytest.mark.django_db(transaction=True)]

APP = f"worker-faults-{uuid.uuid4().hex[:8]}"
OUTAGE_LIMIT = 3  # WORKER_DB_OUTAGE_LIMIT for these workers, seconds
# Generous: the machine is shared; these only bound a wait for something that must happen.
WAIT = 60


def wait_for(condition, what: str, seconds: float = WAIT, proc=None):
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if proc is not None and proc.poll() is not None:
            pytest.fail(f"the worker exited ({proc.returncode}) while waiting for {what}")
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.1)


def backends() -> list[tuple[int, str | None]]:
    """The worker's PostgreSQL backends on this test database: (pid, wait_event_type)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, wait_event_type FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [APP],
        )
        return cursor.fetchall()


def terminate_worker_backends() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s",
            [APP],
        )
        return cursor.fetchone()[0]


class GamesLocked:
    """The games table (or ``table``) locked from a connection of its own: any task that reads it waits."""

    def __init__(self, table: str = "games_game"):
        self.table = table

    def __enter__(self):
        self.conn = psycopg.connect(database_url())
        self.conn.execute(f"LOCK TABLE {self.table} IN ACCESS EXCLUSIVE MODE")
        return self

    def __exit__(self, *exc):
        self.conn.rollback()
        self.conn.close()


@pytest.fixture
def worker_env(django_db_blocker):
    """docker-compose's worker environment (production settings) on the test database and Redis; its
    sweeps an hour apart, so that no task but the test's own reads a game while it is locked."""
    with django_db_blocker.unblock():
        db_url = database_url()
    env = {
        **os.environ,
        **web_environment(
            {"SECRET_KEY": secret_key(), "POSTGRES_PASSWORD": ""},
            {"DATABASE_URL": db_url, "REDIS_URL": os.environ["REDIS_URL"]},
        ),
        "PGAPPNAME": APP,
        "CHANNEL_LAYER_PREFIX": f"workerfaults{uuid.uuid4().hex[:8]}",
        "NOTICE_SWEEP_EVERY": "3600",
        "WORKER_DB_OUTAGE_LIMIT": str(OUTAGE_LIMIT),
        "PYTHONUNBUFFERED": "1",
        "LOG_LEVEL": "INFO",
    }
    assert env["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    return env


@pytest.fixture
def start_worker(worker_env, request):
    started: list[Worker] = []

    def start(**extra: str) -> Worker:
        ARTIFACTS.mkdir(exist_ok=True)
        # -v 2: db_worker's own lines ("Starting worker", each task), which the default keeps quiet
        # , tell these tests when its loop runs.
        log = ARTIFACTS / f"worker-faults-{request.node.name}.log"
        worker = Worker({**worker_env, **extra}, log, args=("-v", "2"))
        worker.start()
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def log_of(worker: Worker) -> str:
    return worker.log_path.read_text() if worker.log_path.exists() else ""


def reviewed(game: Game) -> bool:
    return Review.objects.filter(game=game).exists()


def review_runs(game: Game):
    return DBTaskResult.objects.filter(
        task_path=coach_tasks.review_game.module_path, args_kwargs__kwargs__game_id=game.pk
    )


def waiting_on_the_lock():
    return any(wait == "Lock" for _, wait in backends())


@pytest.mark.parametrize("settings_module", ["config.settings.production", "config.settings.local"])
def test_terminated_while_idle_the_worker_reconnects_and_goes_on(
    start_worker, user, scripted_dice, settings_module
):
    """Local settings (`make run`) have DEBUG on, under which django-tasks' autoreloader ran the worker
    in a thread: the thread died with a traceback and the process stayed up, running nothing."""
    worker = start_worker(DJANGO_SETTINGS_MODULE=settings_module)
    wait_for(backends, "the worker's connection", proc=worker.proc)
    assert terminate_worker_backends() >= 1
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])  # its end enqueues its review
    wait_for(lambda: reviewed(game), "the review after the termination", proc=worker.proc)
    assert worker.proc.poll() is None


def test_terminated_during_a_review_the_worker_goes_on_and_the_review_is_done(
    start_worker, user, scripted_dice
):
    worker = start_worker()
    wait_for(backends, "the worker's connection", proc=worker.proc)
    with GamesLocked("coach_review"):
        game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])  # its end enqueues its review
        # The review's look for an earlier review waits on the lock, outside any transaction of the
        # worker's: the case where the library's own save of the failure meets the dead connection.
        wait_for(waiting_on_the_lock, "the review to wait on the lock", proc=worker.proc)
        assert terminate_worker_backends() >= 1
    wait_for(lambda: reviewed(game), "the interrupted review to be done", proc=worker.proc)
    # Nothing stays "running": the interrupted run is marked failed, and a second review asked for
    # (the fault's redo and the worker's catch-up may both ask) finishes too, once it sees the review;
    # on a loaded machine it may still be running at the moment the first one wrote it.
    wait_for(
        lambda: not review_runs(game).filter(status=TaskResultStatus.RUNNING).exists(),
        "every review run of the game to finish",
        proc=worker.proc,
    )
    assert review_runs(game).filter(status=TaskResultStatus.FAILED).exists()
    # And the next game is reviewed too.
    later = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    wait_for(lambda: reviewed(later), "a later review", proc=worker.proc)
    assert worker.proc.poll() is None
    assert "database fault" in log_of(worker)


class GameRowLocked:
    """One game's row locked (FOR UPDATE) from a connection of its own: a move on it waits."""

    def __init__(self, game: Game):
        self.game = game

    def __enter__(self):
        self.conn = psycopg.connect(database_url())
        self.conn.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [self.game.pk])
        return self

    def __exit__(self, *exc):
        self.conn.rollback()
        self.conn.close()


def test_terminated_inside_a_computer_move_the_move_is_played_at_once(start_worker, versus_computer):
    """The fault breaks the move's transaction: Django drops the connection, the library records the
    failure on a new one and the worker stays up; the move is asked for again at once, not at the next
    sweep (an hour away here)."""
    game, ann = versus_computer()
    hand_turn_back(game, ann)  # the computer is to move: its task waits for a worker
    with GameRowLocked(game):
        worker = start_worker(COMPUTER_PAUSE_UNWATCHED="0")
        wait_for(waiting_on_the_lock, "the computer's move to wait on the lock", proc=worker.proc)
        assert terminate_worker_backends() >= 1
    wait_for(lambda: computer_actions(game) > 0, "the computer's move", proc=worker.proc)
    failed = DBTaskResult.objects.filter(
        task_path="games.computers.tasks.play", status=TaskResultStatus.FAILED
    )
    assert failed.filter(exception_class_path="django.db.utils.OperationalError").exists()
    assert worker.proc.poll() is None


def test_a_database_unreachable_at_start_makes_the_worker_exit(start_worker):
    began = time.monotonic()
    worker = start_worker(DATABASE_URL=f"postgres://postgres@127.0.0.1:{free_port()}/nothing")
    worker.proc.wait(WAIT)
    assert worker.proc.returncode not in (0, None)
    # It tried for the outage limit before giving up (a database coming back within it is no exit).
    assert time.monotonic() - began >= OUTAGE_LIMIT
    assert "giving up" in log_of(worker)


@pytest.fixture
def refusing_connections():
    """This test database refuses new connections (even a superuser's) until the test ends."""
    name = connection.settings_dict["NAME"]
    # From the server's maintenance database: no database can refuse its own session's connections.
    maintenance = re.sub(r"/[^/]*$", "/postgres", database_url())

    def refuse(allow: bool = False):
        with psycopg.connect(maintenance, autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {"true" if allow else "false"}')

    yield refuse
    refuse(allow=True)


@pytest.mark.parametrize("settings_module", ["config.settings.production", "config.settings.local"])
def test_a_database_gone_for_longer_than_the_limit_makes_the_worker_exit(
    start_worker, refusing_connections, settings_module
):
    worker = start_worker(DJANGO_SETTINGS_MODULE=settings_module)
    wait_for(backends, "the worker's connection", proc=worker.proc)
    wait_for(lambda: "Starting worker" in log_of(worker), "the worker's loop", proc=worker.proc)
    refusing_connections()
    terminate_worker_backends()
    try:
        worker.proc.wait(WAIT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the worker stayed up without a database:\n{log_of(worker)[-3000:]}")
    assert worker.proc.returncode != 0


def test_a_review_left_running_by_a_killed_worker_is_done_by_the_next(start_worker, user, scripted_dice):
    game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])  # its end enqueued its review
    # The review reads the game's log; the worker's start reads no action.
    with GamesLocked("games_action"):
        worker = start_worker()
        wait_for(waiting_on_the_lock, "the review to wait on the lock", proc=worker.proc)
        worker.stop(signal.SIGKILL)
    (left,) = review_runs(game)
    assert left.status == TaskResultStatus.RUNNING
    again = start_worker()
    wait_for(lambda: reviewed(game), "the review by the next worker", proc=again.proc)
    left.refresh_from_db()
    assert left.status == TaskResultStatus.FAILED
    assert "stopped while it ran" in left.traceback


def test_the_worker_plays_on_while_its_redis_is_down(start_worker, versus_computer):
    """Its broadcasts fail (logged; the clients resync, games.live.broadcast): the moves are stored."""
    redis = OwnRedis()
    redis.start()
    try:
        game, ann = versus_computer()
        worker = start_worker(REDIS_URL=redis.url, COMPUTER_PAUSE_UNWATCHED="0")
        hand_turn_back(game, ann)
        wait_for(lambda: computer_actions(game) > 0, "a computer move", proc=worker.proc)
        redis.kill()
        played = computer_actions(game)
        hand_turn_back(game, ann)
        wait_for(lambda: computer_actions(game) > played, "a computer move with Redis down", proc=worker.proc)
        assert worker.proc.poll() is None
    finally:
        redis.kill()


def computer_actions(game: Game) -> int:
    return game.actions.exclude(seat__user__computer="").count()


@pytest.fixture
def versus_computer(make_user):
    def make():
        ann = make_user("ann")
        game = services.game_create(creator=ann, kind="farkle", seats=2, computers=1, strength="easy")
        return Game.objects.get(pk=game.pk), ann

    return make


def hand_turn_back(game: Game, person) -> None:
    """Wait until the person is to move, then end their turn: the computer is to move again."""
    from tests.computers.test_computer_moves import pass_turn

    wait_for(
        lambda: (
            Game.objects.get(pk=game.pk).state["current"] == person.username
            or Game.objects.get(pk=game.pk).status != "playing"
        ),
        "the person's turn",
    )
    if Game.objects.get(pk=game.pk).status == "playing":
        pass_turn(game, person)


# --- `make run`: supervisord starts the worker again -----------------------------------------------


def make_run_command() -> list[str]:
    """The supervisor command of the Makefile's `run` target."""
    makefile = (ROOT / "Makefile").read_text()
    line = next(line for line in makefile.splitlines() if "supervisord" in line and line.startswith("\t"))
    words = shlex.split(line.strip().replace("$(VENV)", ".venv").replace("$(HOST)", "127.0.0.1"))
    env_words = [w for w in words if re.match(r"^\w+=", w)]
    command = words[len(env_words) :]
    return command


def spawned(text: str, name: str) -> list[int]:
    return [int(pid) for pid in re.findall(rf"spawned: '{name}' with pid (\d+)", text)]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0): read its state.
    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return state != "Z"


def test_make_run_starts_a_killed_worker_again(worker_env, user, scripted_dice):
    port = free_port()
    env = {
        **worker_env,
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "PORT": str(port),
        "HOST": "127.0.0.1",
    }
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / "worker-faults-make-run.log"
    log_path.write_text("")
    # Appending: supervisord and the programs' output it copies write to the same file.
    with log_path.open("a") as log:
        proc = subprocess.Popen(make_run_command(), cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:

        def text() -> str:
            return log_path.read_text()

        first = wait_for(lambda: spawned(text(), "worker"), "the worker to start", proc=proc)[0]
        wait_for(lambda: spawned(text(), "web"), "the web server to start", proc=proc)
        wait_for(backends, "the worker's connection", proc=proc)
        os.kill(first, signal.SIGKILL)
        second = wait_for(lambda: spawned(text(), "worker")[1:], "the worker to start again", proc=proc)[0]
        assert second != first
        game = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])  # its end enqueues its review
        wait_for(lambda: reviewed(game), "a review by the restarted worker", proc=proc)

        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
                    return response.status == 200
            except OSError:
                return False

        wait_for(answers, "the web server", proc=proc)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(WAIT)
    # Stopping `make run` stops what it started.
    assert not any(alive(pid) for pid in spawned(text(), "worker") + spawned(text(), "web"))


# --- a turn e-mail through a real SMTP server (aiosmtpd) --------------------------------------------


class HeldInbox:
    """An SMTP server that keeps what it accepts and may hold its reply to the message or to QUIT."""

    def __init__(self):
        self.mails: list[email.message.Message] = []
        self.hold_data = threading.Event()
        self.hold_quit = threading.Event()
        self.holding = threading.Event()
        # Called (in a thread) when QUIT arrives, before it is answered; what it returns is kept.
        self.on_quit = None
        self.at_quit: list = []

    async def _hold(self, event: threading.Event) -> None:
        import asyncio

        while event.is_set():
            self.holding.set()
            await asyncio.sleep(0.05)
        self.holding.clear()

    async def handle_DATA(self, server, session, envelope):
        self.mails.append(email.message_from_bytes(envelope.content))
        await self._hold(self.hold_data)
        return "250 Message accepted"

    async def handle_QUIT(self, server, session, envelope):
        import asyncio

        if self.on_quit is not None:
            self.at_quit.append(await asyncio.get_running_loop().run_in_executor(None, self.on_quit))
        await self._hold(self.hold_quit)
        return "221 Bye"


@pytest.fixture
def inbox():
    box = HeldInbox()
    controller = Controller(box, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield box, controller.port
    box.hold_data.clear()
    box.hold_quit.clear()
    controller.stop()


def due_turn_mail(make_user) -> TurnMail:
    from tests.notices.test_turn_mail import table

    game, ann, _bob = table(make_user)
    mail = TurnMail.objects.get(game=game, user=ann)
    TurnMail.objects.filter(pk=mail.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    return mail


def smtp_env(port: int) -> dict[str, str]:
    return {
        "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(port),
        "EMAIL_USE_TLS": "false",
        "NOTICE_SWEEP_EVERY": "1",
    }


def status_of(mail: TurnMail) -> str:
    return TurnMail.objects.get(pk=mail.pk).status


def committed_status(mail: TurnMail) -> str:
    """The row's status as another connection sees it (what is committed)."""
    with psycopg.connect(database_url()) as conn:
        return conn.execute("SELECT status FROM notices_turnmail WHERE id = %s", [mail.pk]).fetchone()[0]


def test_a_turn_mail_is_recorded_before_the_server_answers_quit(start_worker, make_user, inbox):
    """The sending is committed before QUIT is sent: killed while the server holds its answer to QUIT,
    the worker had recorded the e-mail, and the next worker sends no second copy."""
    box, port = inbox
    box.hold_quit.set()
    mail = due_turn_mail(make_user)
    box.on_quit = lambda: committed_status(mail)
    worker = start_worker(**smtp_env(port))
    wait_for(lambda: box.mails, "the e-mail", proc=worker.proc)
    wait_for(box.holding.is_set, "the QUIT held", proc=worker.proc)
    assert box.at_quit == [TurnMail.Status.SENT]
    worker.stop(signal.SIGKILL)
    box.hold_quit.clear()
    again = start_worker(**smtp_env(port))
    wait_for(lambda: "Starting worker" in log_of(again), "the next worker", proc=again.proc)
    wait_for(
        lambda: DBTaskResult.objects.filter(
            task_path="notices.tasks.send_due_turn_mails", status=TaskResultStatus.SUCCESSFUL
        ).exists(),
        "a sweep by the next worker",
        proc=again.proc,
    )
    assert len(box.mails) == 1


def test_a_worker_killed_while_the_server_holds_its_reply_sends_the_mail_again_with_the_same_id(
    start_worker, make_user, inbox
):
    """The window that is left (notices.services.deliver): the server has the whole message, the worker
    waits for its reply (up to EMAIL_TIMEOUT) and is killed. At least once: a second copy, same id."""
    box, port = inbox
    box.hold_data.set()
    mail = due_turn_mail(make_user)
    worker = start_worker(**smtp_env(port))
    wait_for(box.holding.is_set, "the reply to the message held", proc=worker.proc)
    assert status_of(mail) == TurnMail.Status.PENDING
    worker.stop(signal.SIGKILL)
    box.hold_data.clear()
    start_worker(**smtp_env(port))
    wait_for(lambda: status_of(mail) == TurnMail.Status.SENT, "the e-mail sent again")
    first, second = box.mails
    assert first["Message-ID"] == second["Message-ID"]
    assert first["Message-ID"].startswith(f"<turn-{mail.game_id}-{mail.user_id}-")
