"""Two closers of one season at once (the worker's task and a page's read, say) store one table: the
claim is one conditional UPDATE, which the second waits for and then finds done (real PostgreSQL)."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection

from seasons import closing, services
from seasons.models import Season, Standing
from tests.seasons.made import END, FIRST, LAST, OPENED, finished


def _waiting_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


@pytest.mark.django_db(transaction=True)
def test_two_closers_at_once_store_one_table(group, ann, bob, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("SQLite locks the whole database: the two never overlap")
    season = services.season_open(
        group_id=group.pk, user=ann, kind="farkle:3000", first_day=FIRST, last_day=LAST, now=OPENED
    )
    finished(group, [(bob, 3000, True), (ann, 2000, False)], at=OPENED + timedelta(days=2))
    claimed, go = threading.Event(), threading.Event()
    table = closing.live_table

    def held_table(s):
        # The first closer has claimed the season: it holds the row until the test lets it go on.
        if threading.current_thread().name == "first":
            claimed.set()
            assert go.wait(10)
        return table(s)

    monkeypatch.setattr(closing, "live_table", held_table)
    results = {}

    def close(name):
        try:
            results[name] = closing.season_close(season_id=season.pk, now=END)
        finally:
            connection.close()

    first = threading.Thread(target=close, args=("first",), name="first")
    first.start()
    assert claimed.wait(10)
    second = threading.Thread(target=close, args=("second",), name="second")
    second.start()
    deadline = time.monotonic() + 10
    while not _waiting_for_a_lock():  # the second closer's UPDATE waits for the first's row
        assert time.monotonic() < deadline, "the second closer never waited for the first"
        time.sleep(0.02)
    go.set()
    first.join(10)
    second.join(10)
    assert results == {"first": "closed", "second": "closed already"}
    assert [(s.username, s.rank) for s in Standing.objects.filter(season=season)] == [("bob", 1), ("ann", 2)]
    assert Season.objects.get(pk=season.pk).closed_at == END
