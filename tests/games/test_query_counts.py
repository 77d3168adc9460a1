"""With 2,000 finished games, the statistics, history, high-score and group pages run a bounded number
of queries."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.results.seed import seed_finished_games
from groups import services as group_services

pytestmark = pytest.mark.django_db

KINDS = ["triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee", "farkle"]


@pytest.fixture
def world(make_user):
    users = [make_user(f"p{i:02d}") for i in range(30)]
    groups = []
    for g in range(3):
        group = group_services.group_create(creator=users[g], name=f"G{g}")
        for user in users[:12]:
            if user != users[g]:
                group_services.group_add_member(group_id=group.pk, user=users[g], username=user.username)
        groups.append(group)
    assert seed_finished_games(2000, users, groups=groups, seed=7) == 2000
    return users, groups


def test_pages_have_flat_query_counts(client, world, django_assert_max_num_queries):
    users, groups = world
    me = users[0]
    client.force_login(me)
    pages = []
    for kind in KINDS:
        params = {"kind": kind, **({"goal": 3000} if kind == "farkle" else {})}
        pages += [
            (reverse("players:stats", args=[me.username]), params),
            (reverse("api_player_stats", args=[me.username]), params),
            (reverse("highscores"), {**params, "period": "month"}),
            (reverse("api_highscores"), {**params, "group": groups[0].pk}),
            (reverse("players:history", args=[me.username]), {"kind": kind}),
        ]
    pages += [
        (reverse("players:history", args=[users[5].username]), {}),
        (reverse("groups:detail", args=[groups[0].pk]), {}),
        (reverse("games:mine"), {}),
        (reverse("home"), {}),
    ]
    for url, params in pages:
        # Session and user lookups take 2; each page adds a handful, never one per game.
        limit = 30 if "groups" in url else 10
        with django_assert_max_num_queries(limit, info=url):
            response = client.get(url, params)
        assert response.status_code == 200, url
