"""The league table's computation (seasons.league, pure): points by finishing place, ties, computers,
the order and its ties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.rules.declare import BY_SCORE, Ranking
from seasons import league

FARKLE = Ranking(order=("laps", "-final_score"), winners_only=True, text="")


def seat(game, player, score, winner=False, resigned=False, laps=None, computer=False):
    return {
        "game": game,
        "player": player,
        "computer": computer,
        "final_score": score,
        "winner": winner,
        "resigned": resigned,
        "laps": laps,
    }


def by_player(rows):
    return {r.player: r for r in rows}


def test_two_three_and_four_seats_give_a_point_for_each_player_behind():
    seats = [
        seat(1, "ann", 300, winner=True),
        seat(1, "bob", 200),
        seat(2, "ann", 100),
        seat(2, "bob", 250, winner=True),
        seat(2, "cid", 50),
        seat(3, "ann", 400, winner=True),
        seat(3, "bob", 300),
        seat(3, "cid", 200),
        seat(3, "dan", 100),
    ]
    rows = by_player(league.table(BY_SCORE, seats))
    assert rows["ann"].points == 1 + 1 + 3
    assert rows["bob"].points == 0 + 2 + 2
    assert rows["cid"].points == 0 + 1
    assert rows["dan"].points == 0
    assert (rows["ann"].games, rows["ann"].wins, rows["ann"].best) == (3, 2, 400)
    assert rows["ann"].average == (300 + 100 + 400) / 3


def test_a_tie_is_half_a_point_for_each_tied_player():
    seats = [
        seat(1, "ann", 300, winner=True),
        seat(1, "bob", 250),
        seat(1, "cid", 250),
        seat(2, "ann", 200, winner=True),
        seat(2, "bob", 200, winner=True),
    ]
    rows = by_player(league.table(BY_SCORE, seats))
    assert rows["ann"].points == 2 + 0.5
    assert rows["bob"].points == 0.5 + 0.5
    assert rows["cid"].points == 0.5
    assert rows["ann"].wins == 2 and rows["bob"].wins == 1


def test_a_resignation_comes_last_whatever_its_score():
    seats = [seat(1, "ann", 900, resigned=True), seat(1, "bob", 10, winner=True), seat(1, "cid", 5)]
    rows = by_player(league.table(BY_SCORE, seats))
    assert (rows["bob"].points, rows["cid"].points, rows["ann"].points) == (2, 1, 0)


def test_farkle_places_by_the_engine_s_winners_then_laps_and_score():
    seats = [
        seat(1, "ann", 3100, winner=True, laps=9),
        seat(1, "bob", 2900, laps=9),
        seat(1, "cid", 2950, laps=9),
    ]
    rows = by_player(league.table(FARKLE, seats))
    assert (rows["ann"].points, rows["cid"].points, rows["bob"].points) == (2, 1, 0)


def test_computers_are_opponents_without_a_row():
    seats = [
        seat(1, "ann", 300, winner=True),
        seat(1, "robo", 200, computer=True),
        seat(2, "ann", 100),
        seat(2, "robo", 250, winner=True, computer=True),
    ]
    rows = league.table(BY_SCORE, seats)
    assert [r.player for r in rows] == ["ann"]
    assert (rows[0].games, rows[0].wins, rows[0].points) == (2, 1, 1)


def test_the_order_is_points_then_wins_then_average_and_equals_share_a_rank():
    rows = [
        league.Row("ann", games=2, wins=1, half_points=4, total=500),
        league.Row("bob", games=2, wins=2, half_points=4, total=100),
        league.Row("cid", games=3, wins=1, half_points=4, total=600),
        league.Row("dan", games=2, wins=1, half_points=4, total=500),
        league.Row("eve", games=1, wins=1, half_points=6, total=10),
    ]
    ordered = league.ranked(rows)
    assert [(r.player, r.rank) for r in ordered] == [
        ("eve", 1),
        ("bob", 2),
        ("ann", 3),
        ("dan", 3),
        ("cid", 5),
    ]
    assert league.champions(ordered) == ["eve"]
    assert league.champions(league.ranked(rows[:1] + rows[3:4])) == ["ann", "dan"]


def test_rating_changes_go_to_their_players_and_others_have_none():
    seats = [seat(1, "ann", 300, winner=True), seat(1, "bob", 200)]
    rows = by_player(league.table(BY_SCORE, seats, {"ann": 14, "zed": 3}))
    assert rows["ann"].rating_change == 14 and rows["bob"].rating_change is None
    assert "zed" not in rows


def test_no_seats_no_rows():
    assert league.table(BY_SCORE, []) == []
    assert league.champions([]) == []


game_scores = st.lists(st.integers(min_value=0, max_value=5), min_size=2, max_size=4)


@given(st.lists(game_scores, min_size=1, max_size=8))
def test_every_game_gives_n_times_n_minus_one_half_points_in_all(games):
    """Each pair of seats shares two half-points (two to the better, one each when tied)."""
    players = ["ann", "bob", "cid", "dan"]
    seats = []
    for n, scores in enumerate(games):
        top = max(scores)
        seats += [seat(n, players[i], s, winner=s == top) for i, s in enumerate(scores)]
    rows = league.table(BY_SCORE, seats)
    assert sum(r.half_points for r in rows) == sum(len(s) * (len(s) - 1) for s in games)
    assert sum(r.games for r in rows) == sum(len(s) for s in games)
    ranks = [r.rank for r in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
