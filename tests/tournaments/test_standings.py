"""A tournament's standings (tournaments.standings, pure): match points by finishing place, scaled to the
table size; a bye as a win; Buchholz, then the total score, as tie-breaks; shared places."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings import Result, game_points, met_pairs, standings


def test_points_by_place_at_full_and_smaller_tables():
    assert game_points([1, 2], 2) == [1.0, 0.0]
    assert game_points([1, 1], 2) == [0.5, 0.5]
    assert game_points([1, 2, 3, 4], 4) == [3.0, 2.0, 1.0, 0.0]
    assert game_points([1, 1, 3, 4], 4) == [2.5, 2.5, 1.0, 0.0]
    # A table of 3 in a tournament of tables of 4: a win is still worth 3.
    assert game_points([1, 2, 3], 4) == [3.0, 1.5, 0.0]


@given(st.lists(st.integers(1, 4), min_size=2, max_size=4), st.sampled_from([2, 3, 4]))
def test_a_tables_points_add_up_to_the_pairs_at_it_scaled(places, size):
    n = len(places)
    assert abs(sum(game_points(places, size)) - n * (n - 1) / 2 * (size - 1) / (n - 1)) < 1e-9


def test_a_bye_counts_as_a_win_and_buchholz_breaks_ties():
    results = [
        Result(["a", "b"], [1, 2], [3000, 500]),
        Result(["c", "d"], [1, 2], [3100, 900]),
        Result(["a", "c"], [1, 2], [3000, 2000]),
        Result(["b", "d"], [2, 1], [100, 3000]),
    ]
    lines = standings(["a", "b", "c", "d", "e"], results, ["e", "e"], 2)
    got = {line.player: (line.points, line.buchholz, line.place) for line in lines}
    assert got["a"] == (2.0, 1.0, 1)  # beat b (0) and c (1)
    assert got["e"] == (2.0, 0.0, 2)  # two byes: the points of two wins, no opponents
    assert got["c"][0] == 1.0 and got["d"][0] == 1.0
    # c and d both have 1 point; c met d (1) and a (2): 3; d met c (1) and b (0): 1.
    assert [line.player for line in lines] == ["a", "e", "c", "d", "b"]


def test_total_score_breaks_what_buchholz_leaves_and_full_ties_share_a_place():
    results = [Result(["a", "b"], [1, 1], [500, 500]), Result(["c", "d"], [1, 1], [700, 700])]
    lines = standings(["a", "b", "c", "d"], results, [], 2)
    assert [(line.player, line.place) for line in lines] == [("c", 1), ("d", 1), ("a", 3), ("b", 3)]


def test_pairs_met():
    assert met_pairs([["a", "b", "c"], ["a", "d"]]) == {
        frozenset(p) for p in (("a", "b"), ("a", "c"), ("b", "c"), ("a", "d"))
    }
