"""Who sits with whom (pairing.matching): closest ratings first, windows widening with waiting, blocks
honoured, computers only for players whose chosen wait is over, nobody at two tables."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from pairing.matching import Table, Waiting, blocked_pairs, compatible, tables, wants_computers, window


def w(id_, rating, waited=0.0, computers_after=None, user=None):
    return Waiting(id_, user if user is not None else id_, rating, waited, computers_after)


def ids(made: list[Table]) -> list[list[int]]:
    return [sorted(p.id for p in t.players) for t in made]


def test_the_window_doubles_every_ten_seconds_and_opens_after_forty():
    assert [window(s) for s in (0, 9.9, 10, 19, 20, 30, 39.9)] == [100, 100, 200, 200, 400, 800, 800]
    assert window(40) == math.inf


def test_closest_ratings_are_seated_together():
    made = tables([w(1, 1500, 5), w(2, 1900), w(3, 1560), w(4, 1880)], 2, set())
    assert ids(made) == [[1, 3], [2, 4]]
    assert all(t.computers == 0 for t in made)


def test_a_far_rating_waits_until_a_window_reaches_it():
    assert tables([w(1, 1500, 0), w(2, 1850, 0)], 2, set()) == []
    assert ids(tables([w(1, 1500, 40), w(2, 2400, 0)], 2, set())) == [[1, 2]]  # open to anyone


def test_the_longer_waiters_window_decides():
    assert tables([w(1, 1500, 19), w(2, 1850, 0)], 2, set()) == []  # 200 < 350
    assert ids(tables([w(1, 1500, 20), w(2, 1850, 0)], 2, set())) == [[1, 2]]  # 400 >= 350


def test_blocked_players_are_never_seated_together_whoever_blocked():
    blocked = blocked_pairs([(2, 1)])
    assert tables([w(1, 1500, 100), w(2, 1500, 100)], 2, blocked) == []
    made = tables([w(1, 1500, 100), w(2, 1500, 100), w(3, 1500)], 2, blocked)
    assert ids(made) == [[1, 3]]


def test_a_table_of_three_needs_everyone_compatible_with_everyone():
    # 2 is near 1 and 3 near 1, but 2 and 3 are 180 apart: with fresh windows (100) no table of three.
    assert tables([w(1, 1500), w(2, 1590), w(3, 1410)], 3, set()) == []
    assert tables([w(1, 1500, 10), w(2, 1590), w(3, 1410)], 3, set()) == []  # 2 and 3: still 100 each
    assert ids(tables([w(1, 1500, 10), w(2, 1590), w(3, 1410, 10)], 3, set())) == [[1, 2, 3]]


def test_computers_fill_the_seats_once_the_chosen_wait_is_over():
    assert tables([w(1, 1500, 59, computers_after=60)], 3, set()) == []
    made = tables([w(1, 1500, 60, computers_after=60)], 3, set())
    assert ids(made) == [[1]] and made[0].computers == 2


def test_only_players_past_their_own_wait_for_computers_join_a_computer_table():
    waiting = [w(1, 1500, 60, computers_after=60), w(2, 1510, 30, computers_after=60), w(3, 1490, 70, 60)]
    made = tables(waiting, 4, set())
    assert ids(made) == [[1, 3]] and made[0].computers == 2
    assert not wants_computers(w(9, 1500, 500, computers_after=None))


def test_one_player_with_two_requests_is_not_seated_with_themselves():
    assert not compatible(w(1, 1500, user=7), w(2, 1500, user=7), set())


waitings = st.lists(
    st.builds(
        Waiting,
        id=st.integers(0, 30),
        user_id=st.just(0),
        rating=st.integers(800, 2400),
        waited=st.floats(0, 120),
        computers_after=st.one_of(st.none(), st.sampled_from([30, 60, 120, 300])),
    ),
    max_size=25,
    unique_by=lambda x: x.id,
).map(lambda ws: [Waiting(x.id, x.id, x.rating, x.waited, x.computers_after) for x in ws])  # one each


@given(waitings, st.integers(2, 4), st.sets(st.tuples(st.integers(0, 30), st.integers(0, 30)), max_size=40))
def test_every_table_is_full_compatible_and_nobody_sits_twice(waiting, seats, pairs):
    blocked = blocked_pairs(pairs)
    made = tables(waiting, seats, blocked)
    seated = [p.id for t in made for p in t.players]
    assert len(seated) == len(set(seated))
    for t in made:
        assert len(t.players) + t.computers == seats
        for i, a in enumerate(t.players):
            for b in t.players[i + 1 :]:
                assert compatible(a, b, blocked)
        if t.computers:
            assert all(wants_computers(p) for p in t.players)
    # A table of two is made whenever two waiting players may sit together (greedy leaves no such pair).
    if seats == 2:
        left = [p for p in waiting if p.id not in set(seated)]
        for i, a in enumerate(left):
            for b in left[i + 1 :]:
                assert not compatible(a, b, blocked)
