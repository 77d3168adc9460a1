"""Games with computer players are kept and counted like any other: statistics filter them in or out,
high-score lists leave the computers out and mark a person's entry from such a game."""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Game
from games.results.highscores import high_scores
from games.results.stats import player_stats
from games.tables import services
from tests.games.conftest import random_legal_action

pytestmark = pytest.mark.django_db(transaction=True)
GOAL = {"goal": 3000}


def play_to_end(game: Game, person, seed: int) -> Game:
    """The person plays at random, the worker plays the computers, until the game is over."""
    rng = random.Random(seed)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        if game.current_player == person.username:
            action = random_legal_action(game.state, rng)
            services.game_apply_action(game_id=game.pk, user=person, client_id=f"p{game.seq}", action=action)
        else:
            call_command("db_worker", batch=True, interval=0, startup_delay=False, verbosity=0)
    raise AssertionError("the game did not end")


@pytest.fixture
def games(make_user):
    ann = make_user("ann")
    versus = services.game_create(
        creator=ann, kind="farkle", options=GOAL, seats=2, computers=1, strength="easy"
    )
    solo = services.game_create(creator=ann, kind="farkle", options=GOAL, seats=1)
    return ann, play_to_end(versus, ann, 1), play_to_end(solo, ann, 2)


def test_statistics_count_games_with_computers_and_filter_them(games):
    ann, versus, solo = games
    everything = player_stats(ann, "farkle", goal=3000)
    assert everything["games"] == 2 and everything["computer_games"] == 1
    people = player_stats(ann, "farkle", goal=3000, opponents="people")
    assert [s["game"] for s in people["series"]] == [solo.pk]
    computers = player_stats(ann, "farkle", goal=3000, opponents="computers")
    assert [s["game"] for s in computers["series"]] == [versus.pk]
    assert computers["series"][0]["computers"] is True
    # The computer's own statistics are kept like anyone's.
    computer = versus.seats.exclude(user=ann).get().user
    assert player_stats(computer, "farkle", goal=3000)["games"] == 1


def test_the_statistics_page_and_api_take_the_filter(games, client):
    ann, _, _ = games
    client.force_login(ann)
    url = reverse("api_player_stats", args=["ann"])
    answer = client.get(url, {"kind": "farkle", "goal": 3000, "opponents": "computers"}).json()
    assert (answer["games"], answer["opponents"], answer["computer_games"]) == (1, "computers", 1)
    assert client.get(url, {"kind": "farkle", "opponents": "robots"}).status_code == 404
    query = {"kind": "farkle", "goal": 3000, "opponents": "people"}
    page = client.get(reverse("players:stats", args=["ann"]), query)
    assert page.status_code == 200
    assert 'aria-current="page">Among people' in page.content.decode()


def test_high_scores_leave_computers_out_and_mark_games_with_them(games):
    ann, versus, solo = games
    board = high_scores("farkle", goal=3000, viewer=ann)
    players = {e["player"] for e in board["entries"]}
    assert not any(p.startswith("computer-") for p in players)
    marks = {e["game"]: e["computers"] for e in board["entries"]}
    # Farkle lists winners only: whichever of ann's games she won is there, marked by its table.
    for game, marked in marks.items():
        assert marked == (game == versus.pk)
    assert solo.pk in marks  # a solo game is always won
