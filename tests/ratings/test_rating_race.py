"""Two rated games of one player that end at the same moment, on two database connections (threads):
the rebuild (manage.py rebuild_ratings) arrives at exactly the live ratings, change for change. The
game that ended first by its move's clock may be rated second, when it waits for a lock the other
does not; its end time must then say so, since the rebuild replays in the order of the end times."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.core.management import call_command
from django.db import connection, connections

from games.live import move_async
from games.models import Game
from ratings.models import Rating, RatingChange
from tests.ratings.test_rating_updates import resign, snapshot, table

pytestmark = pytest.mark.django_db(transaction=True)


def _resign_in_own_thread(executor, game, user):
    """A resignation on a thread (and a database connection) of its own, as another process makes it."""

    def call():
        try:
            resign(game, user)
        finally:
            connections.close_all()

    return executor.submit(call)


def _wait_for_a_lock_waiter(watcher, ending) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if ending.done():
            raise AssertionError(f"the first game's end did not wait for its row: {ending.result()}")
        waiting = watcher.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        ).fetchone()[0]
        if waiting:
            return
        time.sleep(0.01)
    raise AssertionError("the first game's end never waited for its row")


def test_two_games_of_a_player_ending_at_once_are_rebuilt_as_they_were_rated(make_user):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one transaction at a time: two games never end side by side")
    ann, bob, cy, dan = (make_user(name) for name in ("ann", "bob", "cy", "dan"))
    resign(table(bob, dan), dan)  # bob and cy come to the two games with different ratings
    first, second = table(ann, bob), table(ann, cy)
    params = move_async.connection_kwargs()
    params.pop("cursor_factory")
    with (
        ThreadPoolExecutor(max_workers=1) as executor,
        psycopg.connect(**params) as holder,
        # Outside the holder's transaction, which would see one snapshot of pg_stat_activity only.
        psycopg.connect(**params) as watcher,
    ):
        # The first game's end is made (its clock read) and waits for its game row; meanwhile the
        # second game ends and is rated, with ann's row; then the first gets its row, and ann's.
        holder.execute("BEGIN")
        holder.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [first.pk])
        ending = _resign_in_own_thread(executor, first, bob)
        _wait_for_a_lock_waiter(watcher, ending)
        resign(second, cy)
        holder.execute("COMMIT")
        ending.result(timeout=30)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == second.status == Game.Status.FINISHED
    anns = list(RatingChange.objects.filter(user=ann).order_by("id").values_list("game_id", flat=True))
    assert anns == [second.pk, first.pk]  # rated in this order, live
    live = snapshot()
    RatingChange.objects.all().delete()
    Rating.objects.update(mu=0, sigma=1, display=0, games=99)
    call_command("rebuild_ratings", verbosity=0)
    assert snapshot() == live
    assert second.finished_at < first.finished_at  # the end times say the order they were rated in
