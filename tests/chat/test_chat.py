"""Chat at the table and in groups: kept, pushed to every socket, length- and rate-limited, text only,
a group's creator removes, a player hides it; the replay shows the table's."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from chat import services
from chat.models import Message
from games.errors import BadRequest, Forbidden, NotFound, RateLimited
from games.tables import services as tables
from groups import services as groups
from notices.models import Preferences
from tests.games.sockets import Client as Tab
from tests.notices.test_notices_socket import Header

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "raw, kept",
    [
        ("  hello  ", "hello"),
        ("two\nlines", "two lines"),
        ("tab\there", "tab here"),
        ("a\x00b\u202ec", "abc"),
        ("<b>bold</b>", "<b>bold</b>"),
    ],
)
def test_a_message_is_kept_as_plain_text(raw, kept):
    assert services.clean(raw) == kept


@pytest.mark.parametrize("raw", ["", "   ", "\n\t", "x" * 501, None, 12])
def test_empty_long_or_non_text_messages_are_refused(raw):
    with pytest.raises(BadRequest):
        services.clean(raw)


def test_too_many_messages_are_refused_with_the_wait(make_user, settings):
    settings.CHAT_MESSAGES_PER_MINUTE = 3
    ann = make_user("ann")
    group = groups.group_create(creator=ann, name="Dice")
    for n in range(3):
        services.post_to_group(group_id=group.pk, user=ann, text=f"message {n}")
    with pytest.raises(RateLimited) as refused:
        services.post_to_group(group_id=group.pk, user=ann, text="one too many")
    assert refused.value.retry_after >= 1
    assert Message.objects.count() == 3


def test_only_members_talk_in_a_group_and_only_the_author_or_its_creator_removes(make_user):
    ann, bob, cy, eve = make_user("ann"), make_user("bob"), make_user("cy"), make_user("eve")
    group = groups.group_create(creator=ann, name="Dice")
    for member in ("bob", "cy"):
        groups.group_add_member(group_id=group.pk, user=ann, username=member)
    message = services.post_to_group(group_id=group.pk, user=bob, text="hi")
    with pytest.raises(Forbidden):
        services.post_to_group(group_id=group.pk, user=eve, text="let me in")
    with pytest.raises(NotFound):  # an outsider learns nothing of the group's messages
        services.remove_from_group(group_id=group.pk, user=eve, message_id=message.pk)
    with pytest.raises(Forbidden):
        services.remove_from_group(group_id=group.pk, user=cy, message_id=message.pk)
    services.remove_from_group(group_id=group.pk, user=ann, message_id=message.pk)
    assert Message.objects.get().removed
    own = services.post_to_group(group_id=group.pk, user=cy, text="oops")
    services.remove_from_group(group_id=group.pk, user=cy, message_id=own.pk)
    assert Message.objects.get(pk=own.pk).removed


def test_the_group_page_shows_messages_as_text_and_its_form_posts(make_user):
    ann = make_user("ann")
    group = groups.group_create(creator=ann, name="Dice")
    client = Client()
    client.force_login(ann)
    response = client.post(reverse("chat:group_post", args=[group.pk]), {"text": "<script>alert(1)</script>"})
    assert response.status_code == 302
    page = client.get(reverse("groups:detail", args=[group.pk])).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>alert(1)" not in page
    Preferences.objects.create(user=ann, mute_chat=True)
    page = client.get(reverse("groups:detail", args=[group.pk])).content.decode()
    assert "You hid the chat." in page and "alert(1)" not in page


def test_the_group_pages_script_posts_and_hears_a_refusal_in_json(make_user, settings):
    """The page's script keeps the text and says why beside the input (static/js/group-chat.js); the
    plain form still gets the page back with the refusal at its top."""
    settings.CHAT_MESSAGES_PER_MINUTE = 1
    ann = make_user("ann")
    group = groups.group_create(creator=ann, name="Dice")
    client = Client()
    client.force_login(ann)
    address = reverse("chat:group_post", args=[group.pk])
    script = {"HTTP_ACCEPT": "application/json"}
    too_long = client.post(address, {"text": "x" * 501}, **script)
    assert too_long.status_code == 400
    assert too_long.json() == {"code": "bad_request", "error": "A chat message is at most 500 characters."}
    sent = client.post(address, {"text": "Friday?"}, **script)
    assert sent.status_code == 201
    assert sent.json()["message"] == json.loads(json.dumps(Message.objects.get().as_dict()))
    refused = client.post(address, {"text": "Saturday?"}, **script)
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "rate_limited" and body["retry_after"] >= 1
    assert refused["Retry-After"] == str(body["retry_after"])
    assert body["error"] == f"You are writing too fast: wait {body['retry_after']} s."
    browser = {"HTTP_ACCEPT": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    assert client.post(address, {"text": "Sunday?"}, **browser).status_code == 302
    assert Message.objects.count() == 1


@pytest.mark.asyncio
async def test_a_table_message_reaches_every_socket_and_the_next_snapshot(make_user):
    ann, bob, cid = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob", "cid")]
    game = await database_sync_to_async(tables.game_create)(creator=ann, kind="farkle", seats=2)
    await database_sync_to_async(tables.game_join)(game_id=game.pk, user=bob)
    await database_sync_to_async(tables.game_start)(game_id=game.pk, user=ann)
    tabs = [Tab(u, game.pk) for u in (ann, bob, cid)]  # cid watches
    try:
        for tab in tabs:
            await tab.open()
        await tabs[2].comm.send_json_to({"type": "say", "text": "let me in"})
        assert (await tabs[2].next("error"))["code"] == "forbidden"  # spectators read
        await tabs[1].comm.send_json_to({"type": "say", "text": "  good luck\nboth  "})
        for tab in tabs:
            message = (await tab.next("chat"))["message"]
            assert (message["user"], message["text"], message["removed"]) == ("bob", "good luck both", False)
        await tabs[0].comm.send_json_to({"type": "say", "text": "x" * 600})
        assert (await tabs[0].next("error"))["code"] == "bad_request"
        late = Tab(bob, game.pk)
        snapshot = await late.open()
        assert [m["text"] for m in snapshot["chat"]] == ["good luck both"]
        await late.comm.disconnect()
    finally:
        for tab in tabs:
            await tab.comm.disconnect()


@pytest.mark.asyncio
async def test_a_refused_table_message_names_the_say_it_refuses(make_user, settings):
    """The page puts the refusal beside its chat and the text back in the input: the error carries the
    say's id, and writing too fast its wait."""
    settings.CHAT_MESSAGES_PER_MINUTE = 1
    ann = await database_sync_to_async(make_user)("ann")
    game = await database_sync_to_async(tables.game_create)(creator=ann, kind="farkle", seats=1)
    tab = Tab(ann, game.pk)
    try:
        await tab.open()
        await tab.comm.send_json_to({"type": "say", "id": "p-1", "text": "x" * 501})
        refused = await tab.next("error")
        assert (refused["id"], refused["code"]) == ("p-1", "bad_request")
        await tab.comm.send_json_to({"type": "say", "id": "p-2", "text": "first"})
        assert (await tab.next("chat"))["message"]["text"] == "first"
        await tab.comm.send_json_to({"type": "say", "id": "p-3", "text": "second"})
        refused = await tab.next("error")
        assert (refused["id"], refused["code"]) == ("p-3", "rate_limited")
        assert refused["retry_after"] >= 1 and f"wait {refused['retry_after']} s" in refused["message"]
        await tab.comm.send_json_to({"type": "say", "text": "third"})  # without an id, as before
        assert (await tab.next("error"))["id"] is None
    finally:
        await tab.comm.disconnect()


