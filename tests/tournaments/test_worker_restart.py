"""A round whose last game ends while no worker runs starts when the worker is back: the real worker
command (`manage.py worker`, in its own process, on the test database) before and after."""

from __future__ import annotations

import pytest
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games.models import Game
from tests.play.test_worker_console import run_worker
from tests.tournaments.tournament_helpers import announce, end, everyone_enters, group_of, round_games
from tournaments import services, tasks
from tournaments.models import Round

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow_subprocess]


def test_a_round_that_ended_while_the_worker_was_down_starts_when_it_returns(server_env):
    group, u = group_of(["cora", "dan", "eve", "fay"])
    tournament = announce(group, u["cora"], rounds=2)
    everyone_enters(tournament, u.values())
    services.tournament_start_now(tournament_id=tournament.pk, user=u["cora"])
    first, last = round_games(tournament, 1)
    end(first)
    run_worker(server_env)  # the worker runs, and stops: nothing of the tournament to do yet
    assert not Round.objects.filter(tournament=tournament, number=2).exists()

    end(last)  # no worker is running
    assert Round.objects.get(tournament=tournament, number=1).status == "done"
    waiting = DBTaskResult.objects.get(task_path=tasks.start_round.module_path)
    assert waiting.status == TaskResultStatus.READY
    assert not Round.objects.filter(tournament=tournament, number=2).exists()

    run_worker(server_env)  # back: it finds the round's start waiting and starts it
    waiting.refresh_from_db()
    assert waiting.status == TaskResultStatus.SUCCESSFUL
    games = round_games(tournament, 2)
    assert len(games) == 2 and all(g.status == Game.Status.PLAYING for g in games)
    seated = sorted(name for g in games for name in g.seats.values_list("user__username", flat=True))
    assert seated == ["cora", "dan", "eve", "fay"]
