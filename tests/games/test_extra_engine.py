"""Proof that a game is declared in one place: a test-only engine (tests/games/extra/two_boxes.py),
registered with one line, is offered in the lobby, played live over the websocket, and shows up in the
history, the statistics page and API, the high-score list and API, and the replay; it has a rules page
with its boxes, a computer opponent, hints and the coach's reviews, all from what the engine declares
(games/declaration.py)."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from coach import services as coach
from coach.models import SeatReview
from games import rules
from games.models import Game
from games.results.replays import game_verify_replay
from tests.games.extra import two_boxes
from tests.games.sockets import Client, play_out_with_hints

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

    # The coach reviews both people: every score after a first roll was a decision (rolls were left).
    assert await database_sync_to_async(coach.review_game)(game_id=game.pk) == "reviewed"
    reviewed = await _reviewed(game)
    assert reviewed["ann"] == ["score Pairs (+10)", "score Sum (+14)"]
    assert reviewed["bob"] == ["score Sum (+28)", "score Pairs (+0)"]


async def _reviewed(game: Game) -> dict[str, list[str]]:
    """Each reviewed seat's decisions in words, with every figure of the review in range."""
    reviews = [r async for r in SeatReview.objects.filter(review__game=game).select_related("user")]
    for review in reviews:
        assert review.decision_count == len(review.decisions)
        for d in review.decisions:
            assert d["cost"] >= 0 and 0 < d["accuracy"] <= 100 and d["expert_text"], d
    return {r.user.username: [d["text"] for d in r.decisions] for r in reviews}


async def test_a_registered_engine_has_a_rules_page_with_its_boxes(registered, client):
    response = await database_sync_to_async(client.get)(reverse("games:rules", args=["two-boxes"]))
    assert response.status_code == 200
    page = response.content.decode()
    assert '<h1 id="rules-title">Two Boxes: how to play</h1>' in page
    assert two_boxes.pitch in page
    # Every box, labelled as the engine labels it, with an example roll the engine values.
    assert '<th scope="row">Sum</th><td>' in page and '<th scope="row">Pairs</th><td>' in page
    assert '<td class="num">28</td>' in page and '<td class="num">20</td>' in page
    assert "Ranked by final total." in page


async def test_a_registered_engine_is_played_against_a_computer_with_hints_and_reviewed(
    registered, make_user
):
    """From the lobby's form with a computer: ann plays every move the Hint button gives her, the
    computer plays its own through the worker's task, and the review agrees with every hint."""
    ann = await database_sync_to_async(make_user)("ann")
    ann_web = await _signed_in(ann)
    created = await ann_web.post(
        reverse("games:new"), {"kind": "two-boxes", "seats": 2, "computers": 1, "strength": "expert"}
    )
    game = await Game.objects.aget(kind="two-boxes")
    assert created.status_code == 302 and game.status == Game.Status.PLAYING
    computer = "computer-expert-1"
    tab = Client(ann, game.pk)
    await tab.open()
    game, hinted = await play_out_with_hints(tab, game, computer, two_boxes)
    assert game.status == Game.Status.FINISHED
    assert await database_sync_to_async(game_verify_replay)(game_id=game.pk)
    seats = {s.user.username: s async for s in game.seats.select_related("user")}
    assert set(seats) == {"ann", computer}
    # The computer filled both of its boxes (a score is the engine's own, never below 0).
    assert all(box is not None for box in game.state["cards"][computer]["boxes"].values())

    # ann had a decision at least once a turn, after her first roll.
    assert len(hinted) >= 2
    assert await database_sync_to_async(coach.review_game)(game_id=game.pk) == "reviewed"
    # The computer is not reviewed; ann's every decision is the expert's own: nothing lost.
    assert await _reviewed(game) == {"ann": hinted}
    review = await SeatReview.objects.aget(review__game=game)
    assert review.total_cost == 0 and review.accuracy == 100
