"""The worker's task that plays one action of a computer player, and the sweep that keeps them going.

Each action is one task: the move that makes it a computer's turn (or the computer's own previous
action) enqueues it in its own transaction (games.effects.ComputerToMove), so each
roll reaches the screens at the pace that row asks for. A task plays only if the game still stands at
the seq it was written for and a computer is to move; its action goes through the one move path
(games.live.moves.apply_action) under a client id made of that seq, so that a task run twice plays
once. The sweep (worker start, and with the turn e-mails' sweep) writes a task for any computer's turn
that has none, e.g. after a worker was killed in the middle of one."""

from __future__ import annotations

import logging
import random
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import bots, effects
from games.computers.players import NAME_PREFIX
from games.errors import GameError
from games.live import moves, seen
from games.models import Game

KEEP_RESULTS = timedelta(hours=1)
logger = logging.getLogger(__name__)


@task()
def play(game_id: int, seq: int) -> str:
    """Play the computer's action after ``seq`` in game ``game_id``; what became of the task."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.PLAYING or game.seq != seq:
        return "stale"
    computer = _computer(game.current_player)
    if computer is None:
        return "not a computer's turn"
    # Chosen before the game is locked (an expert may think a while); seeded by the action, so that a
    # task run again chooses the same.
    rng = random.Random(f"{game_id}:{seq}")  # noqa: S311 - a player's choice, not a secret
    action = bots.choose(game.kind, game.state, computer.computer, rng)
    with transaction.atomic():
        # Locked, so that no other move slips in between the check and the computer's own.
        now = Game.objects.select_for_update().filter(pk=game_id).values_list("seq", "status").first()
        if now != (seq, Game.Status.PLAYING):
            return "stale"
        try:
            outcome = moves.apply_action(
                game_id=game_id, user=computer, client_id=f"computer:{seq}", action=action
            )
        except GameError as exc:
            logger.warning("computer %s refused in game %s at %s: %s", computer, game_id, seq, exc.message)
            return f"refused: {exc.message}"
    return "duplicate" if outcome.duplicate else "played"


PLAY_TASK = play.module_path


def _computer(username: str | None):
    if not username:
        return None
    return get_user_model().objects.filter(username=username).exclude(computer="").first()


def watched(game_id: int) -> bool:
    """Whether anyone is at the table of the game (the computer then plays at a watcher's pace)."""
    return seen.connections(game=game_id, since=seen.cutoff()).exists()


def computer_to_move(effect: effects.ComputerToMove) -> None:
    """A move or a game's start left a computer to move: its task, in that transaction."""
    enqueue(effect.game)


def enqueue(game: Game) -> None:
    """The task of the computer to move in ``game`` at its current seq."""
    pause = settings.COMPUTER_PAUSE if watched(game.pk) else settings.COMPUTER_PAUSE_UNWATCHED
    play.using(run_after=timezone.now() + timedelta(seconds=pause)).enqueue(game.pk, game.seq)


def _tasks_of(game: Game):
    return DBTaskResult.objects.filter(
        task_path=PLAY_TASK, args_kwargs__args__0=game.pk, args_kwargs__args__1=game.seq
    )


def _alive(tasks, since):
    """Tasks that will run or are running: waiting, or started after ``since``."""
    ready = tasks.filter(status=TaskResultStatus.READY)
    return ready | tasks.filter(status=TaskResultStatus.RUNNING, started_at__gte=since)


def computers_to_move():
    """Games being played in which a computer is to move."""
    return Game.objects.filter(status=Game.Status.PLAYING, state__current__startswith=NAME_PREFIX)


def recover(running_for: float = 60.0) -> int:
    """Write a task for every computer's turn that has none (a task running for longer than
    ``running_for`` seconds counts as lost: its worker was stopped); forget old finished ones. How
    many were written."""
    now = timezone.now()
    since = now - timedelta(seconds=running_for)
    written = 0
    for game in computers_to_move():
        if _computer(game.current_player) is None or _alive(_tasks_of(game), since).exists():
            continue
        with transaction.atomic():
            enqueue(game)
        written += 1
    finished = DBTaskResult.objects.filter(task_path=PLAY_TASK, finished_at__lt=now - KEEP_RESULTS)
    finished.filter(status=TaskResultStatus.SUCCESSFUL).delete()
    return written


def waiting_for_worker(game: Game) -> bool:
    """A computer is to move and its action is overdue by more than COMPUTER_OVERDUE seconds (its task
    is waiting, lost, or stuck with a stopped worker)."""
    if _computer(game.current_player) is None:
        return False
    late = timezone.now() - timedelta(seconds=settings.COMPUTER_OVERDUE)
    tasks = _tasks_of(game)
    on_time = tasks.filter(status=TaskResultStatus.READY, run_after__gte=late)
    running = tasks.filter(status=TaskResultStatus.RUNNING, started_at__gte=late)
    if on_time.exists() or running.exists():
        return False
    # No task in time: overdue once the turn has stood still that long (a lost task).
    last = game.actions.order_by("-seq").values_list("created_at", flat=True).first()
    since = [t for t in (last, game.turn_started_at) if t is not None] or [game.started_at]
    return max(since) < late
