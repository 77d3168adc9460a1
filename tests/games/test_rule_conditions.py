"""Membership and presence are each defined once (games.access, games.live.seen) and read two ways: as
ORM conditions by the pages, services and computers, and compiled into the move's hand-written
statements (games.live.move_sql). On generated rows (memberships, seats, sockets whose last ping lies
around the cut-off, to the microsecond) both ways must give the same answer, on the backend the tests
run on (SQLite embedded, PostgreSQL with DATABASE_URL)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection, transaction
from django.db.models import OuterRef
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import access
from games.live import move_sql, seen
from games.live.selectors import connected_usernames
from games.models import Connection, Game, Seat
from groups.models import Group, Membership
from tests.factories import UserFactory

USERS = 4
GROUPS = 2
# A game in each group and one without a group.
GAME_GROUPS = [0, 1, None]

# Seconds and microseconds around the cut-off: before it, at it exactly, after it.
OFFSETS = st.sampled_from(
    [
        timedelta(seconds=-30),
        timedelta(microseconds=-1),
        timedelta(0),
        timedelta(microseconds=1),
        timedelta(seconds=5),
    ]
)
CUTOFFS = st.builds(
    lambda micro, seconds: datetime(2026, 12, 7, 12, 0, seconds, micro, tzinfo=UTC),
    st.sampled_from([0, 1, 500_000, 999_999]),
    st.integers(0, 59),
)
ROWS = st.fixed_dictionaries(
    {
        "members": st.sets(st.tuples(st.integers(0, GROUPS - 1), st.integers(0, USERS - 1))),
        # per game, the users seated in order (their positions)
        "seats": st.lists(
            st.lists(st.integers(0, USERS - 1), unique=True, max_size=USERS),
            min_size=len(GAME_GROUPS),
            max_size=len(GAME_GROUPS),
        ),
        "sockets": st.lists(
            st.tuples(st.integers(0, len(GAME_GROUPS) - 1), st.integers(0, USERS - 1), OFFSETS), max_size=8
        ),
        "cutoff": CUTOFFS,
    }
)


@pytest.fixture
def world(db):
    """Users, groups (without their creators' memberships: the examples choose every membership) and
    games, kept across the examples; each example adds its rows in a savepoint it rolls back."""
    users = [UserFactory(username=f"p{i}") for i in range(USERS)]
    groups = [Group.objects.create(name=f"g{i}", creator=users[0]) for i in range(GROUPS)]
    games = [
        Game.objects.create(
            kind="triple-quintzee",
            creator=users[0],
            group=groups[g] if g is not None else None,
            private=g is not None,
            status=Game.Status.PLAYING,
        )
        for g in GAME_GROUPS
    ]
    return users, groups, games


def _rows(world, rows):
    users, groups, games = world
    Membership.objects.bulk_create(Membership(group=groups[g], user=users[u]) for g, u in rows["members"])
    for game, seated in zip(games, rows["seats"], strict=True):
        Seat.objects.bulk_create(Seat(game=game, user=users[u], position=p) for p, u in enumerate(seated))
    Connection.objects.bulk_create(
        Connection(game=games[g], user=users[u], channel_name=f"c{n}", seen_at=rows["cutoff"] + offset)
        for n, (g, u, offset) in enumerate(rows["sockets"])
    )


def _mover(game, user, since):
    """The move's "mover" statement: (seat, position, earlier seq, may act as member, present mask)."""
    with connection.cursor() as cursor:
        cursor.execute(
            move_sql.sql("mover"), ["none", user.pk, move_sql.to_datetime(since), user.pk, game.pk]
        )
        return cursor.fetchone()


def _absence(game, position, since):
    """The "absence" statement's "at the table now" for the seat at ``position``."""
    with connection.cursor() as cursor:
        since = move_sql.to_datetime(since)
        cursor.execute(move_sql.sql("absence"), [since, since, game.pk, position])
        return bool(cursor.fetchone()[1])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=ROWS)
def test_the_orm_and_the_moves_sql_agree_on_membership_and_presence(world, rows):
    users, _, games = world
    since = rows["cutoff"]
    with transaction.atomic():
        _rows(world, rows)
        for game in games:
            seats = list(Seat.objects.filter(game=game).order_by("position"))
            present = Seat.objects.filter(
                seen.at_table(game=OuterRef("game_id"), user=OuterRef("user_id"), since=since), game=game
            )
            mask = sum(1 << s.position for s in present)
            for user in users:
                row = _mover(game, user, since)
                member = Game.objects.filter(access.may_act_as_member(user), pk=game.pk).exists()
                assert bool(row[3]) == member == access.is_member(game.group_id, user)
                assert row[4] == mask
            for seat in seats:
                here = seen.connections(game=game.pk, user=seat.user_id, since=since).exists()
                assert _absence(game, seat.position, since) == here == bool(mask >> seat.position & 1)
        transaction.set_rollback(True)


@pytest.mark.django_db
def test_the_cut_off_is_presence_timeout_before_now(settings, make_user):
    """The one cut-off: a ping exactly PRESENCE_TIMEOUT old still counts, one a microsecond older not."""
    settings.PRESENCE_TIMEOUT = 75
    now = datetime(2026, 12, 7, 12, 0, 0, tzinfo=UTC)
    assert seen.cutoff(now) == now - timedelta(seconds=75)
    ann, bob = make_user("ann"), make_user("bob")
    game = Game.objects.create(kind="triple-quintzee", creator=ann)
    Connection.objects.create(game=game, user=ann, channel_name="a", seen_at=seen.cutoff(now))
    Connection.objects.create(
        game=game, user=bob, channel_name="b", seen_at=seen.cutoff(now) - timedelta(microseconds=1)
    )
    here = seen.connections(game=game.pk, since=seen.cutoff(now))
    assert list(here.values_list("user__username", flat=True)) == ["ann"]
    Connection.objects.create(game=game, user=make_user("cat"), channel_name="c", seen_at=timezone.now())
    assert connected_usernames(game.pk) == ["cat"]  # the table's list: pings since the cut-off of now
