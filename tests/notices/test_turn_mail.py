"""Turn e-mails (notices): promised in the move that passes the turn to a player away from the table,
sent once by the worker when due and still wanted, dropped otherwise; and the skip that waits for the
turn to have reached its player."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.core.management import call_command
from django.test import Client
from django.urls import resolve, reverse
from django.utils import timezone

from games import rules
from games.errors import InvalidAction
from games.models import Connection, Game
from games.tables import services
from notices import services as notices
from notices.models import Preferences, TurnMail
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db(transaction=True)


def table(make_user, pace="days", limit=86_400, email="bob@example.com"):
    ann = make_user("ann", email="ann@example.com")
    bob = make_user("bob", email=email)
    game = GameFactory(creator=ann, kind="triple-quintzee", players=[bob], pace=pace, absence_limit=limit)
    return game, ann, bob


def end_turn(game: Game, user, n=[0]):  # noqa: B006 - a counter of client ids across the module
    """The player to move rolls once and scores the first box they may: the turn passes."""
    engine = rules.get(game.kind)
    for kind in ("roll", "score"):
        state = Game.objects.get(pk=game.pk).state
        action = next(a for a in engine.legal_actions(state) if a["type"] == kind)
        n[0] += 1
        services.game_apply_action(game_id=game.pk, user=user, client_id=f"c{n[0]}", action=action)


def at_table(game, user):
    Connection.objects.create(
        game=game, user=user, channel_name=f"chan.{user.pk}.{game.pk}", seen_at=timezone.now()
    )


def worker():
    call_command("worker", batch=True, verbosity=0)


def test_the_turn_passing_to_an_absent_player_promises_one_mail(make_user):
    game, ann, bob = table(make_user)
    at_table(game, ann)
    end_turn(game, ann)
    game.refresh_from_db()
    (promised,) = TurnMail.objects.filter(user=bob)
    assert promised.status == TurnMail.Status.PENDING
    assert promised.turn_started_at == game.turn_started_at
    assert promised.due_at == game.turn_started_at + timedelta(seconds=120)  # TURN_MAIL_DAYS_AFTER


def test_no_mail_is_promised_to_a_player_at_the_table(make_user):
    game, ann, bob = table(make_user)
    at_table(game, ann)
    at_table(game, bob)
    TurnMail.objects.all().delete()
    end_turn(game, ann)
    assert not TurnMail.objects.exists()


def test_a_live_game_mails_after_its_own_limit(make_user):
    game, ann, bob = table(make_user, pace="live", limit=300)
    at_table(game, ann)
    end_turn(game, ann)
    (promised,) = TurnMail.objects.filter(user=bob)
    assert promised.due_at - promised.turn_started_at == timedelta(seconds=300)


def test_the_worker_sends_a_due_mail_once_with_a_link_and_an_unsubscribe(make_user, settings):
    settings.TURN_MAIL_DAYS_AFTER = 0
    game, ann, bob = table(make_user)
    at_table(game, ann)
    end_turn(game, ann)
    worker()
    worker()  # a second run (a restarted worker) sends nothing again
    (sent,) = mail.outbox
    assert sent.to == ["bob@example.com"]
    assert sent.subject == f"Your turn in Triple Quintzee #{game.pk}"
    assert f"{settings.SITE_URL}/games/{game.pk}/" in sent.body
    assert "2 days" not in sent.body and "1 day per turn" in sent.body
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert re.fullmatch(rf"<turn-{game.pk}-{bob.pk}-\d+@dicehall>", sent.extra_headers["Message-ID"])
    assert TurnMail.objects.get(user=bob).status == TurnMail.Status.SENT


def test_mail_not_yet_due_waits_and_a_worker_that_was_down_sends_it_later(make_user, settings):
    game, ann, _bob = table(make_user)
    at_table(game, ann)
    end_turn(game, ann)
    worker()
    assert not mail.outbox  # due in two minutes
    TurnMail.objects.update(due_at=timezone.now() - timedelta(hours=5))  # the worker was down for hours
    worker()
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    "change, why",
    [
        ("moved", "the turn is over"),
        ("no_address", "no address"),
        ("unsubscribed", "does not want e-mail"),
        ("came_back", "at the table"),
        ("on_site", "told on the site"),
    ],
)
def test_a_mail_no_longer_needed_is_dropped(make_user, settings, change, why):
    settings.TURN_MAIL_DAYS_AFTER = 0
    game, ann, bob = table(make_user)
    at_table(game, ann)
    end_turn(game, ann)
    if change == "moved":
        end_turn(game, bob)
    elif change == "no_address":
        bob.email = ""
        bob.save()
    elif change == "unsubscribed":
        Preferences.objects.create(user=bob, email_turns=False)
    elif change == "came_back":
        at_table(game, bob)
    else:
        notices.seen_on_site(bob)
    worker()
    assert not [m for m in mail.outbox if m.to == ["bob@example.com"]]
    dropped = TurnMail.objects.get(
        user=bob, turn_started_at=TurnMail.objects.filter(user=bob).earliest("pk").turn_started_at
    )
    assert (dropped.status, dropped.why) == (TurnMail.Status.DROPPED, why)


def test_leaving_the_table_during_ones_turn_promises_the_mail(make_user):
    from games.live import presence

    game, ann, _bob = table(make_user)
    TurnMail.objects.all().delete()
    Connection.objects.create(game=game, user=ann, channel_name="ann.tab", seen_at=timezone.now())
    presence.connection_close(channel_name="ann.tab", user=ann)
    (promised,) = TurnMail.objects.all()
    assert promised.user == ann


def test_the_first_turn_of_a_game_started_by_another_is_promised(make_user):
    ann = make_user("ann", email="a@example.com")
    bob = make_user("bob", email="b@example.com")
    game = services.game_create(creator=bob, kind="farkle", seats=2, pace="days", absence_limit=86_400)
    services.game_join(game_id=game.pk, user=ann)
    services.game_start(game_id=game.pk, user=bob)
    (promised,) = TurnMail.objects.all()
    assert promised.user == bob  # the creator moves first, and has no page open in this test


def test_unsubscribe_in_one_click_with_the_signed_token(make_user):
    bob = make_user("bob", email="b@example.com")
    token = notices.unsubscribe_token(bob)
    # Mail programs post it without a cookie or a CSRF token (RFC 8058).
    response = Client(enforce_csrf_checks=True).post(
        reverse("notices:unsubscribe", args=[token]),
        "List-Unsubscribe=One-Click",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert not Preferences.objects.get(user=bob).email_turns
    assert Client().get(reverse("notices:unsubscribe", args=[token + "x"])).status_code == 400


def test_following_the_unsubscribe_link_only_asks(make_user, settings):
    """A mail scanner opens every link of a mail: the link's page changes nothing, its button does
    (a form posting back to the same address, with no CSRF token: a signed-out reader has no cookie)."""
    bob = make_user("bob", email="b@example.com", language="de")
    address = reverse("notices:unsubscribe", args=[notices.unsubscribe_token(bob)])
    client = Client(enforce_csrf_checks=True)
    page = client.get(address, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert not Preferences.objects.filter(user=bob).exists()  # nothing written, not even a default row
    text = page.content.decode()
    # In bob's own language, whatever the browser asks for: the link names him.
    assert "<h1>E-Mails zum Zug abbestellen?</h1>" in text and 'lang="de"' in text
    assert re.search(r'<form method="post" class="unsubscribe-form">', text)
    assert "csrfmiddlewaretoken" not in text.split('class="unsubscribe-form"')[1].split("</form>")[0]
    # The language switch at the page's foot is this browser's choice, which the page then follows.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "<h1>Stop the turn e-mails?</h1>" in client.get(address).content.decode()
    stopped = client.post(address)
    assert stopped.status_code == 200
    assert not Preferences.objects.get(user=bob).email_turns
    Preferences.objects.filter(user=bob).update(email_turns=True)
    client.get(address)
    assert Preferences.objects.get(user=bob).email_turns


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_changed_unsubscribe_token_is_refused_on_both(make_user, method):
    bob = make_user("bob", email="b@example.com")
    address = reverse("notices:unsubscribe", args=[notices.unsubscribe_token(bob)[:-2] + "xx"])
    response = getattr(Client(enforce_csrf_checks=True), method)(address)
    assert response.status_code == 400
    assert "This link does not work" in response.content.decode()
    assert not Preferences.objects.filter(user=bob).exists()


def test_the_mail_names_the_one_click_address_in_its_headers(make_user, settings):
    settings.TURN_MAIL_DAYS_AFTER = 0
    game, ann, bob = table(make_user)
    at_table(game, ann)
    end_turn(game, ann)
    worker()
    (sent,) = mail.outbox
    # The token is signed with the time it was made: read bob's id back from the one the mail names.
    address = re.fullmatch(r"<(.+)>", sent.extra_headers["List-Unsubscribe"])[1]
    match = resolve(address.removeprefix(settings.SITE_URL))
    assert match.url_name == "unsubscribe"
    assert signing.loads(match.kwargs["token"], salt=notices.UNSUBSCRIBE_SALT) == bob.pk
    assert sent.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert f"Stop these e-mails: {address}" in sent.body
    # What the mail program does with them: a POST to that address, without cookies.
    path = address.removeprefix(settings.SITE_URL)
    response = Client(enforce_csrf_checks=True).post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert not Preferences.objects.get(user=bob).email_turns


def test_a_pace_over_days_takes_one_to_three_days(make_user):
    ann = make_user("ann")
    with pytest.raises(Exception, match="1, 2 or 3 days"):
        services.game_create(creator=ann, kind="farkle", seats=2, pace="days", absence_limit=3600)


# --- skipping waits for the turn to have reached its player -----------------------------------------


def test_an_absent_player_is_skipped_only_once_the_turn_has_reached_them(make_user, settings):
    settings.TURN_MAIL_DAYS_AFTER = 0
    game, ann, bob = table(make_user, pace="live", limit=10)
    at_table(game, ann)
    end_turn(game, ann)
    long_ago = timezone.now() - timedelta(minutes=5)
    Game.objects.filter(pk=game.pk).update(turn_started_at=long_ago, started_at=long_ago)
    TurnMail.objects.filter(user=bob).update(
        turn_started_at=long_ago, due_at=long_ago + timedelta(seconds=10)
    )
    skip = {"type": "skip"}
    with pytest.raises(InvalidAction, match="has not been told it is their turn yet"):
        services.game_apply_action(game_id=game.pk, user=ann, client_id="s1", action=skip)
    worker()
    assert len(mail.outbox) == 1
    services.game_apply_action(game_id=game.pk, user=ann, client_id="s2", action=skip)


def test_a_player_no_mail_can_reach_is_skipped_after_the_limit(make_user):
    game, ann, _bob = table(make_user, pace="live", limit=10, email="")
    at_table(game, ann)
    end_turn(game, ann)
    long_ago = timezone.now() - timedelta(minutes=5)
    Game.objects.filter(pk=game.pk).update(turn_started_at=long_ago, started_at=long_ago)
    services.game_apply_action(game_id=game.pk, user=ann, client_id="s1", action={"type": "skip"})


# --- nobody waits: no turn e-mail, no "your turn" where no other person sits --------------


def test_a_solo_game_left_during_ones_turn_promises_no_mail(make_user):
    from games.live import presence

    ann = make_user("ann", email="ann@example.com")
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=1)
    Connection.objects.create(game=game, user=ann, channel_name="ann.solo", seen_at=timezone.now())
    presence.connection_close(channel_name="ann.solo", user=ann)
    worker()
    assert not TurnMail.objects.exists()
    assert not mail.outbox


def test_a_game_against_computers_only_mails_nobody(make_user, settings):
    """The computers' moves hand the turn back to a person away from the table: nobody waits for her."""
    settings.TURN_MAIL_DAYS_AFTER = 0
    ann = make_user("ann", email="ann@example.com")
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=3, computers=2, strength="easy")
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
    end_turn(game, ann)  # the turn passes to the computers, who play it in the worker, then back to ann
    worker()
    game.refresh_from_db()
    assert game.current_player == "ann" and game.seq > 2
    assert not TurnMail.objects.exists()
    assert not mail.outbox


