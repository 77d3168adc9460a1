"""Reporting a player, a chat message or a game: the reasons, the sentence, the block it makes, the
limits, and that the reported player never learns who reported them."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from chat import services as chat
from games.errors import BadRequest, Forbidden, NotFound, RateLimited
from games.tables import services as tables
from groups import services as groups
from notices.models import Notice
from pairing import services as pairing
from pairing.models import Block
from play.challenge import challenge_create
from safety import services
from safety.models import TEXT_MAX, Report
from tests.factories import GameFactory, started_farkle_pair

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh(fresh_limits):
    """Each test counts its own chat lines and reports (ids repeat between tests on SQLite)."""


def _table_message(make_user):
    game_id, _mover = started_farkle_pair(make_user)
    ann, bob = (type(_mover).objects.get(username=n) for n in ("ann", "bob"))
    message = chat.post_to_game(game_id=game_id, user=bob, text="you are a fool")
    return game_id, ann, bob, message


def test_a_report_of_a_message_is_kept_and_blocks_the_writer_for_the_reporter(make_user):
    _game_id, ann, bob, message = _table_message(make_user)

    made, new = services.report(
        reporter=ann, username="bob", reason="chat", text="  insults\n me ", message_id=message.pk
    )

    assert new
    assert (made.reported, made.reason, made.text, made.message, made.subject) == (
        bob, "chat", "insults me", message, f"message:{message.pk}",
    )  # fmt: skip
    assert Block.objects.filter(blocker=ann, blocked=bob).exists()
    assert pairing.seating_block(ann, [bob]) is not None


def test_a_report_of_a_game_and_of_the_player_alone(make_user):
    game_id, ann, bob, _message = _table_message(make_user)

    by_game, _ = services.report(
        reporter=ann, username="bob", reason="unfair", text="stalls", game_id=game_id
    )
    alone, _ = services.report(reporter=ann, username="bob", reason="name", text="rude name")

    assert (by_game.game_id, by_game.subject, alone.subject) == (game_id, f"game:{game_id}", "player")
    assert Block.objects.filter(blocker=ann, blocked=bob).count() == 1


def test_reporting_again_while_open_is_the_same_report_and_not_counted(make_user, settings):
    settings.REPORTS_PER_DAY = 1
    ann, _bob = make_user("ann"), make_user("bob")
    first, new = services.report(reporter=ann, username="bob", reason="name", text="rude name")
    again, new_again = services.report(reporter=ann, username="bob", reason="other", text="still rude")

    assert new and not new_again and again.pk == first.pk
    assert Report.objects.count() == 1


def test_the_reports_of_a_day_are_limited(make_user, settings):
    settings.REPORTS_PER_DAY = 2
    ann = make_user("ann")
    for name in ("bob", "cy"):
        make_user(name)
        services.report(reporter=ann, username=name, reason="name", text="rude name")
    make_user("dan")
    with pytest.raises(RateLimited) as refused:
        services.report(reporter=ann, username="dan", reason="name", text="rude name")
    assert refused.value.retry_after >= 1
    assert Report.objects.count() == 2


def test_oneself_a_computer_or_nobody_cannot_be_reported(make_user):
    ann = make_user("ann")
    make_user("robot", computer="expert")
    with pytest.raises(BadRequest, match="yourself"):
        services.report(reporter=ann, username="ann", reason="name", text="me")
    for name in ("robot", "nobody", "nul\x00", 12):
        with pytest.raises(NotFound):
            services.report(reporter=ann, username=name, reason="name", text="x")
    assert not Report.objects.exists() and not Block.objects.exists()


def test_a_message_or_game_not_the_players_or_not_seen_is_not_found(make_user):
    game_id, ann, _bob, message = _table_message(make_user)
    cy = make_user("cy")
    other = make_user("dan")
    group = groups.group_create(creator=other, name="Closed")
    hidden = chat.post_to_group(group_id=group.pk, user=other, text="members only")
    cases = [
        ("cy", {"message_id": message.pk}),  # bob wrote it, not cy
        ("bob", {"message_id": 10**12}),
        ("bob", {"game_id": 10**12}),
        ("cy", {"game_id": game_id}),  # cy did not play in it
        ("dan", {"message_id": hidden.pk}),  # ann is not in dan's group
    ]
    for name, subject in cases:
        with pytest.raises(NotFound):
            services.report(reporter=ann, username=name, reason="chat", text="x", **subject)
    with pytest.raises(BadRequest):
        services.report(
            reporter=ann, username="bob", reason="chat", text="x", message_id=message.pk, game_id=game_id
        )
    assert cy and not Report.objects.exists()


@pytest.mark.parametrize(
    "reason, text",
    [
        ("spite", "x"),
        ("chat", ""),
        ("chat", "   "),
        ("chat", "a\x00b"),
        ("chat", "x" * (TEXT_MAX + 1)),
        ("chat", 5),
    ],
)
def test_a_bad_reason_or_sentence_is_refused(make_user, reason, text):
    ann, _bob = make_user("ann"), make_user("bob")
    with pytest.raises(BadRequest):
        services.report(reporter=ann, username="bob", reason=reason, text=text)


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif("connection.vendor != 'postgresql'", reason="two transactions at once need PostgreSQL")
def test_the_same_report_twice_at_once_is_made_once(make_user):
    ann, _bob = make_user("ann"), make_user("bob")
    barrier = threading.Barrier(2)
    results, errors = [], []

    def send():
        try:
            barrier.wait()
            results.append(services.report(reporter=ann, username="bob", reason="name", text="rude"))
        except Exception as exc:  # noqa: BLE001 - the test reports whatever a thread raised
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert sorted(new for _report, new in results) == [False, True]
    assert Report.objects.count() == 1 and Block.objects.count() == 1


# --- the pages -------------------------------------------------------------------------------------


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_form_page_about_a_message_and_its_sending(make_user):
    game_id, ann, _bob, message = _table_message(make_user)
    client = _client(ann)
    address = reverse("safety:report", args=["bob"])

    page = client.get(address, {"message": message.pk, "next": f"/games/{game_id}/"})
    assert page.status_code == 200
    assert "you are a fool" in page.content.decode()

    sent = client.post(
        address,
        {"reason": "chat", "text": "insults", "message": message.pk, "next": f"/games/{game_id}/"},
    )
    assert sent.status_code == 302 and sent["Location"] == f"/games/{game_id}/"
    assert Report.objects.get().message == message


@pytest.mark.parametrize(
    "form, status",
    [
        ({"reason": "chat", "text": "a\x00b"}, 400),
        ({"reason": "chat", "text": "x" * 100_000}, 400),
        ({"reason": "nope", "text": "x"}, 400),
        ({"reason": "chat", "text": "x", "message": "9" * 40}, 400),
        ({"reason": "chat", "text": "x", "message": str(10**12)}, 404),
    ],
)
def test_bad_input_to_the_form_is_a_clear_4xx(make_user, form, status):
    ann, _bob = make_user("ann"), make_user("bob")
    response = _client(ann).post(reverse("safety:report", args=["bob"]), form)
    assert response.status_code == status
    assert not Report.objects.exists()


def test_the_pages_of_oneself_and_of_nobody(make_user):
    ann = make_user("ann")
    client = _client(ann)
    assert client.get(reverse("safety:report", args=["nobody"])).status_code == 404
    assert client.get(reverse("safety:report", args=["ann"]), {"message": 10**12}).status_code == 404
    refused = client.post(reverse("safety:report", args=["ann"]), {"reason": "name", "text": "me"})
    assert refused.status_code == 400 and "You cannot report yourself." in refused.content.decode()
    anonymous = Client().get(reverse("safety:report", args=["ann"]))
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("accounts:login"))


def test_the_reported_player_never_learns_who_reported_them(make_user):
    game_id, ann, bob, message = _table_message(make_user)
    notices_before = Notice.objects.filter(user=bob).count()
    services.report(reporter=ann, username="bob", reason="chat", text="insults", message_id=message.pk)
    client = _client(bob)

    download = client.get(reverse("account_data"))
    data = json.loads(download.content)
    pages = [
        client.get(reverse("players:profile", args=["bob"])),
        client.get(reverse("notices:list")),
        client.get(reverse("games:detail", args=[game_id])),
        client.get(reverse("pairing:now")),
    ]

    assert "safety.Report.reported" not in data and "pairing.Block.blocked" not in data
    others = {"reporter_id", "blocker_id", "muter_id", "moderator_id"}
    named = [
        (key, name)
        for key, rows in data.items()
        if isinstance(rows, list)
        for row in rows
        for name, value in row.items()
        if name in others and value == ann.pk
    ]
    assert named == []
    assert Notice.objects.filter(user=bob).count() == notices_before
    for page in pages:
        assert page.status_code == 200
        assert "insults" not in page.content.decode() and "reported" not in page.content.decode()
    # The reporter's own download has the report they made.
    mine = json.loads(_client(ann).get(reverse("account_data")).content)
    assert [row["text"] for row in mine["safety.Report.reporter"]] == ["insults"]


def test_a_finished_games_replay_links_to_a_report_of_each_other_person_at_it(make_user):
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    game = GameFactory(creator=ann, players=[bob], computers=1, moved=True, rated=False)
    for player in (ann, bob):
        tables.game_apply_action(
            game_id=game.pk, user=player, client_id=f"resign-{player.pk}", action={"type": "resign"}
        )
    client = Client()
    client.force_login(ann)
    page = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    link = f'href="/safety/report/bob/?game={game.pk}&amp;next=%2Fgames%2F{game.pk}%2Freplay%2F"'
    assert 'id="report-game"' in page and link in page
    assert "/safety/report/ann/" not in page and "/safety/report/computer" not in page
    form = client.get(f"/safety/report/bob/?game={game.pk}")
    assert form.status_code == 200 and f'name="game" value="{game.pk}"' in form.content.decode()
    # A spectator reports either player; a solo game's replay has no one to report.
    client.force_login(cy)
    page = client.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert "/safety/report/ann/" in page and "/safety/report/bob/" in page
    solo = GameFactory(creator=ann, moved=False)
    tables.game_apply_action(game_id=solo.pk, user=ann, client_id="solo-resign", action={"type": "resign"})
    client.force_login(ann)
    assert 'id="report-game"' not in client.get(reverse("games:replay", args=[solo.pk])).content.decode()


def test_after_a_report_neither_player_can_challenge_the_other(make_user):
    _game_id, ann, bob, message = _table_message(make_user)
    services.report(reporter=ann, username="bob", reason="chat", text="rude", message_id=message.pk)
    with pytest.raises(Forbidden) as theirs:
        challenge_create(challenger=bob, username="ann", kind="farkle")
    with pytest.raises(Forbidden) as hers:
        challenge_create(challenger=ann, username="bob", kind="farkle")
    # Nothing tells bob that a report made the block: he reads what any blocked player reads.
    assert (theirs.value.message, hers.value.message) == (
        "ann does not take challenges from you.",
        "You blocked bob: unblock them to challenge them.",
    )
