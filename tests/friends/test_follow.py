"""Following a player (friends.services, friends.selectors): one row per pair however often or at once
it is asked, never oneself, a computer or across a block; the list of the players one follows says who
is playing (a game the viewer may see, at whose table they are now), who is online (the site's one
presence: the notices socket's pings), and who is away; finding a player by the start of their name."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from friends.models import Follow
from friends.selectors import SEARCH_LIMIT, following_now, search_players
from friends.services import follow_player, unfollow_player
from games.errors import BadRequest, Forbidden, NotFound
from games.live import presence
from games.models import Game
from notices.services import seen_on_site
from pairing.models import Block
from play.account_data import account_delete
from tests.factories import GameFactory, GroupFactory, MembershipFactory

pytestmark = pytest.mark.django_db


def started(creator, *others, group=None) -> Game:
    """A started live Farkle game of ``creator`` and ``others``."""
    return GameFactory(creator=creator, players=others, options={"goal": 10000}, group=group)


def at_table(game: Game, user) -> None:
    """``user``'s page of ``game`` is open: its socket connected (and pinging)."""
    presence.connection_open(game_id=game.pk, user=user, channel_name=f"test.{game.pk}.{user.pk}")


def test_following_twice_makes_one_row_and_the_pair_is_unique_in_the_database(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    first = follow_player(user=ann, username="bob")
    again = follow_player(user=ann, username="bob")

    assert first.pk == again.pk and Follow.objects.filter(follower=ann).count() == 1
    # Two requests at once that both found no row: the second insert is refused by the constraint,
    # which get_or_create turns into reading the first one's row.
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=ann, followed=bob)
    assert Follow.objects.filter(follower=ann, followed=bob).count() == 1


def test_nobody_follows_themselves_a_computer_or_a_missing_or_deleted_account(make_user):
    ann = make_user("ann")
    make_user("robot", computer="expert")
    gone = make_user("gone")
    account_delete(user=gone)
    gone.refresh_from_db()

    with pytest.raises(BadRequest):
        follow_player(user=ann, username="ann")
    with pytest.raises(BadRequest):
        follow_player(user=ann, username="robot")
    with pytest.raises(NotFound):
        follow_player(user=ann, username="nobody")
    with pytest.raises(NotFound):
        follow_player(user=ann, username=gone.username)
    with pytest.raises(IntegrityError), transaction.atomic():
        Follow.objects.create(follower=ann, followed=ann)
    assert not Follow.objects.exists()


def test_no_follow_across_a_block_either_way_and_a_blocker_leaves_the_followers_list(make_user):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    follow_player(user=ann, username="bob")
    Block.objects.create(blocker=bob, blocked=ann)  # bob blocks ann after she followed him
    Block.objects.create(blocker=ann, blocked=cid)

    with pytest.raises(Forbidden):
        follow_player(user=ann, username="cid")  # she blocked cid
    with pytest.raises(Forbidden):
        follow_player(user=cid, username="ann")  # ann blocked cid
    assert [e.player.username for e in following_now(ann)] == []  # bob blocked her: not listed
    unfollow_player(user=ann, username="bob")  # unfollowing is always allowed
    assert not Follow.objects.filter(follower=ann).exists()
    unfollow_player(user=ann, username="bob")  # and again changes nothing


def test_the_list_says_who_plays_a_visible_game_at_its_table_who_is_online_and_who_is_away(make_user):
    ann, bob, cid, eve = (make_user(n) for n in ("ann", "bob", "cid", "eve"))
    make_user("dan")
    for name in ("bob", "cid", "dan"):
        follow_player(user=ann, username=name)
    game = started(bob, eve)
    at_table(game, bob)
    seen_on_site(bob)
    seen_on_site(cid)

    entries = following_now(ann)

    assert [(e.player.username, e.online, e.game) for e in entries] == [
        ("bob", True, game),
        ("cid", True, None),
        ("dan", False, None),
    ]
    assert [e.player.username for e in following_now(ann, only_active=True)] == ["bob", "cid"]


def test_presence_is_the_sites_timeout_and_a_seat_without_the_page_open_is_not_playing(make_user):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    follow_player(user=ann, username="bob")
    game = started(bob, cid)  # seated, but his page of the game is not open
    seen_on_site(bob)
    later = timezone.now() + timedelta(seconds=settings.PRESENCE_TIMEOUT + 1)

    (entry,) = following_now(ann)
    assert entry.online and entry.game is None
    at_table(game, bob)
    assert following_now(ann)[0].game == game
    (entry,) = following_now(ann, now=later)  # no ping since: neither online nor at the table
    assert not entry.online and entry.game is None


def test_a_private_groups_game_is_not_shown_to_an_outsider_only_to_a_member(make_user):
    ann, bob, cid, dan = (make_user(n) for n in ("ann", "bob", "cid", "dan"))
    group = GroupFactory(creator=bob)  # its creator is its first member
    for member in (cid, dan):
        MembershipFactory(group=group, user=member)
    follow_player(user=ann, username="bob")  # ann is not in the group
    follow_player(user=dan, username="bob")  # dan is
    game = started(bob, cid, group=group)
    at_table(game, bob)
    seen_on_site(bob)

    (outsider,) = following_now(ann)
    assert outsider.online and outsider.game is None
    (member,) = following_now(dan)
    assert member.game == game


def test_a_finished_game_is_no_longer_playing(make_user):
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    follow_player(user=ann, username="bob")
    game = started(bob, cid)
    at_table(game, bob)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=timezone.now())

    (entry,) = following_now(ann)
    assert entry.game is None


def test_search_finds_active_players_by_the_start_of_their_name_case_ignored_and_bounded(make_user):
    for name in ("Anna", "annette", "ann", "bob"):
        make_user(name)
    make_user("anny", is_active=False)
    gone = make_user("annika")
    account_delete(user=gone)
    make_user("computer-ann", computer="easy")

    assert [u.username for u in search_players("ANN")] == ["ann", "Anna", "annette"]
    assert [u.username for u in search_players("  bo ")] == ["bob"]
    assert search_players("") == [] and search_players("   ") == []
    assert search_players("%") == [] and search_players("a_n") == []  # no wildcards
    for i in range(SEARCH_LIMIT + 5):
        make_user(f"zed{i:02}")
    assert len(search_players("zed")) == SEARCH_LIMIT


def test_a_deleted_account_takes_its_follows_both_ways_with_it(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    make_user("cid")
    follow_player(user=ann, username="bob")
    follow_player(user=bob, username="cid")

    account_delete(user=bob)

    assert not Follow.objects.exists()


def test_the_list_costs_one_query_for_nobody_followed_and_three_for_many(
    make_user, django_assert_num_queries
):
    ann = make_user("ann")
    with django_assert_num_queries(1):
        assert following_now(ann) == []
    for i in range(12):
        follow_player(user=ann, username=make_user(f"p{i:02}").username)
    with django_assert_num_queries(3):
        assert len(following_now(ann)) == 12
