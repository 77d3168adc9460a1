"""Who sits with whom in a tournament round (tournaments.pairing, pure): Swiss at tables of 2, 3 and 4
with byes and without avoidable repeats, and round robins in which every pair meets."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import Round, Standing, repeats, round_robin, swiss_order, swiss_round, table_sizes


def std(player, points=0.0, rating=1500, byes=0):
    return Standing(player, points, rating, byes)


def sizes_of(round_: Round) -> list[int]:
    return [len(t) for t in round_.tables]


# --- table sizes and byes ----------------------------------------------------------------------------


def test_table_sizes_fill_full_tables_then_one_smaller_table_or_a_bye():
    assert table_sizes(6, 2) == ([2, 2, 2], 0)
    assert table_sizes(5, 2) == ([2, 2], 1)
    assert table_sizes(7, 4) == ([4, 3], 0)  # a table of 3 rather than three byes
    assert table_sizes(6, 4) == ([4, 2], 0)  # a table of 2 rather than two byes
    assert table_sizes(5, 4) == ([4], 1)  # one left: a bye (a table of one is no game)
    assert table_sizes(4, 3) == ([3], 1)
    assert table_sizes(5, 3) == ([3, 2], 0)
    assert table_sizes(3, 4) == ([3], 0)  # fewer players than seats: one smaller table
    assert table_sizes(1, 2) == ([], 1)


# --- Swiss: explicit cases --------------------------------------------------------------------------


def test_the_first_round_pairs_by_rating_from_the_top():
    players = [std("a", rating=1400), std("b", rating=1700), std("c", rating=1500), std("d", rating=1600)]
    assert swiss_round(players, 2, set()).tables == [["b", "d"], ["c", "a"]]


def test_standing_comes_before_rating():
    players = [std("a", 1, 1400), std("b", 0, 1700), std("c", 1, 1500), std("d", 0, 1600)]
    assert [s.player for s in swiss_order(players)] == ["c", "a", "b", "d"]
    assert swiss_round(players, 2, set()).tables == [["c", "a"], ["b", "d"]]


def test_an_odd_number_gives_the_lowest_standing_player_without_a_bye_the_bye():
    players = [std("a", 2), std("b", 1), std("c", 1), std("d", 0, byes=1), std("e", 0)]
    made = swiss_round(players, 2, set())
    assert made.byes == ["e"]
    # Everyone has had a bye but one: that one gets it, however high they stand.
    players = [
        std("a", 2),
        std("b", 1, byes=1),
        std("c", 1, byes=1),
        std("d", 0, byes=1),
        std("e", 0, byes=1),
    ]
    assert swiss_round(players, 2, set()).byes == ["a"]


def test_a_player_who_has_met_nearly_everyone_takes_the_smaller_table():
    """Eight at tables of 3: player 0 has met all but 5, so the only seating without a repeat puts 0
    and 5 at the table of two (the search once tried only the tables in order, and found a repeat)."""
    met = {frozenset((0, p)) for p in (1, 2, 3, 4, 6, 7)} | {frozenset((1, 2)), frozenset((5, 6))}
    players = [std(6, rating=1301), *(std(p, rating=1300) for p in (0, 1, 2, 3, 4, 5, 7))]
    made = swiss_round(players, 3, met)
    assert repeats(made.tables, met) == 0
    assert made.tables[-1] == [0, 5]


def test_no_rematch_when_one_can_be_avoided():
    # Round 2 of four: the winners 0 and 2 meet, and so do 1 and 3; nobody meets their first opponent.
    met = {frozenset((0, 1)), frozenset((2, 3))}
    players = [std(0, 1), std(2, 1), std(1, 0), std(3, 0)]
    assert swiss_round(players, 2, met).tables == [[0, 2], [1, 3]]
    # The top two have met: the top player takes the next one down instead.
    met = {frozenset((0, 2))}
    assert swiss_round(players, 2, met).tables == [[0, 1], [2, 3]]


def test_a_repeat_only_where_none_can_be_avoided():
    # Three players at tables of 2 after every pair has met: a repeat is unavoidable, one only.
    met = {frozenset(p) for p in combinations("abc", 2)}
    made = swiss_round([std("a"), std("b"), std("c")], 2, met)
    assert len(made.tables) == 1 and len(made.byes) == 1
    assert repeats(made.tables, met) == 1


def test_tables_of_three_and_four_with_a_smaller_table_last():
    players = [std(i, rating=2000 - i) for i in range(7)]
    made = swiss_round(players, 3, set())
    assert made.tables == [[0, 1, 2], [3, 4, 5]] and made.byes == [6]
    made = swiss_round(players, 4, set())
    assert made.tables == [[0, 1, 2, 3], [4, 5, 6]] and made.byes == []
    made = swiss_round(players[:6], 4, set())
    assert made.tables == [[0, 1, 2, 3], [4, 5]]


def test_tables_of_four_avoid_everyone_met_at_the_last_round():
    # Eight players, round 1 seated 0-3 and 4-7: round 2 mixes them so that nobody meets twice.
    met = {frozenset(p) for p in combinations(range(4), 2)} | {
        frozenset(p) for p in combinations(range(4, 8), 2)
    }
    made = swiss_round([std(i, rating=2000 - i) for i in range(8)], 4, met)
    assert repeats(made.tables, met) == 4  # two of each old table at each new one is the least possible
    assert made.tables[0][0] == 0


# --- Swiss: properties -------------------------------------------------------------------------------


@st.composite
def swiss_cases(draw, max_players=8):
    n = draw(st.integers(1, max_players))
    size = draw(st.sampled_from([2, 3, 4]))
    players = [
        std(
            i,
            draw(st.sampled_from([0, 0.5, 1, 1.5, 2, 3])),
            draw(st.integers(1300, 1700)),
            draw(st.integers(0, 2)),
        )
        for i in range(n)
    ]
    pairs = [frozenset(p) for p in combinations(range(n), 2)]
    met = set(draw(st.lists(st.sampled_from(pairs), unique=True))) if pairs else set()
    return players, size, met


def _partitions(players: list, sizes: list[int]):
    """Every way to seat ``players`` at tables of ``sizes`` (table order and seat order aside)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for others in combinations(rest, sizes[0] - 1):
        left = [p for p in rest if p not in others]
        for tail in _partitions(left, sizes[1:]):
            yield [[first, *others], *tail]


