"""Hostile chat over the real websocket stack (in-process): HTML, 10,000 characters, a flood, another
game's id, a group one does not belong to. Each gets a clear error, and what is stored is only what
was allowed, as text."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from chat.models import Message
from games.tables import services as tables
from groups import services as groups
from tests.games.sockets import Client as Tab

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@database_sync_to_async
def two_tables(make_user):
    ann, bob, eve = make_user("ann"), make_user("bob"), make_user("eve")
    ours = tables.game_create(creator=ann, kind="farkle", seats=2)
    tables.game_join(game_id=ours.pk, user=bob)
    theirs = tables.game_create(creator=eve, kind="farkle", seats=2)
    return ann, bob, eve, ours, theirs


async def test_hostile_chat_frames_are_refused_and_store_nothing_wrong(make_user, settings):
    settings.CHAT_MESSAGES_PER_MINUTE = 5
    ann, bob, _eve, ours, theirs = await two_tables(make_user)
    tab, other = Tab(ann, ours.pk), Tab(bob, ours.pk)
    try:
        await tab.open()
        await other.open()

        async def say(frame) -> dict:
            await tab.comm.send_json_to(frame)
            while True:
                reply = await tab.next_any()
                if reply["type"] in ("chat", "error"):
                    return reply

        html = await say({"type": "say", "text": "<img src=x onerror=alert(1)>"})
        assert html["type"] == "chat" and html["message"]["text"] == "<img src=x onerror=alert(1)>"
        assert (await say({"type": "say", "text": "x" * 10_000}))["code"] == "bad_request"
        assert (await say({"type": "say", "text": ["not", "text"]}))["code"] == "bad_request"
        assert (await say({"type": "say"}))["code"] == "bad_request"
        # A socket serves its own game: a frame naming another is refused, and stores nothing.
        aimed = await say({"type": "say", "text": "hello", "game": theirs.pk})
        assert aimed["code"] == "bad_request"
        assert aimed["message"] == f"This connection is for game {ours.pk} only."
        assert (await say({"type": "say", "text": "hello", "game": ours.pk}))["type"] == "chat"
        codes = [(await say({"type": "say", "text": f"flood {n}"})).get("code") for n in range(6)]
        assert codes[:3] == [None, None, None] and set(codes[3:]) == {"rate_limited"}
        assert all("retry_after" in m for m in tab.received if m.get("code") == "rate_limited")
    finally:
        await tab.comm.disconnect()
        await other.comm.disconnect()
    stored = await database_sync_to_async(lambda: list(Message.objects.values_list("game_id", "text")))()
    assert [g for g, _ in stored] == [ours.pk] * 5
    assert all(len(t) <= 500 for _, t in stored)
    assert not await database_sync_to_async(Message.objects.filter(game=theirs).exists)()


async def test_a_group_one_is_not_in_and_a_message_of_another_group(make_user):
    @database_sync_to_async
    def run():
        ann, eve = make_user("ann"), make_user("eve")
        ours = groups.group_create(creator=ann, name="Ours")
        theirs = groups.group_create(creator=eve, name="Theirs")
        their_message = Message.objects.create(group=theirs, author=eve, text="private")
        client = Client()
        client.force_login(ann)
        posted = client.post(reverse("chat:group_post", args=[theirs.pk]), {"text": "let me in"}, follow=True)
        removed = client.post(reverse("chat:group_remove", args=[ours.pk, their_message.pk]), follow=True)
        return posted, removed, their_message

    posted, removed, their_message = await run()
    assert "Only the group&#x27;s members talk in it." in posted.content.decode()
    assert "There is no such message." in removed.content.decode()
    refreshed = await database_sync_to_async(Message.objects.get)(pk=their_message.pk)
    assert not refreshed.removed
    assert await database_sync_to_async(Message.objects.count)() == 1
