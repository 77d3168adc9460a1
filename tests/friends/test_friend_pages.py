"""The pages of following (play.friend_views, the profile's follow form in play.player_views): signed
out they send to the sign-in; following oneself is a 400 with the reason on the profile; the list of
the players one follows shows a watch link only for a game the viewer may see; the search answers a
bad query with 400 and never lists a deleted account."""

from __future__ import annotations

import pytest
from django.urls import reverse

from friends.models import Follow
from games.live import presence
from games.models import Game
from notices.services import seen_on_site
from pairing.models import Block
from play.account_data import account_delete
from tests.factories import GameFactory, GroupFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def playing_at_table(*players, group=None) -> Game:
    """A started Farkle game of ``players``, the first at its table now (their page of it open)."""
    game = GameFactory(creator=players[0], players=players[1:], options={"goal": 10000}, group=group)
    presence.connection_open(game_id=game.pk, user=players[0], channel_name=f"test.{game.pk}")
    seen_on_site(players[0])
    return game


@pytest.mark.parametrize(
    ("method", "name", "args"),
    [
        ("get", "players:following", []),
        ("get", "players:search", []),
        ("post", "players:follow", ["bob"]),
    ],
)
def test_signed_out_every_page_sends_to_the_sign_in(client, bob, method, name, args):
    url = reverse(name, args=args)
    response = getattr(client, method)(url, {"action": "follow"} if method == "post" else {})

    assert response.status_code == 302 and response.url.startswith(reverse("accounts:login"))
    assert not Follow.objects.exists()


def test_follow_and_unfollow_from_the_profile(client, ann, bob):
    client.force_login(ann)
    profile = reverse("players:profile", args=["bob"])
    page = client.get(profile).content.decode()
    assert 'action="/players/bob/follow/"' in page and "Follow bob" in page

    response = client.post(reverse("players:follow", args=["bob"]), {"action": "follow"}, follow=True)

    assert response.redirect_chain == [(profile, 302)]
    assert Follow.objects.filter(follower=ann, followed=bob).exists()
    page = response.content.decode()
    assert "You follow bob: see them in the players you follow." in page and "Unfollow bob" in page

    client.post(reverse("players:follow", args=["bob"]), {"action": "unfollow"})
    assert not Follow.objects.exists()


def test_following_oneself_is_a_400_with_the_reason(client, ann):
    client.force_login(ann)
    response = client.post(reverse("players:follow", args=["ann"]), {"action": "follow"})

    assert response.status_code == 400
    assert "You cannot follow yourself." in response.content.decode()
    assert not Follow.objects.exists()


def test_a_player_who_blocked_you_is_not_followable_and_their_profile_offers_no_follow(client, ann, bob):
    Block.objects.create(blocker=bob, blocked=ann)
    client.force_login(ann)

    assert "Follow bob" not in client.get(reverse("players:profile", args=["bob"])).content.decode()
    response = client.post(reverse("players:follow", args=["bob"]), {"action": "follow"})
    assert response.status_code == 403 and "You cannot follow bob." in response.content.decode()
    assert not Follow.objects.exists()


def test_an_unknown_action_or_player_is_refused(client, ann, bob):
    client.force_login(ann)
    assert client.post(reverse("players:follow", args=["bob"]), {"action": "both"}).status_code == 400
    assert client.post(reverse("players:follow", args=["nobody"]), {"action": "follow"}).status_code == 404
    assert client.get(reverse("players:follow", args=["bob"])).status_code == 405
    assert not Follow.objects.exists()


def test_the_list_shows_playing_with_watch_and_challenge_online_and_away(client, make_user):
    ann, bob, cid, dan, eve = (make_user(n) for n in ("ann", "bob", "cid", "dan", "eve"))
    for other in (bob, cid, dan):
        Follow.objects.create(follower=ann, followed=other)
    game = playing_at_table(bob, eve)
    seen_on_site(cid)
    client.force_login(ann)

    page = client.get(reverse("players:following")).content.decode()

    assert 'data-player="bob" data-state="playing"' in page
    assert f'href="{reverse("games:detail", args=[game.pk])}"' in page and "playing Farkle (10000)" in page
    assert 'data-player="cid" data-state="online"' in page
    assert 'data-player="dan" data-state="away"' in page
    assert page.index('data-player="bob"') < page.index('data-player="cid"') < page.index('data-player="dan"')
    assert 'href="/players/cid/#challenge-form"' in page
    # The home page lists those on the site or playing, not the others.
    home = client.get(reverse("home")).content.decode()
    assert 'data-player="bob" data-state="playing"' in home and 'data-player="cid"' in home
    assert 'data-player="dan"' not in home


def test_a_private_groups_game_is_no_watch_link_for_someone_outside_the_group(client, make_user):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    group = GroupFactory(creator=bob)
    MembershipFactory(group=group, user=cid)
    Follow.objects.create(follower=ann, followed=bob)
    Follow.objects.create(follower=cid, followed=bob)
    game = playing_at_table(bob, cid, group=group)
    watch = f'href="{reverse("games:detail", args=[game.pk])}"'

    client.force_login(ann)
    page = client.get(reverse("players:following")).content.decode()
    assert 'data-player="bob" data-state="online"' in page and watch not in page
    assert watch not in client.get(reverse("home")).content.decode()
    client.force_login(cid)
    assert watch in client.get(reverse("players:following")).content.decode()


def test_nobody_followed_yet(client, ann):
    client.force_login(ann)
    assert 'id="following-empty"' in client.get(reverse("players:following")).content.decode()
    assert 'id="home-following"' not in client.get(reverse("home")).content.decode()


def test_search_lists_active_players_by_prefix_and_marks_those_followed(client, make_user):
    ann, bob = make_user("ann"), make_user("Bobby")
    make_user("bobo")
    gone = make_user("bobgone")
    account_delete(user=gone)
    Follow.objects.create(follower=ann, followed=bob)
    client.force_login(ann)

    response = client.get(reverse("players:search"), {"q": "BOB"})

    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-player="bobo"' in page and 'data-player="Bobby"' in page and "bobgone" not in page
    assert page.count("followed</span>") == 1
    assert 'id="search-empty"' in client.get(reverse("players:search"), {"q": "zzz"}).content.decode()
    assert client.get(reverse("players:search")).status_code == 200  # the empty form


@pytest.mark.parametrize("query", ["ann\x00", "a" * 151, "x" * 5000])
def test_a_query_no_name_can_match_is_a_400(client, ann, query):
    client.force_login(ann)
    assert client.get(reverse("players:search"), {"q": query}).status_code == 400


def test_the_header_has_the_search_form_for_a_signed_in_player(client, ann):
    client.force_login(ann)
    page = client.get(reverse("home")).content.decode()
    assert 'action="/players/search/"' in page and 'id="header-search-q"' in page
