"""Ratings change when a rated game ends, by openskill's own numbers: the finishing order
from games.results.places (ties as ties, a resignation last), computers rated like people, solo and
opted-out tables never."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from games.models import Game, Seat
from games.results.places import final_places, places, seat_results
from games.rules import declare, farkle
from games.tables import services as tables
from ratings import kinds, skill
from ratings.models import Rating, RatingChange
from ratings.services import game_rate
from tests.factories import GameFactory
from tests.played import everyone_moves

GOAL = {"goal": 3000}


def library(before, ranks):
    """The library's own numbers, from a model made here with its defaults."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]


def resign(game, user, n=[0]):  # noqa: B006 - client ids across the module
    n[0] += 1
    tables.game_apply_action(game_id=game.pk, user=user, client_id=f"r{n[0]}", action={"type": "resign"})


def table(creator, *others, points=False, **options):
    """A started table of Farkle to 3000 at which every player has made a move (their turns scored
    nothing unless ``points``): a game ended sooner is aborted, unrated."""
    return GameFactory(creator=creator, players=others, options=GOAL, moved=True, points=points, **options)


# --- the model: the library's numbers ------------------------------------------------------------------


def test_update_is_the_librarys_own_rate():
    before = [(25.0, 25 / 3), (30.0, 4.0), (21.5, 6.2)]
    assert skill.update(before, [2, 1, 3]) == library(before, [2, 1, 3])
    assert skill.update(before, [1, 1, 3]) == library(before, [1, 1, 3])


def test_a_newcomer_reads_1500_and_is_provisional():
    mu, sigma = skill.initial()
    assert (mu, sigma) == (PlackettLuce().mu, PlackettLuce().sigma)
    assert skill.display(mu, sigma) == 1500
    assert skill.provisional(sigma) and not skill.provisional(3.9)
    assert skill.display(mu + 1, sigma) == 1500 + skill.SCALE


@given(st.lists(st.integers(min_value=1, max_value=4), min_size=2, max_size=6))
def test_the_first_never_loses_and_the_last_never_gains(ranks):
    before = [(25.0, 25 / 3)] * len(ranks)
    after = skill.update(before, ranks)
    for rank, (mu, _) in zip(ranks, after, strict=True):
        if len(set(ranks)) == 1:
            assert mu == pytest.approx(25.0)  # everyone tied: nobody moves
        elif rank == min(ranks):
            assert mu > 25.0
        elif rank == max(ranks):
            assert mu < 25.0


# --- places ---------------------------------------------------------------------------------------------


def seat(score, winner=False, resigned=False, laps=None):
    return {"final_score": score, "winner": winner, "resigned": resigned, "laps": laps}


def test_places_tie_equal_results_and_put_resignations_last():
    by_score = declare.BY_SCORE
    seats = [seat(300, True), seat(250), seat(300, True), seat(400, resigned=True), seat(250)]
    assert places(by_score, seats) == [1, 3, 1, 5, 3]


def test_farkle_places_winners_first_then_by_score():
    # Two reached the goal in the same lap: both win, the higher score ahead; a resignation last.
    seats = [
        seat(3100, True, laps=7),
        seat(3400, True, laps=7),
        seat(3600, resigned=True, laps=7),
        seat(900, laps=7),
    ]
    assert places(farkle.ranking, seats) == [2, 1, 4, 3]


def test_a_finished_games_stored_seats_are_its_final_states_results(make_user):
    # One function reads a game's results from its final state, for the game's end and the ratings'
    # benchmark alike (bench/ratings_predict.py): the seats the end stores are its figures.
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    game = table(ann, bob, cy)
    resign(game, bob)
    resign(game, cy)
    game.refresh_from_db()
    stored = list(game.seats.order_by("position").values("final_score", "winner", "resigned", "laps"))
    assert stored == seat_results(farkle, game.state)
    assert final_places(farkle, game.state) == places(farkle.ranking, stored) == [1, 2, 2]


# --- the game's end -------------------------------------------------------------------------------------


