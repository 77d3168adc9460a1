"""A round's last two games ending at the same moment on PostgreSQL: exactly one next round starts.

Two threads, each with its own database connection (Django's, one per thread), as two server processes
would be: each ends one game of the round with a move, whose GameEnded handler (tournaments.handlers)
locks the round. The first test lets both go at once, several times; the second forces the interleaving
that matters (the second move waits on the round's lock while the first, which saw the other game still
playing, has not committed) by watching PostgreSQL's own view of who waits for a lock. On SQLite there
is no concurrency to test (one writer at a time, and no row locks): skipped there.
"""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django_tasks_db.models import DBTaskResult

from tests.computers.worker import run_due_tasks
from tests.reliability.conftest import ON_POSTGRES
from tests.tournaments.tournament_helpers import announce, end, everyone_enters, group_of, round_games
from tournaments import services, tasks
from tournaments.models import Round

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.skipif(
        not ON_POSTGRES,
        reason="concurrent moves need PostgreSQL (row locks, more than one writer): set DATABASE_URL=postgres://...",
    ),
]


def _round_one(prefix: str):
    group, users = group_of([f"{prefix}{i}" for i in range(4)])
    tournament = announce(group, users[f"{prefix}0"], rounds=2)
    everyone_enters(tournament, users.values())
    services.tournament_start_now(tournament_id=tournament.pk, user=users[f"{prefix}0"])
    return tournament, round_games(tournament, 1)


def _second_seat(game):
    return game.seats.select_related("user").get(position=1).user


def _next_starts(tournament) -> list:
    path = tasks.start_round.module_path
    rows = DBTaskResult.objects.filter(task_path=path, args_kwargs__args__0=tournament.pk)
    return list(rows.values_list("args_kwargs", flat=True))


def _in_thread(work, errors: list) -> threading.Thread:
    def run():
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_two_last_games_ending_at_once_start_one_next_round():
    for attempt in range(5):
        tournament, (one, two) = _round_one(f"r{attempt}p")
        losers = [_second_seat(one), _second_seat(two)]
        barrier = threading.Barrier(2)
        errors: list = []

        def ending(game, loser, barrier=barrier):
            def work():
                barrier.wait(10)
                end(game, loser)

            return work

        threads = [_in_thread(ending(g, u), errors) for g, u in zip((one, two), losers, strict=True)]
        for thread in threads:
            thread.join(60)
        assert not errors, errors
        assert Round.objects.get(tournament=tournament, number=1).status == "done"
        assert _next_starts(tournament) == [{"args": [tournament.pk, 2], "kwargs": {}}]
        run_due_tasks()
        assert Round.objects.filter(tournament=tournament, number=2).count() == 1
        assert len(round_games(tournament, 2)) == 2


def _waiting_for_a_lock() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def test_the_second_game_to_end_waits_on_the_round_and_then_sees_it_complete():
    tournament, (one, two) = _round_one("w")
    first_holds = threading.Event()
    let_go = threading.Event()
    errors: list = []

    def first():
        with transaction.atomic():
            end(one, _second_seat(one))  # the round is locked; the other game is still being played
            first_holds.set()
            assert let_go.wait(30)
        # committed: one game of the round over, the round still playing

    def second():
        assert first_holds.wait(30)
        end(two, _second_seat(two))

    threads = [_in_thread(first, errors), _in_thread(second, errors)]
    assert first_holds.wait(30)
    deadline = time.monotonic() + 30
    while not _waiting_for_a_lock():
        assert time.monotonic() < deadline, "the second move never waited for the round's lock"
        time.sleep(0.01)
    assert Round.objects.get(tournament=tournament, number=1).status == "playing"
    let_go.set()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    assert Round.objects.get(tournament=tournament, number=1).status == "done"
    assert _next_starts(tournament) == [{"args": [tournament.pk, 2], "kwargs": {}}]
