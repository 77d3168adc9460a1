"""The notices socket (/ws/notices/): the header's count and list on every page, pushed when a turn
passes, a game starts or a player is added to a group; what every other player's socket received."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from chat import services as chat
from config.routing import websocket_urlpatterns
from games import rules
from games.models import Game
from games.tables import services
from groups import services as group_services
from notices import services as notices
from notices.models import Notice
from tests.factories import GameFactory, GroupFactory, UserFactory
from tests.protocol import message_types, validate_notices

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
app = URLRouter(websocket_urlpatterns)


class Header:
    """One page's notices socket."""

    def __init__(self, user):
        self.comm = WebsocketCommunicator(app, "/ws/notices/")
        self.comm.scope["user"] = user

    async def open(self) -> dict:
        connected, code = await self.comm.connect()
        assert connected, code
        return await self.next()

    async def next(self, wait: float = 5) -> dict:
        return json.loads(await self.comm.receive_from(timeout=wait))

    async def quiet(self) -> bool:
        return await self.comm.receive_nothing(timeout=0.2)


@database_sync_to_async
def table(make_user):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    return GameFactory(creator=ann, kind="triple-quintzee", players=[bob], start=False), ann, bob, cid


@database_sync_to_async
def end_turn(game_id, user, n=[0]):  # noqa: B006 - client ids across the module
    engine = rules.get("triple-quintzee")
    for kind in ("roll", "score"):
        state = Game.objects.get(pk=game_id).state
        action = next(a for a in engine.legal_actions(state) if a["type"] == kind)
        n[0] += 1
        services.game_apply_action(game_id=game_id, user=user, client_id=f"n{n[0]}", action=action)


async def test_a_signed_out_page_gets_no_socket():
    comm = WebsocketCommunicator(app, "/ws/notices/")
    comm.scope["user"] = AnonymousUser()
    connected, code = await comm.connect()
    assert not connected and code == 4401


async def test_start_and_every_turn_reach_the_players_headers_and_nobody_elses(make_user):
    game, ann, bob, cid = await table(make_user)
    headers = {u.username: Header(u) for u in (ann, bob, cid)}
    try:
        for h in headers.values():
            assert (await h.open())["count"] == 0
        await database_sync_to_async(services.game_start)(game_id=game.pk, user=ann)
        ann_feed, bob_feed = await headers["ann"].next(), await headers["bob"].next()
        assert [t["game"] for t in ann_feed["turns"]] == [game.pk]  # ann moves first
        assert ann_feed["count"] == 1 and not ann_feed["notices"]
        assert bob_feed["turns"] == [] and bob_feed["count"] == 1
        assert bob_feed["notices"][0]["text"] == f"ann started Triple Quintzee #{game.pk}."
        assert await headers["cid"].quiet()

        await end_turn(game.pk, ann)
        ann_feed, bob_feed = await headers["ann"].next(), await headers["bob"].next()
        assert ann_feed["count"] == 0
        assert [t["game"] for t in bob_feed["turns"]] == [game.pk] and bob_feed["count"] == 2
        assert await headers["cid"].quiet()

        # bob opens the list: the notice is seen, the turn stays until he moves.
        await headers["bob"].comm.send_json_to({"type": "seen", "ids": [bob_feed["notices"][0]["id"]]})
        after = await headers["bob"].next()
        assert after["count"] == 1
        # Read, not gone: the list still holds it.
        assert [(n["id"], n["seen"]) for n in after["notices"]] == [(bob_feed["notices"][0]["id"], True)]
    finally:
        for h in headers.values():
            await h.comm.disconnect()


async def test_being_added_to_a_group_is_a_notice(make_user):
    ann, bob = await database_sync_to_async(make_user)("ann"), await database_sync_to_async(make_user)("bob")
    group = await database_sync_to_async(group_services.group_create)(creator=ann, name="Friday dice")
    header = Header(bob)
    try:
        await header.open()
        await database_sync_to_async(group_services.group_add_member)(
            group_id=group.pk, user=ann, username="bob"
        )
        feed = await header.next()
        assert feed["notices"][0]["text"] == "ann added you to the group Friday dice."
        assert feed["notices"][0]["url"] == f"/groups/{group.pk}/"
    finally:
        await header.comm.disconnect()


async def test_bad_frames_are_answered_and_change_nothing(make_user):
    bob = await database_sync_to_async(make_user)("bob")
    await database_sync_to_async(Notice.objects.create)(user=bob, text="hello", url="/")
    header = Header(bob)
    try:
        await header.open()
        for frame, code in (
            ({"type": "seen", "ids": "all"}, "bad_request"),
            ({"type": "seen", "ids": [True]}, "bad_request"),
            ({"type": "seen", "ids": list(range(1, 60))}, "bad_request"),
            # Past what an id column holds, NUL and a lone surrogate.
            ({"type": "seen", "ids": [2**63]}, "bad_request"),
            ({"type": "seen", "ids": [-(2**63) - 1]}, "bad_request"),
            ({"type": "seen", "ids": ["\x00"]}, "bad_request"),
            ({"type": "\ud800"}, "unknown_type"),
            ({"type": "dance"}, "unknown_type"),
        ):
            await header.comm.send_json_to(frame)
            assert (await header.next())["code"] == code
        for text in ("not json", '{"type": "seen", "ids": [' + "9" * 5000 + "]}"):
            await header.comm.send_to(text_data=text)
            assert (await header.next())["code"] == "bad_json"
        # The largest id a row can have is an id like any other: none of bob's, nothing seen.
        await header.comm.send_json_to({"type": "seen", "ids": [2**63 - 1]})
        assert (await header.next())["type"] == "notices"
        await header.comm.send_json_to({"type": "ping"})
        assert (await header.next()) == {"type": "pong"}
        assert await database_sync_to_async(Notice.objects.filter(seen=False).count)() == 1
    finally:
        await header.comm.disconnect()