def test_a_resignation_ends_the_game_and_rates_it_in_its_transaction(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = table(ann, bob)
    resign(game, bob)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    start = skill.initial()
    (ann_after, bob_after) = library([start, start], [1.0, 2.0])
    assert (changes[ann.pk].mu_after, changes[ann.pk].sigma_after) == ann_after
    assert (changes[bob.pk].mu_after, changes[bob.pk].sigma_after) == bob_after
    assert (changes[ann.pk].place, changes[bob.pk].place) == (1, 2)
    assert changes[ann.pk].display_before == 1500 and changes[ann.pk].delta > 0 > changes[bob.pk].delta
    rating = Rating.objects.get(user=ann, kind="farkle:3000")
    assert (rating.mu, rating.sigma, rating.games) == (*ann_after, 1)
    assert rating.display == changes[ann.pk].display_after and rating.updated_at == game.finished_at


def test_ratings_carry_over_from_game_to_game_of_one_kind_only(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    resign(table(ann, bob), bob)
    resign(table(ann, bob), ann)
    other = tables.game_create(creator=ann, kind="farkle", options={"goal": 10000}, seats=2)
    tables.game_join(game_id=other.pk, user=bob)
    tables.game_start(game_id=other.pk, user=ann)
    resign(everyone_moves(other), ann)
    first, second = RatingChange.objects.filter(user=ann, kind="farkle:3000").order_by("at")
    assert (second.mu_before, second.sigma_before) == (first.mu_after, first.sigma_after)
    assert Rating.objects.get(user=ann, kind="farkle:3000").games == 2
    fresh = Rating.objects.get(user=ann, kind="farkle:10000")
    assert fresh.games == 1 and RatingChange.objects.get(game=other, user=ann).display_before == 1500


def test_three_players_two_resign_they_tie_last(make_user):
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    game = table(ann, bob, cy)
    resign(game, ann)  # ann's turn: she leaves; bob is to move
    resign(game, bob)
    places_ = dict(RatingChange.objects.filter(game=game).values_list("user__username", "place"))
    assert places_ == {"cy": 1, "ann": 2, "bob": 2}
    start = skill.initial()
    expected = library([start] * 3, [2.0, 2.0, 1.0])
    got = [RatingChange.objects.get(game=game, user=u) for u in (ann, bob, cy)]
    assert [(c.mu_after, c.sigma_after) for c in got] == expected


def test_ties_in_score_are_ties_in_the_update(make_user):
    """A finished card game whose two players drew (their seats written as the game's end writes
    them): the update is the library's for a tie."""
    ann, bob = make_user("ann"), make_user("bob")
    game = tables.game_create(creator=ann, kind="triple-quintzee", seats=2)
    tables.game_join(game_id=game.pk, user=bob)
    Seat.objects.filter(game=game).update(final_score=420, winner=True)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=game.created_at)
    game.refresh_from_db()
    changes = game_rate(game)
    start = skill.initial()
    assert [(c.place, c.mu_after, c.sigma_after) for c in changes] == [
        (1, *after) for after in library([start, start], [1.0, 1.0])
    ]
    assert kinds.of(game) == "triple-quintzee" == changes[0].kind


def test_computers_are_rated(make_user):
    ann = make_user("ann")
    game = tables.game_create(
        creator=ann, kind="farkle", options=GOAL, seats=2, computers=1, strength="expert"
    )
    resign(everyone_moves(game), ann)
    computer = Seat.objects.get(game=game, position=1).user
    assert computer.computer == "expert"
    assert Rating.objects.get(user=computer, kind="farkle:3000").display > 1500


def test_solo_and_opted_out_games_are_never_rated(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    solo = tables.game_create(creator=ann, kind="farkle", options=GOAL, seats=1)
    resign(solo, ann)
    unrated = table(ann, bob, rated=False)
    resign(unrated, bob)
    assert Game.objects.get(pk=unrated.pk).status == Game.Status.FINISHED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_play_again_keeps_the_tables_choice(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    unrated = table(ann, bob, rated=False)
    resign(unrated, bob)
    again = tables.game_play_again(game_id=unrated.pk, user=ann)
    assert again.rated is False


def test_the_create_form_has_a_rated_box_checked_and_an_unchecked_box_opts_out(make_user, client):
    ann = make_user("ann")
    client.force_login(ann)
    page = client.get(reverse("games:lobby")).content.decode()
    (box,) = re.findall(r'<input type="checkbox" name="rated"[^>]*>', page)
    assert "checked" in box
    post = {"kind": "farkle", "seats": 2, "goal": 3000, "pace": "live", "absence_limit": 120}
    client.post(reverse("games:new"), post)
    client.get(reverse("games:lobby"))  # the next form is on a page with the next game's commitment
    client.post(reverse("games:new"), {**post, "rated": "on"})
    assert list(Game.objects.order_by("pk").values_list("rated", flat=True)) == [False, True]


# --- the rebuild ------------------------------------------------------------------------------------


def snapshot():
    ratings = sorted(
        Rating.objects.values_list(
            "user_id", "kind", "mu", "sigma", "display", "provisional", "games", "updated_at"
        )
    )
    changes = sorted(
        RatingChange.objects.values_list(
            "game_id",
            "user_id",
            "kind",
            "at",
            "place",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "display_before",
            "display_after",
            "provisional",
        )
    )
    return ratings, changes


def test_the_rebuild_arrives_at_the_live_ratings(make_user):
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    resign(table(ann, bob), bob)
    resign(table(bob, cy, ann), bob)  # goes on: cy, then ann
    resign(table(cy, ann), cy)
    three = table(ann, bob, cy)
    resign(three, ann)
    resign(three, bob)
    resign(table(ann, bob, rated=False), ann)
    computer = tables.game_create(
        creator=cy, kind="farkle", options=GOAL, seats=2, computers=1, strength="good"
    )
    resign(everyone_moves(computer), cy)
    game = tables.game_create(creator=ann, kind="farkle", options={"goal": 10000}, seats=2)
    tables.game_join(game_id=game.pk, user=cy)
    tables.game_start(game_id=game.pk, user=ann)
    resign(everyone_moves(game), ann)
    live = snapshot()
    # bob's three-seat game goes on (not rated yet), and the unrated table is not: 2 + 2 + 3 + 2 + 2.
    assert len(live[1]) == 11
    RatingChange.objects.all().delete()
    Rating.objects.update(mu=0, sigma=1, display=0, games=99)
    call_command("rebuild_ratings", verbosity=0)
    assert snapshot() == live


def test_only_three_rated_games_a_day_between_the_same_two_people(make_user):
    """A second account, or a friend, passes a rating a game at a time: between two people, the rated
    games after three in a day are played unrated (docs/ratings.md), and the rebuild agrees."""
    from datetime import timedelta

    from ratings.services import PAIR_GAMES_PER_DAY

    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    counted = [table(ann, bob) for _ in range(PAIR_GAMES_PER_DAY)]
    for game in counted:
        resign(game, bob)
    fourth = table(bob, ann)  # either way round, and whoever created the table
    resign(fourth, bob)
    fourth.refresh_from_db()
    assert fourth.status == Game.Status.FINISHED and not fourth.rated
    assert not RatingChange.objects.filter(game=fourth).exists()
    assert Rating.objects.get(user=ann, kind="farkle:3000").games == PAIR_GAMES_PER_DAY
    # Another pair is not limited, nor a table of three where ann and bob sit with cy.
    resign(table(ann, cy), cy)
    assert RatingChange.objects.filter(user=ann).count() == PAIR_GAMES_PER_DAY + 1
    three = table(ann, bob, cy)
    resign(three, bob)
    resign(three, cy)
    three.refresh_from_db()
    assert not three.rated and not RatingChange.objects.filter(game=three).exists()
    # A day later the pair's games count again.
    RatingChange.objects.filter(game__in=counted).update(at=timezone.now() - timedelta(days=1, minutes=1))
    later = table(ann, bob)
    resign(later, ann)
    assert RatingChange.objects.filter(game=later).count() == 2
    live = Rating.objects.order_by("pk").values_list("user_id", "kind", "games")
    before = list(live)
    call_command("rebuild_ratings", verbosity=0)
    assert list(live) == before
