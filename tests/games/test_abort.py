"""A game ended before every person at it made a move is aborted (docs/ratings.md): unrated, left out of
statistics, high scores and seasons, shown as aborted; a resignation or a skip is no move."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from games.models import Game
from games.results.highscores import high_scores
from games.results.stats import player_stats
from games.tables import services as tables
from ratings.models import Rating, RatingChange
from tests.factories import GameFactory
from tests.games.sockets import Client, new_table
from tests.played import everyone_moves, move

GOAL = {"goal": 3000}


def resign(game, user, n=[0]) -> Game:  # noqa: B006 - client ids across the module
    n[0] += 1
    tables.game_apply_action(game_id=game.pk, user=user, client_id=f"abort-{n[0]}", action={"type": "resign"})
    return Game.objects.get(pk=game.pk)


@pytest.fixture(params=["thread", "loop"])
def move_path(request, settings):
    """On PostgreSQL both ways a socket's move is made (games.live.move_async, and the thread)."""
    if request.param == "loop" and connection.vendor != "postgresql":
        pytest.skip("moves on the event loop are for PostgreSQL")
    settings.WS_ASYNC_MOVES = request.param == "loop"
    return request.param


@pytest.fixture
def trio(make_user):
    return make_user("ann"), make_user("bob"), make_user("wat")


@pytest.mark.django_db
def test_a_resignation_at_the_first_move_aborts_the_game_unrated_and_uncounted(make_user, client):
    ann, bob = make_user("ann"), make_user("bob")
    game = resign(GameFactory(creator=ann, players=[bob], options=GOAL), ann)
    assert game.status == Game.Status.ABORTED and game.seq == 1
    assert not RatingChange.objects.exists() and not Rating.objects.exists()
    # bob "won" nothing: no game, no win, no 0-point score, no lap in his figures or in any list.
    figures = player_stats(bob, "farkle", goal=3000)
    assert figures["games"] == 0 and figures["wins"] == 0
    assert high_scores("farkle", goal=3000)["entries"] == []
    client.force_login(bob)
    history = client.get(reverse("players:history", args=["bob"])).content.decode()
    assert "aborted" in history and "won" not in history
    mine = client.get(reverse("games:mine")).content.decode()
    assert "aborted" in mine


@pytest.mark.django_db
def test_a_game_is_aborted_until_every_person_has_moved(make_user):
    ann, bob, cy = make_user("ann"), make_user("bob"), make_user("cy")
    # ann moved, bob did not: bob's resignation aborts it, and so would ann's.
    game = GameFactory(creator=ann, players=[bob], options=GOAL)
    move(game, ann, points=False)
    assert resign(game, bob).status == Game.Status.ABORTED
    game = GameFactory(creator=ann, players=[bob], options=GOAL)
    move(game, ann, points=False)
    assert resign(game, ann).status == Game.Status.ABORTED
    # At three seats, one person who never moved is enough: the two others' resignations abort it.
    game = GameFactory(creator=ann, players=[bob, cy], options=GOAL)
    move(game, ann, points=False)
    game.refresh_from_db()
    while game.engine.current_player(game.state) == "ann":  # ann's turn goes on until she scores none
        move(game, ann, points=False)
        game.refresh_from_db()
    move(game, bob, points=False)
    resign(game, ann)
    assert resign(game, bob).status == Game.Status.ABORTED
    assert not RatingChange.objects.exists()
    # Everyone moved: the same resignation ends a rated game.
    game = everyone_moves(GameFactory(creator=ann, players=[bob], options=GOAL), points=False)
    assert resign(game, bob).status == Game.Status.FINISHED
    assert RatingChange.objects.filter(game=game).count() == 2


@pytest.mark.django_db
def test_against_a_computer_the_person_must_move_the_computer_need_not(make_user):
    ann = make_user("ann")
    game = GameFactory(creator=ann, computers=1, strength="easy", options=GOAL)
    assert resign(game, ann).status == Game.Status.ABORTED
    assert not RatingChange.objects.exists()
    game = everyone_moves(GameFactory(creator=ann, computers=1, strength="easy", options=GOAL), points=False)
    assert resign(game, ann).status == Game.Status.FINISHED
    assert RatingChange.objects.filter(game=game).count() == 2


@pytest.mark.django_db
def test_a_solo_resignation_is_still_given_up_not_aborted(make_user):
    ann = make_user("ann")
    game = tables.game_create(creator=ann, kind="farkle", options=GOAL, seats=1)
    assert resign(game, ann).status == Game.Status.ABANDONED


@pytest.mark.django_db(transaction=True)
async def test_every_seat_hears_the_game_aborted(trio, move_path):
    ann, bob, watcher = trio
    game = await new_table(ann, [bob], "farkle", GOAL)
    tabs = [Client(user, game.pk) for user in (ann, bob, watcher)]
    try:
        for tab in tabs:
            await tab.open()
        reply = await tabs[1].act({"type": "resign"})
        assert reply["type"] == "ack"
        for tab in tabs:
            assert (await tab.until_seq(1))["status"] == "aborted"
            await tab.comm.send_json_to({"type": "sync", "seq": 0})
            snapshot = await tab.next("snapshot")
            assert snapshot["game"]["status"] == "aborted"
            assert all(p["change"] is None for p in snapshot["ratings"]["players"].values())
        assert tabs[0].events() == tabs[1].events() == tabs[2].events()
    finally:
        for tab in tabs:
            await tab.close()
