"""Ratings where players look: beside each name at the table and the change at the end (the
game socket's snapshot), the history, the statistics page's figure and chart, and the rating lists."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.live import selectors
from games.tables import services as tables
from groups import services as groups
from infra.jsontext import dumps
from play.consumers import _with_chat
from ratings import selectors as rating_selectors
from ratings.models import Rating, RatingChange
from tests.played import everyone_moves
from tests.protocol import check_server_frame

GOAL = {"goal": 3000}


def played(creator, *others, loser=None, **options):
    game = tables.game_create(creator=creator, kind="farkle", options=GOAL, seats=1 + len(others), **options)
    for other in others:
        tables.game_join(game_id=game.pk, user=other)
    tables.game_start(game_id=game.pk, user=creator)
    everyone_moves(game, points=False)
    if loser is not None:
        tables.game_apply_action(game_id=game.pk, user=loser, client_id="r", action={"type": "resign"})
    game.refresh_from_db()
    return game


@pytest.fixture
def people(make_user):
    return make_user("ann"), make_user("bob"), make_user("cy")


def test_the_snapshot_has_the_tables_ratings_and_the_ends_changes(people):
    ann, bob, _ = people
    first = played(ann, bob, loser=bob)
    table = played(ann, bob)
    frame = check_server_frame(dumps(_with_chat(selectors.game_snapshot(table, ann), table.pk, ann)))
    won = RatingChange.objects.get(game=first, user=ann)
    assert frame["ratings"]["kind"] == "farkle:3000" and frame["ratings"]["name"] == "Farkle (3000)"
    assert frame["ratings"]["players"] == {
        "ann": {"rating": won.display_after, "provisional": True, "change": None},
        "bob": {
            "rating": RatingChange.objects.get(game=first, user=bob).display_after,
            "provisional": True,
            "change": None,
        },
    }
    tables.game_apply_action(game_id=table.pk, user=ann, client_id="r", action={"type": "resign"})
    table.refresh_from_db()
    frame = check_server_frame(dumps(_with_chat(selectors.game_snapshot(table, ann), table.pk, ann)))
    lost = RatingChange.objects.get(game=table, user=ann)
    assert frame["ratings"]["players"]["ann"] == {
        "rating": lost.display_after,
        "provisional": True,
        "change": lost.delta,
    }
    assert lost.delta < 0


def test_a_newcomer_brings_1500_and_unrated_tables_have_none(people):
    ann, bob, _ = people
    table = played(ann, bob)
    assert rating_selectors.for_game(table)["players"]["bob"] == {
        "rating": 1500,
        "provisional": True,
        "change": None,
    }
    unrated = played(ann, bob, rated=False)
    solo = tables.game_create(creator=ann, kind="farkle", options=GOAL, seats=1)
    frame = check_server_frame(dumps(_with_chat(selectors.game_snapshot(unrated, ann), unrated.pk, ann)))
    assert frame["ratings"] is None and rating_selectors.for_game(solo) is None


def test_the_history_says_what_each_game_changed(people, client):
    ann, bob, _ = people
    game = played(ann, bob, loser=bob)
    change = RatingChange.objects.get(game=game, user=ann)
    client.force_login(ann)
    page = client.get(reverse("players:history", args=["ann"])).content.decode()
    assert f"+{change.delta}, now {change.display_after}?" in page


def test_the_statistics_page_shows_the_rating_and_its_chart(people, client):
    ann, bob, _ = people
    played(ann, bob, loser=bob)
    played(ann, bob, loser=ann)
    client.force_login(bob)
    response = client.get(reverse("players:stats", args=["ann"]), {"kind": "farkle", "goal": 3000})
    page = response.content.decode()
    rating = Rating.objects.get(user=ann, kind="farkle:3000")
    assert f'data-stat="rating">{rating.display}<abbr' in page
    assert 'id="rating-chart"' in page
    assert [p["rating"] for p in response.context["rating_data"]["series"]] == list(
        RatingChange.objects.filter(user=ann).order_by("at").values_list("display_after", flat=True)
    )


def test_the_rating_list_people_only_active_only_global_or_per_group(people, client, make_user):
    ann, bob, cy = people
    played(ann, bob, loser=bob)
    played(cy, ann, loser=cy)
    computer = tables.game_create(
        creator=ann, kind="farkle", options=GOAL, seats=2, computers=1, strength="easy"
    )
    everyone_moves(computer, points=False)
    tables.game_apply_action(game_id=computer.pk, user=ann, client_id="r", action={"type": "resign"})
    # cy has not played a rated game lately: off the lists.
    Rating.objects.filter(user=cy).update(
        updated_at=timezone.now() - timedelta(days=rating_selectors.ACTIVE_DAYS + 1)
    )
    entries = rating_selectors.rating_list("farkle:3000")
    assert [e["player"] for e in entries] == ["ann", "bob"]
    assert entries[0]["rank"] == 1 and entries[0]["rating"] > entries[1]["rating"]
    group = groups.group_create(creator=bob, name="Bob's")
    assert [e["player"] for e in rating_selectors.rating_list("farkle:3000", group=group)] == ["bob"]
    client.force_login(bob)
    page = client.get(reverse("ratings"), {"kind": "farkle", "goal": 3000}).content.decode()
    page = page.split('<main id="main"', 1)[1]  # not the header's own link to the viewer
    people_table, computers = page.split('<section aria-labelledby="computer-ratings-heading"')
    assert "ann</a>" in people_table and "computer-" not in people_table
    # The computers' ratings are listed apart.
    bot = Rating.objects.exclude(user__computer="").get(kind="farkle:3000").user.username
    assert f"{bot}</a>" in computers
    # bob is in the list: his row is not repeated below it.
    assert "Your rating" not in page and page.count("bob</a>") == 1
    client.force_login(cy)  # off the list (not active): his own rating below it
    page = client.get(reverse("ratings"), {"kind": "farkle", "goal": 3000}).content.decode()
    assert "Your rating" in page
    client.force_login(bob)
    assert (
        client.get(reverse("ratings"), {"kind": "farkle", "goal": 3000, "group": group.pk}).status_code == 200
    )
    assert client.get(reverse("ratings"), {"kind": "farkle", "group": 999999}).status_code == 404
    assert client.get(reverse("ratings"), {"kind": "chess"}).status_code == 404
    assert 'id="ratings-link"' in client.get(reverse("highscores")).content.decode()


def test_the_statistics_and_rating_pages_name_the_game_beside_its_goal_once(people, client):
    """The game's tab and list named Farkle "(10000)" beside the chosen "Goal 3000"."""
    ann, bob, _ = people
    played(ann, bob, loser=bob)
    client.force_login(ann)
    for url in (
        reverse("ratings") + "?kind=farkle&goal=3000",
        "/players/ann/stats/?kind=farkle&goal=3000",
        reverse("highscores") + "?kind=farkle&goal=3000",
    ):
        main = client.get(url).content.decode().split('<main id="main"', 1)[1]
        assert "(10000)" not in main, url
        assert ">Farkle<" in main, url


def test_settled_ratings_come_before_provisional_ones(people):
    ann, bob, cy = people
    played(ann, bob, loser=bob)
    played(cy, bob, loser=bob)
    Rating.objects.filter(user=bob).update(provisional=False)  # as after many games
    entries = rating_selectors.rating_list("farkle:3000")
    assert [(e["player"], e["provisional"]) for e in entries] == [("bob", False), ("ann", True), ("cy", True)]
    assert [e["rank"] for e in entries] == [1, 2, 3]