@pytest.mark.asyncio
async def test_a_group_message_reaches_every_members_page_live(make_user):
    ann, bob, eve = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob", "eve")]
    group = await database_sync_to_async(groups.group_create)(creator=ann, name="Dice")
    await database_sync_to_async(groups.group_add_member)(group_id=group.pk, user=ann, username="bob")
    headers = {u.username: Header(u) for u in (ann, bob, eve)}
    try:
        for h in headers.values():
            await h.open()
        message = await database_sync_to_async(services.post_to_group)(
            group_id=group.pk, user=ann, text="Friday?"
        )
        for name in ("ann", "bob"):
            got = await headers[name].next()
            assert got == {
                "type": "group_chat",
                "group": group.pk,
                "message": json.loads(json.dumps(message.as_dict())),
            }
        assert await headers["eve"].quiet()
    finally:
        for h in headers.values():
            await h.comm.disconnect()


def test_the_replay_shows_the_tables_chat(make_user):
    ann = make_user("ann")
    game = tables.game_create(creator=ann, kind="farkle", seats=1)
    services.post_to_game(game_id=game.pk, user=ann, text="solo and proud")
    tables.game_apply_action(game_id=game.pk, user=ann, client_id="r", action={"type": "resign"})
    client = Client()
    client.force_login(ann)
    page = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert "Chat at the table" in page and "solo and proud" in page
