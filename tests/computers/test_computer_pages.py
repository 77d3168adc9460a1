"""The pages' side of computer players: play now from the lobby, the waiting room's buttons, the badge,
and the game page's question whether the worker is playing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Game
from games.tables import services

pytestmark = pytest.mark.django_db


def test_play_now_against_the_computer_from_the_lobby(user_client, user):
    page = user_client.get(reverse("games:lobby"))
    assert b"Play now against the computer" in page.content
    data = {"kind": "farkle", "strength": "expert", "seats": "2", "computers": "1", "absence_limit": "120"}
    response = user_client.post(reverse("games:new"), data)
    game = Game.objects.get()
    assert response["Location"] == game.get_absolute_url()
    assert game.status == Game.Status.PLAYING
    assert game.state["players"] == [user.username, "computer-expert-1"]
    page = user_client.get(game.get_absolute_url())
    assert page.status_code == 200


def test_the_new_game_form_seats_computers_and_waits_for_friends(user_client):
    data = {"kind": "painted-dicez", "seats": "4", "computers": "2", "strength": "easy"}
    data["absence_limit"] = "120"
    user_client.post(reverse("games:new"), data)
    game = Game.objects.get()
    assert game.status == Game.Status.OPEN
    page = user_client.get(game.get_absolute_url()).content.decode()
    assert page.count("computer · easy") == 2
    assert 'aria-label="Remove computer-easy-2"' in page
    assert "Add a computer player" in page


def test_the_host_adds_and_removes_a_computer_from_the_waiting_room(user_client, user):
    game = services.game_create(creator=user, kind="farkle", seats=3)
    user_client.post(reverse("games:add_computer", args=[game.pk]), {"strength": "expert"})
    assert [s.user.username for s in game.seats.all()] == [user.username, "computer-expert-1"]
    user_client.post(reverse("games:remove_computer", args=[game.pk]), {"username": "computer-expert-1"})
    assert [s.user.username for s in game.seats.all()] == [user.username]


def test_the_badge_shows_in_lists_of_games(user_client, user):
    services.game_create(creator=user, kind="farkle", seats=2, computers=1, strength="good")
    page = user_client.get(reverse("games:mine")).content.decode()
    assert "computer · good" in page


def test_the_game_page_asks_whether_the_computers_wait_for_the_worker(user_client, user, settings):
    settings.COMPUTER_OVERDUE = 4
    game = services.game_create(creator=user, kind="triple-quintzee", seats=2, computers=1, strength="easy")
    computers = reverse("games:computers", args=[game.pk])
    assert user_client.get(computers).json() == {"seq": 0, "waiting_for_worker": False}  # the person
    state = dict(Game.objects.get(pk=game.pk).state, current="computer-easy-1")
    past = timezone.now() - timedelta(seconds=30)
    Game.objects.filter(pk=game.pk).update(state=state, turn_started_at=past, started_at=past)
    # A computer to move, no task and 30 seconds without a move: the worker is not playing.
    assert user_client.get(computers).json() == {"seq": 0, "waiting_for_worker": True}
