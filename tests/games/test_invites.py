"""A game's link opened signed out: the invitation page, and sign-up or sign-in straight into the seat
(groups/invites.py); full, started and members-only games are told, not joined."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Game, Seat
from games.tables import services
from groups import invites
from groups import services as group_services

pytestmark = pytest.mark.django_db

PASSWORD = "dice-are-nice-42"


@pytest.fixture
def table(ann):
    return services.game_create(creator=ann, kind="farkle", seats=2, options={"goal": 3000})


def game_url(game) -> str:
    return reverse("games:detail", args=[game.pk])


def sign_up(client, next_url: str | None = None, username: str = "bob"):
    query = f"?{urlencode({'next': next_url})}" if next_url else ""
    return client.post(
        reverse("accounts:signup") + query,
        {"username": username, "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )


def log_in(client, username: str, next_url: str | None = None):
    query = f"?{urlencode({'next': next_url})}" if next_url else ""
    return client.post(reverse("accounts:login") + query, {"username": username, "password": PASSWORD})


def seated(game) -> list[str]:
    return list(game.seats.order_by("position").values_list("user__username", flat=True))


def said(response) -> list[str]:
    return [m.message for m in get_messages(response.wsgi_request)]


# --- the page ----------------------------------------------------------------------------------------


def test_signed_out_the_link_says_who_invites_to_what(client, table):
    page = client.get(game_url(table))
    assert page.status_code == 200
    html = page.content.decode()
    assert "ann</span> invites you to play Farkle (3000)" in html
    assert "Goal 3000 · 6 dice" in html
    assert "1 of 2 taken · 1 free" in html
    next_query = urlencode({"next": game_url(table)})
    assert f'href="{reverse("accounts:signup")}?{next_query}">Sign up to take your seat</a>' in html
    assert f'href="{reverse("accounts:login")}?{next_query}">Log in</a>' in html
    assert client.session[invites.SESSION_KEY]["game"] == table.pk


def test_signed_out_a_group_game_shows_nothing_of_itself(client, ann):
    """A private game's link, signed out, is the sign-in, as a missing game's is; no host, no
    group, no invitation remembered (the sign-in page would name its host and game)."""
    group = group_services.group_create(creator=ann, name="Friday dice")
    game = services.game_create(creator=ann, kind="farkle", seats=3, group=group)
    response = client.get(game_url(game))
    assert response.status_code == 302 and response["Location"].startswith(reverse("accounts:login"))
    html = client.get(response["Location"]).content.decode()
    assert "Friday dice" not in html and "invites you" not in html
    assert invites.SESSION_KEY not in client.session


def test_signed_out_a_started_game_has_no_seat_to_offer(client, table, make_user):
    services.game_join(game_id=table.pk, user=make_user("cid"))
    services.game_start(game_id=table.pk, user=table.creator)
    html = client.get(game_url(table)).content.decode()
    assert "This game has already started." in html
    assert "Sign up to take your seat" not in html
    assert invites.SESSION_KEY not in client.session


def test_signed_in_and_not_seated_sees_the_waiting_room_unchanged(client, table, make_user):
    client.force_login(make_user("bob", password=PASSWORD))
    html = client.get(game_url(table)).content.decode()
    assert "Join this game" in html and "Waiting for players (1/2)" in html
    assert invites.SESSION_KEY not in client.session
    assert seated(table) == ["ann"]


def test_the_waiting_room_offers_copy_and_share_without_inline_handlers(client, table, ann):
    client.force_login(ann)
    html = client.get(game_url(table)).content.decode()
    assert 'aria-label="Invite link"' in html and f'value="http://testserver{game_url(table)}"' in html
    # Both buttons are shown by share.js once wired, Share only where navigator.share is.
    assert "data-share-copy hidden>Copy link</button>" in html
    assert "data-share-send hidden>Share</button>" in html
    assert "js/share.js" in html
    assert "onclick" not in html and "{#" not in html and "comment" not in html


@pytest.mark.parametrize("page", ["accounts:signup", "accounts:login"])
def test_the_sign_up_and_sign_in_pages_recall_the_invitation(client, table, page):
    note = "ann invites you to play Farkle (3000): you take your seat as soon as you are in."
    assert note not in client.get(reverse(page)).content.decode()
    client.get(game_url(table))
    assert note in client.get(reverse(page), {"next": game_url(table)}).content.decode()
    table.status = Game.Status.ABANDONED
    table.save(update_fields=["status"])
    assert "invites you" not in client.get(reverse(page)).content.decode()  # nothing left to join


# --- into the seat -----------------------------------------------------------------------------------


def test_sign_up_from_the_invitation_lands_seated(client, table):
    client.get(game_url(table))
    response = sign_up(client, game_url(table))
    assert response.status_code == 302 and response["Location"] == game_url(table)
    assert seated(table) == ["ann", "bob"]
    assert said(response) == ["Welcome, bob!", "You have a seat. Wait for the start."]
    assert invites.SESSION_KEY not in client.session  # used once
    page = client.get(game_url(table)).content.decode()
    assert "Waiting for players (2/2)" in page and "Leave</button>" in page


def test_log_in_from_the_invitation_lands_seated(client, table, make_user):
    make_user("bob", password=PASSWORD)
    client.get(game_url(table))
    response = log_in(client, "bob", game_url(table))
    assert response.status_code == 302 and response["Location"] == game_url(table)
    assert seated(table) == ["ann", "bob"]
    assert said(response) == ["You have a seat. Wait for the start."]


def test_an_unsafe_next_is_ignored_and_the_invitation_still_lands_in_the_game(client, table):
    client.get(game_url(table))
    response = sign_up(client, "https://evil.example/steal")
    assert response["Location"] == game_url(table)
    assert seated(table) == ["ann", "bob"]


def test_an_unsafe_next_without_an_invitation_goes_home(client, make_user):
    make_user("bob", password=PASSWORD)
    response = log_in(client, "bob", "//evil.example/x")
    assert response["Location"] == reverse("home")


def test_a_game_that_filled_up_meanwhile_is_told(client, table, make_user):
    client.get(game_url(table))
    services.game_join(game_id=table.pk, user=make_user("cid"))
    response = sign_up(client, game_url(table))
    assert response["Location"] == game_url(table)
    assert seated(table) == ["ann", "cid"]
    assert "You could not take a seat: This game is full." in said(response)


def test_a_game_that_started_meanwhile_is_told_and_can_be_watched(client, table, make_user):
    client.get(game_url(table))
    services.game_join(game_id=table.pk, user=make_user("cid"))
    services.game_start(game_id=table.pk, user=table.creator)
    response = sign_up(client, game_url(table))
    assert response["Location"] == game_url(table)
    assert "You could not take a seat: This game has already started." in said(response)
    assert client.get(game_url(table)).status_code == 200
    assert seated(table) == ["ann", "cid"]


def test_a_group_game_is_for_its_members_only(client, ann):
    group = group_services.group_create(creator=ann, name="Friday dice")
    game = services.game_create(creator=ann, kind="farkle", seats=3, group=group)
    client.get(game_url(game))
    sign_up(client, game_url(game))
    assert seated(game) == ["ann"]
    hidden = client.get(game_url(game))
    assert hidden.status_code == 404 and b"Friday dice" not in hidden.content


def test_a_member_of_the_group_lands_on_the_table_and_joins(client, ann, make_user):
    group = group_services.group_create(creator=ann, name="Friday dice")
    make_user("bob", password=PASSWORD)
    group_services.group_add_member(group_id=group.pk, user=ann, username="bob")
    game = services.game_create(creator=ann, kind="farkle", seats=3, group=group)
    client.get(game_url(game))
    response = log_in(client, "bob", game_url(game))
    assert response["Location"] == game_url(game)
    client.post(reverse("games:join", args=[game.pk]))
    assert seated(game) == ["ann", "bob"]


def test_a_cancelled_and_deleted_game_lands_home(client, table):
    client.get(game_url(table))
    Seat.objects.filter(game=table).delete()
    Game.objects.filter(pk=table.pk).delete()
    response = sign_up(client, game_url(table))
    assert response["Location"] == reverse("home")
    assert "There is no such game." in said(response)


def test_joining_twice_is_harmless(client, table, make_user):
    make_user("bob", password=PASSWORD)
    client.get(game_url(table))
    log_in(client, "bob", game_url(table))
    client.post(reverse("accounts:logout"))
    client.get(game_url(table))
    response = log_in(client, "bob", game_url(table))
    assert response["Location"] == game_url(table)
    assert seated(table) == ["ann", "bob"]
    assert client.post(reverse("games:join", args=[table.pk])).status_code == 302
    assert seated(table) == ["ann", "bob"]


def test_a_stale_invitation_is_forgotten(client, table, make_user, monkeypatch):
    make_user("bob", password=PASSWORD)
    client.get(game_url(table))
    later = invites.time.time() + invites.FRESH_FOR + 1
    monkeypatch.setattr(invites.time, "time", lambda: later)
    response = log_in(client, "bob")
    assert response["Location"] == reverse("home")
    assert seated(table) == ["ann"]


def test_signing_in_without_an_invitation_changes_nothing(client, table, make_user):
    make_user("bob", password=PASSWORD)
    response = log_in(client, "bob", "/highscores/")
    assert response["Location"] == "/highscores/"
    assert seated(table) == ["ann"]
