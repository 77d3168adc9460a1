"""Proof that a game is declared in one place: a test-only engine (tests/games/extra/two_boxes.py),
registered with one line, is offered in the lobby, played live over the websocket, and shows up in the
history, the statistics page and API, the high-score list and API, and the replay."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from games import rules
from games.models import Game
from tests.games.extra import two_boxes
from tests.games.sockets import Client

pytestmark = pytest.mark.django_db(transaction=True)

ROLLS = ([1, 1, 2, 3, 4], [6, 6, 6, 5, 5], [2, 2, 3, 3, 4], [1, 2, 3, 4, 6])
TURNS = (("ann", "pairs", 10), ("bob", "sum", 28), ("ann", "sum", 14), ("bob", "pairs", 0))


@pytest.fixture
def registered():
    rules.register(two_boxes)
    yield two_boxes
    rules.unregister(two_boxes.slug)


async def _signed_in(user) -> AsyncClient:
    web = AsyncClient()
    await web.aforce_login(user)
    return web


async def _page(web: AsyncClient, url: str, **params) -> str:
    response = await web.get(url, params)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


async def _table(ann_web: AsyncClient, bob_web: AsyncClient) -> Game:
    lobby = await _page(ann_web, reverse("games:lobby"))
    assert '<option value="two-boxes">Two Boxes</option>' in lobby
    created = await ann_web.post(
        reverse("games:new"), {"kind": "two-boxes", "seats": 2, "absence_limit": 120}
    )
    game = await Game.objects.aget(kind="two-boxes")
    assert created.status_code == 302 and created.url == game.get_absolute_url()
    assert "Two Boxes" in await _page(bob_web, game.get_absolute_url())
    await bob_web.post(reverse("games:join", args=[game.pk]))
    await ann_web.post(reverse("games:start", args=[game.pk]))
    return await Game.objects.aget(pk=game.pk)


async def _play(game: Game, seats: dict[str, Client]) -> None:
    """Every turn by the player to move; each event reaches both seats with the same text."""
    for player, box, points in TURNS:
        for action in ({"type": "roll", "hold": []}, {"type": "score", "box": box}):
            reply = await seats[player].act(action)
            assert reply["type"] == "ack", reply
            events = {name: await tab.until_seq(reply["seq"]) for name, tab in seats.items()}
            texts = {name: event["result"]["text"] for name, event in events.items()}
            assert len(set(texts.values())) == 1, texts
        assert f"{player} scored {points} in {two_boxes.LABELS[box]}." in texts[player]
    assert "The game is over: bob wins." in texts["bob"]


async def test_a_registered_engine_is_played_and_counted_everywhere(registered, make_user, scripted_dice):
    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()
    ann_web, bob_web = await _signed_in(ann), await _signed_in(bob)
    game = await _table(ann_web, bob_web)
    assert game.status == Game.Status.PLAYING
    scripted_dice(*ROLLS)
    seats = {"ann": Client(ann, game.pk), "bob": Client(bob, game.pk)}
    try:
        for tab in seats.values():
            snapshot = await tab.open()
            assert snapshot["game"]["kind"] == "two-boxes"
            # The browser draws it with the card view from the sheet the engine declares.
            assert (snapshot["game"]["view"], snapshot["game"]["sheet"]) == ("cards", two_boxes.SHEET)
        await _play(game, seats)
    finally:
        for tab in seats.values():
            await tab.close()
    game = await Game.objects.aget(pk=game.pk)
    assert game.status == Game.Status.FINISHED

    history = await _page(ann_web, reverse("players:history", args=["ann"]), kind="two-boxes")
    assert f"Two Boxes #{game.pk}" in history

    stats_page = await _page(ann_web, reverse("players:stats", args=["ann"]), kind="two-boxes")
    assert '<dd data-stat="games">1</dd>' in stats_page
    assert '<th scope="row">Pairs</th>' in stats_page
    stats = json.loads(await _page(ann_web, reverse("api_player_stats", args=["ann"]), kind="two-boxes"))
    assert (stats["games"], stats["wins"], stats["best"]) == (1, 0, 24)
    assert stats["card"]["average_per_box"] == {"sum": 14.0, "pairs": 10.0}

    board_page = await _page(bob_web, reverse("highscores"), kind="two-boxes")
    assert "<caption>Two Boxes</caption>" in board_page
    board = json.loads(await _page(bob_web, reverse("api_highscores"), kind="two-boxes"))
    assert [(e["rank"], e["player"], e["score"]) for e in board["entries"]] == [
        (1, "bob", 28),
        (2, "ann", 24),
    ]

    replay = await _page(bob_web, reverse("games:replay", args=[game.pk]))
    assert f'Two Boxes <span class="muted">#{game.pk}</span>' in replay
