"""A removed member loses an open websocket to a group game at once."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.tables import services as game_services
from groups import services
from play.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def pair(make_user):
    return make_user("creator"), make_user("member")


async def test_removed_member_socket_is_closed(pair):
    creator, member = pair

    @database_sync_to_async
    def setup():
        group = services.group_create(creator=creator, name="G")
        services.group_add_member(group_id=group.pk, user=creator, username="member")
        game = game_services.game_create(creator=creator, kind="farkle", seats=2, group=group)
        game_services.game_join(game_id=game.pk, user=member)
        game_services.game_start(game_id=game.pk, user=creator)
        return group, game

    group, game = await setup()
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    comm.scope["user"] = member
    connected, _ = await comm.connect()
    assert connected
    await database_sync_to_async(services.group_remove_member)(
        group_id=group.pk, user=creator, member_id=member.pk
    )
    seen = []
    while True:
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            assert output["code"] == 4403
            break
        seen.append(json.loads(output["text"]))
    assert any(m["type"] == "error" and m["code"] == "forbidden" for m in seen)

    again = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    again.scope["user"] = member
    connected, code = await again.connect()
    # As for a game that does not exist: a private game shows nothing of itself.
    assert (connected, code) == (False, 4404)
