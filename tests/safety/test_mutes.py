"""Muting a player's chat (at every table and in every group, live and on reload), a table's chat
turned off for oneself, and a moderator's mute of a writer."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat import selectors, services
from chat.models import Mute, TableChatOff
from games.errors import BadRequest, Forbidden, NotFound
from groups import services as groups
from tests.factories import GameFactory
from tests.games.sockets import Client as Tab
from tests.notices.test_notices_socket import Header

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh(fresh_limits):
    """Each test counts its own chat lines and reports (ids repeat between tests on SQLite)."""


def _table(make_user, seats=("ann", "bob", "cy")):
    users = [make_user(name) for name in seats]
    return GameFactory(creator=users[0], players=users[1:]), users


def test_a_muted_writer_is_gone_for_the_muter_at_every_table_and_group_but_not_for_others(make_user):
    game, (ann, bob, cy) = _table(make_user)
    group = groups.group_create(creator=bob, name="Dice")
    for name in ("ann", "cy"):
        groups.group_add_member(group_id=group.pk, user=bob, username=name)
    services.post_to_game(game_id=game.pk, user=bob, text="rude")
    services.post_to_game(game_id=game.pk, user=cy, text="gg")
    services.post_to_group(group_id=group.pk, user=bob, text="rude too")

    services.mute(user=ann, username="bob")

    assert [m["text"] for m in selectors.recent_for_game(game.pk, ann)] == ["gg"]
    assert [m["text"] for m in selectors.recent_for_game(game.pk, cy)] == ["rude", "gg"]
    assert selectors.recent_for_group(group.pk, ann) == []
    assert [m.text for m in selectors.recent_for_group(group.pk, cy)] == ["rude too"]
    assert [m.text for m in selectors.for_replay(game.pk, ann)] == ["gg"]

    services.unmute(user=ann, username="bob")
    assert [m["text"] for m in selectors.recent_for_game(game.pk, ann)] == ["rude", "gg"]


def test_muting_oneself_a_computer_or_nobody_is_refused_and_twice_is_once(make_user):
    ann, _bob = make_user("ann"), make_user("bob")
    make_user("robot", computer="expert")
    with pytest.raises(BadRequest):
        services.mute(user=ann, username="ann")
    for name in ("robot", "nobody", "a\x00"):
        with pytest.raises(NotFound):
            services.mute(user=ann, username=name)
    services.mute(user=ann, username="bob")
    services.mute(user=ann, username="bob")
    assert Mute.objects.count() == 1


def test_a_table_chat_turned_off_shows_none_of_it_to_that_player_only(make_user):
    game, (ann, bob, _cy) = _table(make_user)
    services.post_to_game(game_id=game.pk, user=bob, text="hello")
    services.table_chat(game_id=game.pk, user=ann, on=False)
    services.table_chat(game_id=game.pk, user=ann, on=False)
    assert selectors.recent_for_game(game.pk, ann) == [] and TableChatOff.objects.count() == 1
    assert len(selectors.recent_for_game(game.pk, bob)) == 1
    services.table_chat(game_id=game.pk, user=ann, on=True)
    assert len(selectors.recent_for_game(game.pk, ann)) == 1
    with pytest.raises(NotFound):
        services.table_chat(game_id=10**12, user=ann, on=False)


def test_a_player_a_moderator_muted_writes_in_no_chat_until_then(make_user):
    game, (ann, bob, _cy) = _table(make_user)
    group = groups.group_create(creator=bob, name="Dice")
    type(bob).objects.filter(pk=bob.pk).update(chat_muted_until=timezone.now() + timedelta(hours=1))
    for post in (
        lambda: services.post_to_game(game_id=game.pk, user=bob, text="hi"),
        lambda: services.post_to_group(group_id=group.pk, user=bob, text="hi"),
    ):
        with pytest.raises(Forbidden, match="muted you"):
            post()
    type(bob).objects.filter(pk=bob.pk).update(chat_muted_until=timezone.now() - timedelta(seconds=1))
    services.post_to_game(game_id=game.pk, user=bob, text="back")
    assert ann


@pytest.mark.asyncio
async def test_a_muted_players_line_reaches_the_others_but_not_the_muter(make_user):
    game, (ann, bob, cy) = await database_sync_to_async(_table)(make_user)
    await database_sync_to_async(services.mute)(user=ann, username="bob")
    tabs = {u.username: Tab(u, game.pk) for u in (ann, bob, cy)}
    try:
        for tab in tabs.values():
            await tab.open()
        await tabs["bob"].comm.send_json_to({"type": "say", "text": "you all stink"})
        for name in ("bob", "cy"):
            assert (await tabs[name].next("chat"))["message"]["text"] == "you all stink"
        # A line after it, which every socket gets: the muter's first chat line is this one.
        await tabs["cy"].comm.send_json_to({"type": "say", "text": "calm down"})
        for name in ("ann", "bob", "cy"):
            assert (await tabs[name].next("chat"))["message"]["text"] == "calm down"
        assert all(m["type"] != "chat" or m["message"]["user"] != "bob" for m in tabs["ann"].received)
        # And on reload: the snapshot leaves bob's line out for ann only.
        again = Tab(ann, game.pk)
        snapshot = await again.open()
        assert [m["text"] for m in snapshot["chat"]] == ["calm down"]
        await again.comm.disconnect()
    finally:
        for tab in tabs.values():
            await tab.comm.disconnect()


@pytest.mark.asyncio
async def test_a_table_chat_turned_off_is_not_delivered_live(make_user):
    game, (ann, bob) = await database_sync_to_async(_table)(make_user, ("ann", "bob"))
    tabs = {u.username: Tab(u, game.pk) for u in (ann, bob)}
    try:
        for tab in tabs.values():
            await tab.open()
        await database_sync_to_async(services.table_chat)(game_id=game.pk, user=ann, on=False)
        await tabs["bob"].comm.send_json_to({"type": "say", "text": "hello?"})
        assert (await tabs["bob"].next("chat"))["message"]["text"] == "hello?"
        await tabs["ann"].comm.send_json_to({"type": "say", "text": "mine still shows"})
        assert (await tabs["ann"].next("chat"))["message"]["text"] == "mine still shows"
        assert [m["message"]["text"] for m in tabs["ann"].received if m["type"] == "chat"] == [
            "mine still shows"
        ]
    finally:
        for tab in tabs.values():
            await tab.comm.disconnect()


@pytest.mark.asyncio
async def test_a_group_line_of_a_muted_member_is_not_sent_to_the_muter(make_user):
    ann, bob, cy = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob", "cy")]
    group = await database_sync_to_async(groups.group_create)(creator=bob, name="Dice")
    for name in ("ann", "cy"):
        await database_sync_to_async(groups.group_add_member)(group_id=group.pk, user=bob, username=name)
    await database_sync_to_async(services.mute)(user=ann, username="bob")
    headers = {u.username: Header(u) for u in (ann, cy)}
    try:
        for header in headers.values():
            await header.open()
        await database_sync_to_async(services.post_to_group)(group_id=group.pk, user=bob, text="rude")
        await database_sync_to_async(services.post_to_group)(group_id=group.pk, user=cy, text="gg")
        heard = {}
        for name, header in headers.items():
            heard[name] = []
            while not heard[name] or heard[name][-1] != "gg":
                frame = await header.next()
                if frame["type"] == "group_chat":
                    heard[name].append(frame["message"]["text"])
        assert heard == {"ann": ["gg"], "cy": ["rude", "gg"]}
    finally:
        for header in headers.values():
            await header.comm.disconnect()


def test_the_mute_and_table_chat_forms(make_user):
    game, (ann, _bob, _cy) = _table(make_user)
    client = Client()
    client.force_login(ann)
    script = {"HTTP_ACCEPT": "application/json"}
    muted = client.post(reverse("chat:mute", args=["bob"]), {"action": "mute"}, **script)
    assert muted.status_code == 200 and muted.json()["muted"] is True
    page = client.get(reverse("players:profile", args=["bob"])).content.decode()
    assert 'id="muted-note"' in page
    back = client.post(reverse("chat:mute", args=["bob"]), {"action": "unmute", "next": "/players/bob/"})
    assert back.status_code == 302 and back["Location"] == "/players/bob/" and not Mute.objects.exists()
    assert client.post(reverse("chat:mute", args=["ann"]), {"action": "mute"}, **script).status_code == 400
    assert client.post(reverse("chat:mute", args=["nobody"]), {"action": "mute"}, **script).status_code == 404
    assert client.post(reverse("chat:mute", args=["bob"]), {"action": "\x00"}, **script).status_code == 400
    off = client.post(reverse("chat:table_chat", args=[game.pk]), {"action": "off"}, **script)
    assert off.status_code == 200 and TableChatOff.objects.filter(user=ann, game=game).exists()
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert 'data-chat-off="true"' in page
    assert (
        client.post(reverse("chat:table_chat", args=[10**12]), {"action": "off"}, **script).status_code == 404
    )
    anonymous = Client().post(reverse("chat:mute", args=["bob"]), {"action": "mute"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
