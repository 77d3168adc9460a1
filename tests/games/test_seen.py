"""Pings are written in batches (games.live.seen): a socket's ping reaches its connection and the
player's seat of that game only, a notices socket's ping the player's preferences; within a second."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games.live import seen
from games.models import Connection, Seat
from notices.models import Preferences
from tests.games.sockets import Client, new_table

pytestmark = pytest.mark.django_db(transaction=True)
LONG_AGO = timezone.now() - timedelta(hours=1)


def _age_everything() -> None:
    Connection.objects.update(seen_at=LONG_AGO)
    Seat.objects.update(last_seen=LONG_AGO)


def test_a_batch_marks_only_the_pinging_sockets_and_their_seats(make_user):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    from games.tables import services

    one = services.game_create(creator=ann, kind="farkle", seats=2)
    services.game_join(game_id=one.pk, user=bob)
    two = services.game_create(creator=bob, kind="farkle", seats=2)
    services.game_join(game_id=two.pk, user=ann)
    Connection.objects.create(channel_name="a1", game=one, user=ann, seen_at=LONG_AGO)
    Connection.objects.create(channel_name="b1", game=one, user=bob, seen_at=LONG_AGO)
    Connection.objects.create(channel_name="a2", game=two, user=ann, seen_at=LONG_AGO)
    Preferences.objects.create(user=cid, seen_at=LONG_AGO)
    Preferences.objects.create(user=bob, seen_at=LONG_AGO)
    _age_everything()
    now = timezone.now()
    seen.write({"a1"}, {cid.pk}, now)
    fresh = set(Connection.objects.filter(seen_at=now).values_list("channel_name", flat=True))
    assert fresh == {"a1"}
    seats = set(Seat.objects.filter(last_seen=now).values_list("game_id", "user__username"))
    assert seats == {(one.pk, "ann")}  # not ann's seat in the other game, not bob's
    assert set(Preferences.objects.filter(seen_at=now).values_list("user__username", flat=True)) == {"cid"}


async def test_a_ping_is_answered_at_once_and_recorded_within_a_second(make_user):
    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()
    game = await new_table(ann, [bob], "farkle")
    client = Client(ann, game.pk)
    await client.open()
    await database_sync_to_async(_age_everything)()
    await client.comm.send_json_to({"type": "ping"})
    assert (await client.next("pong"))["type"] == "pong"
    await asyncio.sleep(seen.FLUSH_EVERY + 0.5)
    conn = await database_sync_to_async(Connection.objects.get)(user=ann)
    seat = await database_sync_to_async(Seat.objects.get)(game=game, user=ann)
    assert conn.seen_at > LONG_AGO and seat.last_seen > LONG_AGO
    await client.close()
