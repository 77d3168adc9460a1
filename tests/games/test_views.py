"""Lobby pages: create (Farkle options, solo), invite link, open tables, join, leave, start, your games."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.tables import services

pytestmark = pytest.mark.django_db


def test_lobby_requires_login(client):
    response = client.get(reverse("games:lobby"))
    assert response.status_code == 302 and reverse("accounts:login") in response["Location"]


def test_create_farkle_game_with_options(client, ann):
    client.force_login(ann)
    assert client.get(reverse("games:lobby")).status_code == 200
    response = client.post(
        reverse("games:new"), {"kind": "farkle", "seats": 3, "goal": 5000, "dice": 5, "absence_limit": 60}
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("games:detail", args=[game.pk])
    assert (game.kind, game.options, game.max_seats, game.absence_limit) == (
        "farkle",
        {"goal": 5000, "dice": 5},
        3,
        60,
    )
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert f"/games/{game.pk}/".encode() in page.content  # the invite link


@pytest.mark.parametrize(
    "kind", ["triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee", "farkle"]
)
def test_solo_game_of_every_kind_starts_at_once(client, ann, kind):
    client.force_login(ann)
    client.post(
        reverse("games:new"), {"kind": kind, "seats": 1, "goal": 10000, "dice": 6, "absence_limit": 120}
    )
    game = Game.objects.get()
    assert game.status == Game.Status.PLAYING and game.options == (
        {"goal": 10000, "dice": 6} if kind == "farkle" else {}
    )


def test_bad_create_form_is_refused(client, ann):
    client.force_login(ann)
    response = client.post(reverse("games:new"), {"kind": "chess", "seats": 9, "absence_limit": 1})
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_open_tables_join_leave_start(client, ann, bob):
    game = services.game_create(creator=ann, kind="painted-dicez", seats=2)
    client.force_login(bob)
    lobby = client.get(reverse("games:lobby"))
    assert f"/games/{game.pk}/".encode() in lobby.content
    client.post(reverse("games:join", args=[game.pk]))
    assert game.seats.filter(user=bob).exists()
    client.post(reverse("games:leave", args=[game.pk]))
    assert not game.seats.filter(user=bob).exists()
    client.post(reverse("games:join", args=[game.pk]))
    response = client.post(reverse("games:start", args=[game.pk]))  # bob is not the host
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and response.status_code == 302
    client.force_login(ann)
    client.post(reverse("games:start", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert f"/games/{game.pk}/".encode() not in client.get(reverse("games:lobby")).content


def test_your_games_lists_games_waiting_for_you_first(client, ann, bob):
    mine = services.game_create(creator=ann, kind="farkle", seats=2)
    services.game_join(game_id=mine.pk, user=bob)
    services.game_start(game_id=mine.pk, user=ann)  # ann to move
    theirs = services.game_create(creator=bob, kind="farkle", seats=2)
    services.game_join(game_id=theirs.pk, user=ann)
    services.game_start(game_id=theirs.pk, user=bob)  # bob to move
    client.force_login(ann)
    page = client.get(reverse("games:mine"))
    assert [g.pk for g in page.context["your_turn"]] == [mine.pk]
    assert [g.pk for g in page.context["playing"]] == [theirs.pk]
    html = page.content.decode()
    assert html.index("Waiting for your turn") < html.index("In progress")
    assert html.index(f"#{mine.pk}<") < html.index(f"#{theirs.pk}<")
    home = client.get(reverse("home"))
    assert [g.pk for g in home.context["your_turn"]] == [mine.pk]


def test_play_again_view(client, ann, bob):
    game = services.game_create(creator=ann, kind="farkle", seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    services.game_apply_action(game_id=game.pk, user=ann, client_id="r", action={"type": "resign"})
    client.force_login(bob)
    response = client.post(reverse("games:again", args=[game.pk]))
    new = Game.objects.exclude(pk=game.pk).get()
    assert response["Location"] == reverse("games:detail", args=[new.pk])
    assert [s.user for s in new.seats.all()] == [bob]  # ann is invited: her press seats her
    client.force_login(ann)
    assert client.post(reverse("games:again", args=[game.pk]))["Location"] == response["Location"]
    new.refresh_from_db()
    assert new.state["players"] == ["bob", "ann"]
