"""The player's profile (/players/<name>/): ratings in every kind, the latest games the viewer
may see with place and rating change, the coach's accuracy over the latest reviewed games, the groups
in common, the challenge and block buttons; flat in queries whatever the number of games."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from coach import services as coach
from games.results.seed import seed_finished_games
from games.tables import services as tables
from groups import services as groups
from pairing.models import Block
from ratings.models import RatingChange
from ratings.services import ratings_rebuild
from tests.coach.test_review import farkle_game
from tests.played import everyone_moves

pytestmark = pytest.mark.django_db


def played(creator, *others, losers=(), kind="farkle", options=None, group=None, rated=True):
    """A table of ``creator`` and ``others`` played out by ``losers`` resigning, the last one left
    the winner."""
    options = {"goal": 3000} if options is None and kind == "farkle" else options
    game = tables.game_create(
        creator=creator, kind=kind, options=options, seats=1 + len(others), group=group, rated=rated
    )
    for other in others:
        tables.game_join(game_id=game.pk, user=other)
    tables.game_start(game_id=game.pk, user=creator)
    everyone_moves(game, points=False)
    for n, loser in enumerate(losers):
        tables.game_apply_action(game_id=game.pk, user=loser, client_id=f"r{n}", action={"type": "resign"})
    game.refresh_from_db()
    assert game.status == game.Status.FINISHED
    return game


def profile(client, viewer, name):
    client.force_login(viewer)
    response = client.get(reverse("players:profile", args=[name]))
    assert response.status_code == 200
    return response


@pytest.fixture
def people(make_user):
    return make_user("ann"), make_user("bob"), make_user("cy")


def test_ratings_in_every_kind_the_provisional_marked(people, client):
    ann, bob, cy = people
    played(ann, bob, losers=[bob])
    played(ann, bob, cy, losers=[bob, cy], kind="triple-quintzee")
    response = profile(client, bob, "ann")
    shown = {r["kind"]: r for r in response.context["ratings"]}
    assert list(shown) == ["triple-quintzee", "farkle:3000"]  # the engines' order
    latest = RatingChange.objects.filter(user=ann).order_by("at", "game_id").last()
    assert shown["triple-quintzee"]["display"] == latest.display_after
    assert shown["farkle:3000"]["query"] == "kind=farkle&goal=3000"
    page = response.content.decode()
    assert (
        "Farkle (3000)" in page
        and 'title="provisional: too few rated games yet to be sure of it">?</abbr>' in page
    )
    assert "/players/ann/stats/?kind=farkle&amp;goal=3000" in page
    fresh = profile(client, ann, "cy").context
    assert [r["kind"] for r in fresh["ratings"]] == ["triple-quintzee"]
    nobody = profile(client, ann, ann.username)  # no bug when one's own
    assert nobody.context["own"]


def test_recent_games_with_place_and_rating_change_newest_first(people, client):
    ann, bob, cy = people
    first = played(ann, bob, losers=[bob])
    second = played(ann, bob, cy, losers=[ann, bob], kind="triple-quintzee")
    unrated = played(ann, bob, losers=[bob], rated=False)
    open_table = tables.game_create(creator=ann, kind="farkle", seats=2)  # not finished: not listed
    response = profile(client, cy, "ann")
    games = response.context["games"]
    assert [g.pk for g in games] == [unrated.pk, second.pk, first.pk]
    assert open_table.pk not in [g.pk for g in games]
    # ann resigned with bob: both after cy, in the order of their scores (each played a turn first).
    assert [g.place for g in games][0::2] == [1, 1] and games[1].place in (2, 3)
    assert games[0].rating_change is None
    change = RatingChange.objects.get(game=first, user=ann)
    assert games[2].rating_change == {
        "change": change.display_after - change.display_before,
        "rating": change.display_after,
        "provisional": True,
    }
    rows = response.content.decode().split('id="recent-games"')[1].split("</table>")[0]
    assert rows.count("<tr data-game=") == 3
    assert f"place {games[1].place} of 3" in rows and rows.count(">won</strong>") == 2
    assert f"now {change.display_after}?" in rows
    assert reverse("players:history", args=["ann"]) in response.content.decode()


def test_only_the_last_ten_games(people, client):
    ann, bob, _ = people
    for _ in range(12):
        played(ann, bob, losers=[bob])
    assert len(profile(client, bob, "ann").context["games"]) == 10


def test_a_private_group_game_is_shown_to_members_only(people, client):
    ann, bob, cy = people
    group = groups.group_create(creator=ann, name="Secret Circle")
    groups.group_add_member(group_id=group.pk, user=ann, username="bob")
    secret = played(ann, bob, losers=[bob], group=group)
    public = played(ann, bob, losers=[ann])
    member = profile(client, bob, "ann")
    assert [g.pk for g in member.context["games"]] == [public.pk, secret.pk]
    assert "Secret Circle" in member.content.decode()
    outsider = profile(client, cy, "ann")
    assert [g.pk for g in outsider.context["games"]] == [public.pk]
    page = outsider.content.decode()
    assert "Secret Circle" not in page and f"#{secret.pk}<" not in page
    assert outsider.context["groups"] == []


def test_accuracy_of_the_latest_reviewed_games_or_a_plain_no(user, client, scripted_dice, make_user):
    bob = make_user("bob")
    page = profile(client, user, user.username).content.decode()
    assert "No reviewed game yet" in page and 'id="accuracy-chart"' not in page
    assert "No reviewed game of ann yet" in profile(client, bob, user.username).content.decode()
    first = farkle_game(user, scripted_dice, first_bank=[0, 1, 2])
    second = farkle_game(user, scripted_dice, first_bank=[0, 1, 2, 3])
    for game in (first, second):
        coach.review_game(game_id=game.pk)
    response = profile(client, bob, user.username)
    points = response.context["accuracy"]["points"]
    assert [p["game"] for p in points] == [first.pk, second.pk]  # oldest first
    assert points[0]["accuracy"] < points[1]["accuracy"]
    assert points[0]["name"] == "Farkle (3000)" and points[0]["kind"] == "farkle"
    page = response.content.decode()
    data = json.loads(page.split('id="accuracy-data" type="application/json">')[1].split("</script>")[0])
    assert [p["game"] for p in data["points"]] == [first.pk, second.pk]
    assert (
        'id="accuracy-chart"' in page
        and "js/profile.js" in page
        and f"Farkle (3000) #{second.pk}</a>" in page
    )


def test_a_private_group_games_review_stays_out_of_the_chart(make_user, client, scripted_dice):
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    group = groups.group_create(creator=ann, name="Secret Circle")
    groups.group_add_member(group_id=group.pk, user=ann, username="bob")
    # farkle_game's moves at a table of the group's (ann alone: a resigned game has no decision).
    scripted_dice([1, 1, 1, 5, 2, 3], [2, 2, 3, 4, 6, 6], [1, 1, 1, 1, 1, 2])
    secret = tables.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=1, group=group)
    for n, action in enumerate(
        [
            {"type": "roll", "keep": []},
            {"type": "bank", "keep": [0, 1, 2]},
            {"type": "roll", "keep": []},
            {"type": "roll", "keep": []},
            {"type": "bank", "keep": [0, 1, 2, 3, 4]},
        ]
    ):
        tables.game_apply_action(game_id=secret.pk, user=ann, client_id=f"a{n}", action=action)
    coach.review_game(game_id=secret.pk)
    assert [p["game"] for p in profile(client, bob, "ann").context["accuracy"]["points"]] == [secret.pk]
    assert profile(client, cy, "ann").context["accuracy"]["points"] == []


def test_groups_in_common_linked(people, client):
    ann, bob, cy = people
    both = groups.group_create(creator=ann, name="Both of us")
    groups.group_add_member(group_id=both.pk, user=ann, username="bob")
    groups.group_create(creator=ann, name="Ann alone")
    groups.group_create(creator=bob, name="Bob alone")
    response = profile(client, bob, "ann")
    assert [g.name for g in response.context["groups"]] == ["Both of us"]
    page = response.content.decode()
    assert f'href="{reverse("groups:detail", args=[both.pk])}"' in page and "Ann alone" not in page
    assert "You and ann share no group." in profile(client, cy, "ann").content.decode()
    own = profile(client, ann, "ann")
    assert [g.name for g in own.context["groups"]] == ["Ann alone", "Both of us"]
    assert "Your groups" in own.content.decode()


def test_challenge_and_block_for_another_person_only(people, make_user, client):
    ann, _bob, _ = people
    make_user("computer-good-1", computer="good")
    page = profile(client, ann, "bob").content.decode()
    assert 'id="challenge-form"' in page and reverse("players:challenge", args=["bob"]) in page
    block = page.split('id="block-form"')[1].split("</form>")[0]
    assert reverse("pairing:block", args=["bob"]) in page
    assert 'name="action" value="block"' in block and 'name="next" value="/players/bob/"' in block
    for name in ("ann", "computer-good-1"):
        page = profile(client, ann, name).content.decode()
        assert 'id="challenge-form"' not in page and 'id="block-form"' not in page


def test_a_blocked_player_shows_the_unblock_button_and_no_challenge(people, client):
    ann, bob, _ = people
    Block.objects.create(blocker=ann, blocked=bob)
    response = profile(client, ann, "bob")
    assert response.context["blocked"] and response.context["challenge_form"] is None
    page = response.content.decode()
    assert 'name="action" value="unblock"' in page and 'id="challenge-form"' not in page
    assert "You blocked bob" in page
    # The block button's round trip through pairing's view, back to the profile.
    back = client.post(
        reverse("pairing:block", args=["bob"]), {"action": "unblock", "next": "/players/bob/"}, follow=True
    )
    assert back.redirect_chain == [("/players/bob/", 302)] and not back.context["blocked"]
    # Blocked by the other: the page does not say so, and shows no challenge form either.
    Block.objects.create(blocker=bob, blocked=ann)
    page = profile(client, ann, "bob").content.decode()
    assert 'id="challenge-form"' not in page and "blocked" not in page.split('id="block-form"')[0][-400:]


def test_the_statistics_old_address_sends_to_their_new_one(people, client):
    ann, _, _ = people
    client.force_login(ann)
    response = client.get("/players/bob/?kind=farkle&goal=3000")
    assert response.status_code == 302 and response["Location"] == "/players/bob/stats/?kind=farkle&goal=3000"
    assert client.get("/players/nobody/").status_code == 404


def test_the_query_count_does_not_grow_with_the_games(make_user, client, django_assert_max_num_queries):
    users = [make_user(f"p{i:02d}") for i in range(8)]
    group = groups.group_create(creator=users[0], name="Club")
    for user in users[1:4]:
        groups.group_add_member(group_id=group.pk, user=users[0], username=user.username)
    client.force_login(users[1])
    url = reverse("players:profile", args=[users[0].username])
    counts = []
    for games in (20, 300):
        seed_finished_games(games, users, groups=[group], seed=games)
        ratings_rebuild()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1], counts
    with django_assert_max_num_queries(16):
        client.get(url)
