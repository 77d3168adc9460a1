"""Moderation: the reports grouped by player for the staff alone, and each decision logged, told to
its player and in force (a chat mute, a bar from rated play, a closed account)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from chat import services as chat
from games.errors import BadRequest, Forbidden
from games.models import Game
from games.tables import services as tables
from notices.models import Notice
from pairing import services as pairing
from pairing.models import Seek
from play import challenge
from safety import services
from safety.models import Decision, Report
from tests.factories import started_farkle_pair

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh(fresh_limits):
    """Each test counts its own chat lines and reports (ids repeat between tests on SQLite)."""


def _reported(make_user):
    game_id, mover = started_farkle_pair(make_user)
    ann, bob = (type(mover).objects.get(username=n) for n in ("ann", "bob"))
    cy, mod = make_user("cy"), make_user("rita", is_staff=True)
    line = chat.post_to_game(game_id=game_id, user=bob, text="idiot")
    services.report(reporter=ann, username="bob", reason="chat", text="insults", message_id=line.pk)
    services.report(reporter=cy, username="bob", reason="unfair", text="stalls", game_id=game_id)
    return game_id, ann, bob, cy, mod


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_staff_see_reports_grouped_by_player_with_their_messages_and_games(make_user):
    game_id, _ann, _bob, _cy, mod = _reported(make_user)
    assert services.reported_players()[0] | {"latest": None} == {
        "username": "bob", "reports": 2, "reporters": 2, "latest": None,
        "reasons": ["Abuse in chat", "Unfair play, such as stalling"],
    }  # fmt: skip
    client = _client(mod)
    listing = client.get(reverse("safety:moderation"))
    assert listing.status_code == 200 and 'data-player="bob"' in listing.content.decode()
    page = client.get(reverse("safety:moderation_player", args=["bob"])).content.decode()
    assert "idiot" in page and "insults" in page and "stalls" in page and f"/games/{game_id}/" in page
    assert "ann" in page  # the staff see who reported


def test_a_player_cannot_see_moderation_and_a_visitor_is_sent_to_sign_in(make_user):
    _game_id, ann, bob, _cy, _mod = _reported(make_user)
    for user in (ann, bob):
        for address in (reverse("safety:moderation"), reverse("safety:moderation_player", args=["bob"])):
            assert _client(user).get(address).status_code == 403
        refused = _client(user).post(
            reverse("safety:moderation_player", args=["bob"]), {"kind": "warn", "reason": "x"}
        )
        assert refused.status_code == 403
    anonymous = Client().get(reverse("safety:moderation"))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    with pytest.raises(Forbidden):
        services.decide(moderator=ann, username="bob", kind="warn", reason="x")
    assert not Decision.objects.exists()


def test_a_warning_is_logged_told_and_handles_the_open_reports(make_user):
    _game_id, ann, bob, _cy, mod = _reported(make_user)
    response = _client(mod).post(
        reverse("safety:moderation_player", args=["bob"]), {"kind": "warn", "reason": "Be kind at the table."}
    )
    assert response.status_code == 302
    decision = Decision.objects.get()
    assert (decision.player, decision.moderator, decision.kind, decision.reason) == (
        bob, mod, "warn", "Be kind at the table.",
    )  # fmt: skip
    notice = Notice.objects.filter(user=bob).latest("pk")
    assert notice.message == "A moderator warned you: Be kind at the table."
    assert "rita" not in notice.message
    assert not Report.objects.filter(handled_at=None).exists()
    assert services.reported_players() == []
    # A report made after the decision is open again, and may repeat the earlier one.
    services.report(reporter=ann, username="bob", reason="chat", text="again", message_id=None)
    assert services.reported_players()[0]["reports"] == 1


def test_a_chat_mute_holds_for_its_time_and_is_told(make_user):
    game_id, _ann, bob, _cy, mod = _reported(make_user)
    services.decide(moderator=mod, username="bob", kind="mute", reason="Insults.", hours=24)
    with pytest.raises(Forbidden, match="muted you"):
        chat.post_to_game(game_id=game_id, user=bob, text="hello")
    assert "muted you in chat until" in Notice.objects.filter(user=bob).latest("pk").message
    services.decide(moderator=mod, username="bob", kind="lift", reason="Served.")
    chat.post_to_game(game_id=game_id, user=bob, text="hello")


def test_a_bar_from_rated_play_refuses_pairing_challenges_and_rated_tables(make_user):
    _game_id, ann, bob, _cy, mod = _reported(make_user)
    dan = make_user("dan")
    pairing.seek_create(user=bob, kind="farkle", options={"goal": 3000})
    services.decide(moderator=mod, username="bob", kind="bar", reason="Engine help.", hours=7 * 24)
    bob.refresh_from_db()
    assert not Seek.objects.filter(user=bob, status=Seek.Status.WAITING).exists()
    with pytest.raises(Forbidden, match="barred you from rated games"):
        pairing.seek_create(user=bob, kind="farkle", options={"goal": 3000})
    with pytest.raises(Forbidden, match="barred you"):
        challenge.challenge_create(challenger=bob, username="dan", kind="farkle")
    with pytest.raises(Forbidden, match="cannot play rated games"):
        challenge.challenge_create(challenger=dan, username="bob", kind="farkle")
    with pytest.raises(Forbidden, match="barred you"):
        tables.game_create(creator=bob, kind="farkle", seats=2)
    rated = tables.game_create(creator=dan, kind="farkle", seats=2)
    with pytest.raises(Forbidden, match="barred you"):
        tables.game_join(game_id=rated.pk, user=bob)
    # Unrated games and solo play stay open to them.
    unrated = tables.game_create(creator=dan, kind="farkle", seats=2, rated=False)
    tables.game_join(game_id=unrated.pk, user=bob)
    tables.game_create(creator=bob, kind="farkle", seats=1)
    assert ann


def test_a_barred_player_asking_on_two_tabs_gets_a_clear_refusal_on_both(make_user):
    _game_id, _ann, bob, _cy, mod = _reported(make_user)
    services.decide(moderator=mod, username="bob", kind="bar", reason="Engine help.", hours=24)
    bob.refresh_from_db()
    tabs = [_client(bob), _client(bob)]
    form = {
        "kind": "farkle",
        "goal": "3000",
        "dice": "6",
        "seats": "2",
        "pace": "live",
        "computers_after": "",
    }
    for tab in tabs:
        tab.get(reverse("pairing:now"))
    answers = [tab.post(reverse("pairing:ask"), form) for tab in tabs]
    for answer in answers:
        assert answer.status_code == 400
        assert "A moderator barred you from rated games until" in answer.content.decode()
    assert not Seek.objects.filter(user=bob).exists()


def test_closing_an_account_signs_it_out_and_gives_up_its_games(make_user):
    game_id, _ann, bob, _cy, mod = _reported(make_user)
    client = _client(bob)
    services.decide(moderator=mod, username="bob", kind="close", reason="Abuse after warnings.")
    bob.refresh_from_db()
    assert not bob.is_active
    assert Game.objects.get(pk=game_id).status in Game.OVER
    assert client.get(reverse("games:mine")).status_code == 302  # signed out
    assert Decision.objects.get().kind == "close"
    with pytest.raises(Forbidden):
        services.decide(moderator=mod, username="rita", kind="close", reason="me")


@pytest.mark.parametrize(
    "form",
    [
        {"kind": "ban", "reason": "x"},
        {"kind": "warn", "reason": ""},
        {"kind": "warn", "reason": "a\x00b"},
        {"kind": "warn", "reason": "x" * 100_000},
        {"kind": "mute", "reason": "x"},
        {"kind": "mute", "reason": "x", "hours": "5"},
        {"kind": "bar", "reason": "x", "hours": "9" * 5000},
    ],
)
def test_a_bad_decision_is_a_clear_400(make_user, form):
    _reported_world = _reported(make_user)
    mod = _reported_world[-1]
    response = _client(mod).post(reverse("safety:moderation_player", args=["bob"]), form)
    assert response.status_code == 400
    assert not Decision.objects.exists()


def test_a_decision_about_nobody_is_not_found(make_user):
    mod = make_user("rita", is_staff=True)
    assert _client(mod).get(reverse("safety:moderation_player", args=["nobody"])).status_code == 404
    with pytest.raises(BadRequest):
        services.decide(moderator=mod, username="rita", kind="nope", reason="x")