@given(swiss_cases())
@settings(max_examples=300, deadline=None)
def test_swiss_seats_everyone_once_at_valid_tables(case):
    players, size, met = case
    made = swiss_round(players, size, met)
    seated = made.players()
    assert sorted(seated) == sorted(p.player for p in players)
    expected_sizes, byes = table_sizes(len(players), size)
    assert sorted(sizes_of(made), reverse=True) == expected_sizes
    assert len(made.byes) == byes
    assert all(len(t) == size for t in made.tables[:-1])  # only the last table may be smaller
    assert made == swiss_round(list(reversed(players)), size, met)  # the order of the input is no matter


@given(swiss_cases())
@settings(max_examples=300, deadline=None)
def test_swiss_bye_goes_to_the_lowest_standing_among_the_fewest_byes(case):
    players, size, met = case
    made = swiss_round(players, size, met)
    if not made.byes:
        return
    (bye,) = made.byes
    fewest = min(p.byes for p in players)
    ordered = [p for p in swiss_order(players) if p.byes == fewest]
    assert bye == ordered[-1].player


@given(swiss_cases(max_players=8))
@settings(max_examples=200, deadline=None)
def test_swiss_has_no_repeat_that_could_be_avoided(case):
    players, size, met = case
    made = swiss_round(players, size, met)
    seated = [p for table in made.tables for p in table]
    best = min((repeats(seating, met) for seating in _partitions(seated, sizes_of(made))), default=0)
    assert repeats(made.tables, met) == best


@given(swiss_cases())
@settings(max_examples=200, deadline=None)
def test_swiss_top_player_opens_the_first_table(case):
    """The top player opens their table: the first one, unless the fewest repeats seat them at the
    smaller table (which comes last: a player who has met nearly everyone may only fit there)."""
    players, size, met = case
    made = swiss_round(players, size, met)
    if made.tables:
        first_seated = next(p.player for p in swiss_order(players) if p.player not in made.byes)
        (theirs,) = [t for t in made.tables if first_seated in t]
        assert theirs[0] == first_seated
        assert theirs is made.tables[0] or (len(theirs) < size and theirs is made.tables[-1])


# --- round robin -------------------------------------------------------------------------------------


def _met(rounds: list[Round]) -> list[frozenset]:
    return [frozenset(pair) for r in rounds for t in r.tables for pair in combinations(t, 2)]


@given(st.integers(2, 14))
def test_round_robin_at_two_meets_every_pair_exactly_once(n):
    rounds = round_robin(list(range(n)), 2)
    met = _met(rounds)
    assert sorted(met, key=sorted) == sorted({frozenset(p) for p in combinations(range(n), 2)}, key=sorted)
    assert len(met) == len(set(met))  # exactly once
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for r in rounds:
        assert sorted(r.players()) == list(range(n))
        assert len(r.byes) == n % 2
    if n % 2:  # with an odd number each player sits out exactly once
        assert sorted(b for r in rounds for b in r.byes) == list(range(n))


@given(st.integers(2, 13), st.sampled_from([3, 4]))
@settings(deadline=None)
def test_round_robin_at_three_and_four_meets_every_pair_at_least_once(n, size):
    rounds = round_robin(list(range(n)), size)
    assert set(_met(rounds)) == {frozenset(p) for p in combinations(range(n), 2)}
    sizes, byes = table_sizes(n, size)
    for r in rounds:
        assert sorted(r.players()) == list(range(n))
        assert sorted(sizes_of(r), reverse=True) == sizes and len(r.byes) == byes
    # Never more rounds than the pairs need if each round met one new pair only.
    assert len(rounds) <= n * (n - 1) // 2


def test_round_robin_examples():
    assert [r.tables for r in round_robin(["a", "b", "c", "d"], 2)] == [
        [["a", "d"], ["b", "c"]],
        [["a", "c"], ["d", "b"]],
        [["a", "b"], ["c", "d"]],
    ]
    five = round_robin(list(range(5)), 2)
    assert len(five) == 5 and [r.byes for r in five] == [[0], [3], [1], [4], [2]]
    # Four players at tables of 4: one round; at tables of 3, three rounds with a bye each.
    assert [r.tables for r in round_robin(list(range(4)), 4)] == [[[0, 1, 2, 3]]]
    assert len(round_robin(list(range(4)), 3)) == 3
    assert round_robin(["solo"], 2) == []
