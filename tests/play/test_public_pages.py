"""A finished public game is a public page: its replay and its export read without an account, its
link leads a visitor there; a private game (a group's, a daily challenge's until its day is over) is
missing to a visitor, and a public game still being played asks the visitor to sign in (games.access)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from chat import services as chat
from games.access import can_watch, watchable
from games.models import Game
from games.tables import services as tables
from groups import services as groups
from tests.factories import GameFactory

pytestmark = pytest.mark.django_db


def _finished(creator, other, **made) -> Game:
    # A private table without a group is its players' from the start: the site seats them (others).
    seated = {"others": [other], "seats": 2} if made.get("private") else {"players": [other]}
    game = GameFactory(creator=creator, moved=True, **seated, **made)
    chat.post_to_game(game_id=game.pk, user=other, text="good luck, ann")
    tables.game_apply_action(
        game_id=game.pk, user=other, client_id=f"give-up-{game.pk}", action={"type": "resign"}
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_a_visitor_reads_a_finished_public_games_replay_and_export(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = _finished(ann, bob)
    visitor = Client()

    page = visitor.get(reverse("games:replay", args=[game.pk]))
    text = page.content.decode()
    assert page.status_code == 200 and 'id="visitor-note"' in text and 'id="replay-data"' in text
    # The table's chat is for the site's players; there is nobody a visitor could report.
    assert "good luck, ann" not in text and 'id="report-game"' not in text
    export = visitor.get(reverse("games:export", args=[game.pk]))
    assert export.status_code == 200 and export.json()["fair_dice"]["server_seed"] == game.server_seed
    link = visitor.get(reverse("games:detail", args=[game.pk]))
    assert link.status_code == 302 and link["Location"] == reverse("games:replay", args=[game.pk])
    # Signed in, the same replay has its chat and no visitor's note.
    signed_in = Client()
    signed_in.force_login(ann)
    text = signed_in.get(reverse("games:replay", args=[game.pk])).content.decode()
    assert "good luck, ann" in text and 'id="visitor-note"' not in text


def test_a_private_or_unfinished_game_is_no_public_page(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    group = groups.group_create(creator=ann, name="Dice nights")
    groups.group_add_member(group_id=group.pk, user=ann, username="bob")
    private = _finished(ann, bob, group=group)
    daily_like = _finished(ann, bob, private=True)
    playing = GameFactory(creator=ann, players=[bob])
    visitor = Client()

    for game in (private, daily_like):
        assert visitor.get(reverse("games:replay", args=[game.pk])).status_code == 404
        assert visitor.get(reverse("games:export", args=[game.pk])).status_code == 404
        assert "/accounts/login/" in visitor.get(reverse("games:detail", args=[game.pk]))["Location"]
    for name in ("games:replay", "games:export"):
        answer = visitor.get(reverse(name, args=[playing.pk]))
        assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert visitor.get("/games/999999/replay/").status_code == 404


def test_the_visitors_rule_is_one_condition_for_one_game_and_for_a_query(make_user):
    from django.contrib.auth.models import AnonymousUser

    ann, bob = make_user("ann"), make_user("bob")
    group = groups.group_create(creator=ann, name="Dice nights")
    groups.group_add_member(group_id=group.pk, user=ann, username="bob")
    games = [
        _finished(ann, bob),
        _finished(ann, bob, group=group),
        _finished(ann, bob, private=True),
        GameFactory(creator=ann, players=[bob]),
        GameFactory(creator=ann, players=[bob], start=False, seats=3),
    ]
    visitor = AnonymousUser()
    seen = set(Game.objects.filter(watchable(visitor)).values_list("pk", flat=True))
    assert seen == {games[0].pk}
    assert {g.pk for g in games if can_watch(g, visitor)} == seen


def test_a_visitor_reads_profiles_statistics_history_and_lists_of_public_games_only(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    group = groups.group_create(creator=ann, name="Secret dice")
    groups.group_add_member(group_id=group.pk, user=ann, username="bob")
    public = _finished(ann, bob)
    private = _finished(ann, bob, group=group)
    visitor = Client()

    profile = visitor.get(reverse("players:profile", args=["ann"])).content.decode()
    assert 'id="visitor-note"' in profile and 'id="challenge-form"' not in profile
    assert 'id="report-link"' not in profile and 'id="profile-groups"' not in profile
    history = visitor.get(reverse("players:history", args=["ann"])).content.decode()
    assert f"/games/{public.pk}/" in history and f"/games/{private.pk}/" not in history
    assert "Secret dice" not in history + profile
    for answer in (
        visitor.get(reverse("players:stats", args=["ann"]), {"kind": "farkle"}),
        visitor.get(reverse("ratings"), {"kind": "farkle"}),
        visitor.get(reverse("highscores"), {"kind": "farkle"}),
    ):
        assert answer.status_code == 200 and "Secret dice" not in answer.content.decode()
    # A group's list is its members' alone, a visitor's least of all.
    assert visitor.get(reverse("ratings"), {"kind": "farkle", "group": group.pk}).status_code == 404