def test_a_turn_mail_is_still_promised_when_a_person_waits_beside_computers(make_user):
    ann = make_user("ann", email="ann@example.com")
    bob = make_user("bob", email="bob@example.com")
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=3, computers=1, strength="easy")
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    game = Game.objects.get(pk=game.pk)
    TurnMail.objects.all().delete()  # ann's first turn's
    end_turn(game, ann)  # nobody watching: the computer plays at once
    worker()  # the computer in seat 1 plays, and hands the turn to bob, who is away
    assert Game.objects.get(pk=game.pk).current_player == "bob"
    (promised,) = TurnMail.objects.all()
    assert promised.user == bob


def test_your_turn_lists_only_games_where_another_person_waits(make_user):
    from games.tables import lobby
    from notices import feed

    ann = make_user("ann", email="ann@example.com")
    bob = make_user("bob", email="bob@example.com")
    solo = services.game_create(creator=ann, kind="farkle", seats=1)
    robots = services.game_create(creator=ann, kind="farkle", seats=2, computers=1, strength="easy")
    people = services.game_create(creator=ann, kind="farkle", seats=2)
    services.game_join(game_id=people.pk, user=bob)
    services.game_start(game_id=people.pk, user=ann)
    mine = lobby.my_games(ann)
    assert [g.pk for g in mine["your_turn"]] == [people.pk]
    assert {g.pk for g in mine["playing"]} == {solo.pk, robots.pk}
    frame = feed.feed(ann)
    assert frame["count"] == 1 and [t["game"] for t in frame["turns"]] == [people.pk]
    # A turn that passes live (the notices socket's own update) files the game the same way.
    held = feed.read(ann)
    held.with_turn(feed.Row.of(Game.objects.get(pk=robots.pk)), "ann")
    assert [r.game for r in held.turns] == [people.pk]
    assert robots.pk in [r.game for r in held.playing]