def _without_waiting(frame: dict) -> dict:
    return {
        **frame,
        **{key: [{**e, "waiting": None} for e in frame[key]] for key in ("turns", "playing")},
    }


async def test_a_turn_updates_the_header_without_reading_it_again_and_as_a_read_would(
    make_user, monkeypatch, scripted_dice
):
    """A turn that passes tells the notices sockets how the game stands (notices.feed.turn_message);
    they update the feed they hold. Over turns in two games, every frame is what a fresh read gives."""
    from notices import feed

    # Four turns' rolls, then a Farkle roll that scores (a roll that scores nothing, about one in 43,
    # would pass the turn and tell the header).
    scripted_dice(*[[1, 2, 3, 4, 5]] * 4, [1, 2, 3, 4, 6, 6])

    game, ann, bob, _ = await table(make_user)
    other = await database_sync_to_async(services.game_create)(creator=bob, kind="farkle", seats=2)
    await database_sync_to_async(services.game_join)(game_id=other.pk, user=ann)
    for g in (game, other):
        await database_sync_to_async(services.game_start)(game_id=g.pk, user=g.creator)
    header = Header(ann)
    try:
        await header.open()
        reads = []
        real_read = feed.read
        monkeypatch.setattr(feed, "read", lambda user: reads.append(user) or real_read(user))
        for mover in (ann, bob, ann, bob):
            await end_turn(game.pk, mover)
            frame = await header.next()
            expected = await database_sync_to_async(feed.feed)(ann)
            assert _without_waiting(frame) == _without_waiting(expected)
        assert len(reads) == 4  # the test's own reads: the socket read nothing
        farkle = rules.get("farkle")
        state = (await database_sync_to_async(Game.objects.get)(pk=other.pk)).state
        action = next(a for a in farkle.legal_actions(state) if a["type"] == "roll")
        await database_sync_to_async(services.game_apply_action)(
            game_id=other.pk, user=bob, client_id="farkle-1", action=action
        )
        assert await header.quiet()  # a roll passes no turn
    finally:
        await header.comm.disconnect()


async def test_pings_and_turn_messages_take_no_hop_to_channels_database_thread(make_user, monkeypatch):
    """Channels' consumers close old database connections on its database thread before every frame
    and every group message; with thousands of quiet sockets those hops cost the event loop the GIL.
    The notices socket does its database work on games.live.game_threads's threads, which close their own."""
    import channels.consumer

    hops = []

    async def hop():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", hop)
    game, ann, bob, _ = await table(make_user)
    await database_sync_to_async(services.game_start)(game_id=game.pk, user=ann)
    header = Header(bob)
    try:
        await header.open()
        for _ in range(3):
            await header.comm.send_json_to({"type": "ping"})
            assert (await header.next()) == {"type": "pong"}
        await end_turn(game.pk, ann)
        assert [t["game"] for t in (await header.next())["turns"]] == [game.pk]
        assert hops == []
    finally:
        await header.comm.disconnect()


@database_sync_to_async
def group_of(creator, *members):
    return GroupFactory(creator=creator, name="Friday dice", members=members)


async def test_every_kind_of_frame_the_socket_sends_follows_the_schema(make_user, settings):
    """Each message the schema lists for this socket (notices_message in docs/protocol.schema.json) and
    each error code it answers with, as the consumer itself sent them, checked with the schema. (Every
    frame any test receives on this socket is checked as well: tests/conftest.py.)"""
    ann, bob = await database_sync_to_async(
        lambda: (UserFactory(username="ann"), UserFactory(username="bob"))
    )()
    group = await group_of(ann, bob)
    header = Header(bob)
    received = []

    async def answer(text=None, bytes_data=None) -> dict:
        await header.comm.send_to(text_data=text, bytes_data=bytes_data)
        received.append(validate_notices(await header.next()))
        return received[-1]

    try:
        received.append(validate_notices(await header.open()))
        assert (await answer('{"type": "ping"}'))["type"] == "pong"
        assert (await answer('{"type": "seen", "ids": []}'))["type"] == "notices"
        for text, code in (
            ('{"type": "seen", "ids": "all"}', "bad_request"),
            ('{"type": "dance"}', "unknown_type"),
            ("not json", "bad_json"),
            ("[1]", "bad_message"),
            (" " * (settings.WS_MAX_MESSAGE_BYTES + 1), "too_large"),
        ):
            assert (await answer(text))["code"] == code
        assert (await answer(bytes_data=b"\x00"))["code"] == "binary"

        await database_sync_to_async(chat.post_to_group)(group_id=group.pk, user=ann, text="Friday?")
        received.append(validate_notices(await header.next()))
        assert received[-1]["type"] == "group_chat"

        # A part of the group's pages changed (a season's table: seasons.live).
        await database_sync_to_async(notices.group_changed)(["bob"], group.pk, "seasons")
        received.append(validate_notices(await header.next()))
        assert received[-1] == {"type": "group_changed", "group": group.pk, "part": "seasons"}

        settings.WS_RATE_MESSAGES_PER_10S = 1  # this socket has sent more than that in the last 10 s
        refused = await answer('{"type": "ping"}')
        assert refused["code"] == "rate_limited" and refused["retry_after"] >= 1
    finally:
        await header.comm.disconnect()
    assert {frame["type"] for frame in received} == set(message_types("notices"))
    codes = {frame["code"] for frame in received if frame["type"] == "error"}
    assert codes == {
        "bad_request",
        "unknown_type",
        "bad_json",
        "bad_message",
        "too_large",
        "binary",
        "rate_limited",
    }
