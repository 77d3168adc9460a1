"""Quintzee on the site, end to end: offered in the lobby, played against its optimal computer with the
Hint button, replayed, counted in the history, statistics and high scores, has a rules page, and its
review finds that every hinted move lost nothing against the optimum. (It began as the extra-engine proof
of tests/games/test_extra_engine.py for a real game, registered inside the test; it is one of
rules.ENGINES now.)"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.test import AsyncClient
from django.urls import reverse

from coach import services as coach
from coach.models import SeatReview
from games.models import Game
from games.results.replays import game_verify_replay
from games.rules import quintzee
from tests.games.sockets import Client, play_out_with_hints

pytestmark = pytest.mark.django_db(transaction=True)


async def _page(web: AsyncClient, url: str, **params) -> str:
    response = await web.get(url, params)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


async def test_quintzee_is_played_against_its_expert_with_hints_and_counted_everywhere(make_user):
    ann = await database_sync_to_async(make_user)("ann")
    web = AsyncClient()
    await web.aforce_login(ann)
    assert '<option value="quintzee">Quintzee</option>' in await _page(web, reverse("games:lobby"))
    created = await web.post(
        reverse("games:new"), {"kind": "quintzee", "seats": 2, "computers": 1, "strength": "expert"}
    )
    game = await Game.objects.aget(kind="quintzee")
    assert created.status_code == 302 and game.status == Game.Status.PLAYING
    computer = "computer-expert-1"
    tab = Client(ann, game.pk)
    snapshot = await tab.open()
    assert (snapshot["game"]["view"], snapshot["game"]["sheet"]) == ("cards", quintzee.SHEET)
    game, hinted = await play_out_with_hints(tab, game, computer, quintzee)
    assert game.status == Game.Status.FINISHED
    assert await database_sync_to_async(game_verify_replay)(game_id=game.pk)
    cards = game.state["cards"]
    assert all(card["complete"] for card in cards.values())

    assert f"Quintzee #{game.pk}" in await _page(
        web, reverse("players:history", args=["ann"]), kind="quintzee"
    )
    stats = json.loads(await _page(web, reverse("api_player_stats", args=["ann"]), kind="quintzee"))
    assert (stats["games"], stats["best"]) == (1, cards["ann"]["total"])
    assert "<caption>Quintzee</caption>" in await _page(web, reverse("highscores"), kind="quintzee")
    replay = await _page(web, reverse("games:replay", args=[game.pk]))
    assert f'Quintzee <span class="muted">#{game.pk}</span>' in replay

    assert len(hinted) >= 13
    assert await database_sync_to_async(coach.review_game)(game_id=game.pk) == "reviewed"
    review = await SeatReview.objects.aget(review__game=game)
    assert [d["text"] for d in review.decisions] == hinted
    assert review.total_cost == 0 and review.accuracy == 100


async def test_quintzee_has_a_rules_page_with_its_boxes_and_the_joker(client):
    response = await database_sync_to_async(client.get)(reverse("games:rules", args=["quintzee"]))
    assert response.status_code == 200
    page = response.content.decode()
    assert '<h1 id="rules-title">Quintzee: how to play</h1>' in page
    assert quintzee.pitch in page
    assert response.templates[0].name == "games/rules/quintzee.html"
    assert '<th scope="row">Full House</th>' in page and '<th scope="row">Quintzee</th>' in page
    assert "<h3>The Joker</h3>" in page
