"""Game services: lifecycle, actions with idempotency, the log and its replay, resign, skip, play again."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games.errors import BadRequest, Conflict, Forbidden, InvalidAction, ReplayMismatch
from games.live import presence
from games.models import Action, Game, Seat
from games.results import replays
from games.tables import services
from tests.factories import GameFactory
from tests.games.conftest import random_legal_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def cid(make_user):
    return make_user("cid")


def table(creator, *others, **made):
    return GameFactory(creator=creator, players=others, **made)


_ids = iter(range(10**9))


def act(game, user, action, client_id=None):
    return services.game_apply_action(
        game_id=game.pk, user=user, client_id=client_id or f"c{next(_ids)}", action=action
    )


# --- lifecycle -------------------------------------------------------------------------------


def test_solo_game_starts_at_once(ann):
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=1)
    assert game.status == Game.Status.PLAYING
    assert game.state["players"] == ["ann"]
    assert game.state["current"] == "ann"


@pytest.mark.parametrize(
    "kind", ["triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee", "farkle"]
)
def test_every_kind_can_be_created_solo(ann, kind):
    assert services.game_create(creator=ann, kind=kind, seats=1).status == Game.Status.PLAYING


def test_create_validates_kind_seats_and_options(ann):
    with pytest.raises(BadRequest):
        services.game_create(creator=ann, kind="chess")
    with pytest.raises(BadRequest):
        services.game_create(creator=ann, kind="farkle", seats=7)
    with pytest.raises(BadRequest, match="goal"):
        services.game_create(creator=ann, kind="farkle", options={"goal": 1234})
    with pytest.raises(BadRequest):
        services.game_create(creator=ann, kind="triple-quintzee", options={"goal": 3000})
    game = services.game_create(creator=ann, kind="farkle", options={"goal": 3000, "dice": 5}, seats=2)
    assert game.options == {"goal": 3000, "dice": 5}


def test_join_start_and_seats(ann, bob, cid):
    game = services.game_create(creator=ann, kind="farkle", seats=2)
    assert game.status == Game.Status.OPEN
    seat = services.game_join(game_id=game.pk, user=bob)
    assert seat.position == 1
    assert services.game_join(game_id=game.pk, user=bob).pk == seat.pk  # joining twice is harmless
    with pytest.raises(Conflict, match="full"):
        services.game_join(game_id=game.pk, user=cid)
    with pytest.raises(Forbidden):
        services.game_start(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.state["players"] == ["ann", "bob"]
    with pytest.raises(Conflict):
        services.game_start(game_id=game.pk, user=ann)
    with pytest.raises(Conflict):
        services.game_leave(game_id=game.pk, user=bob)


def test_leave_before_start_renumbers_and_creator_cancels(ann, bob, cid):
    game = services.game_create(creator=ann, kind="painted-dicez", seats=3)
    services.game_join(game_id=game.pk, user=bob)
    services.game_join(game_id=game.pk, user=cid)
    services.game_leave(game_id=game.pk, user=bob)
    assert list(game.seats.order_by("position").values_list("user__username", "position")) == [
        ("ann", 0),
        ("cid", 1),
    ]
    services.game_leave(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED


def test_start_with_fewer_players_than_seats(ann, bob):
    game = services.game_create(creator=ann, kind="farkle", seats=4)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert game.max_seats == 2
    assert game.state["players"] == ["ann", "bob"]


# --- actions ---------------------------------------------------------------------------------


def test_action_is_logged_with_its_dice_and_broadcast_after_commit(
    ann, bob, scripted_dice, django_capture_on_commit_callbacks, monkeypatch
):
    game = table(ann, bob)
    sent = []
    monkeypatch.setattr("games.live.broadcast.send_to", lambda group, message: sent.append((group, message)))
    scripted_dice([5, 2, 3, 4, 6, 6])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        outcome = act(game, ann, {"type": "roll", "keep": []}, "first")
    assert outcome.seq == 1 and not outcome.duplicate
    assert len(callbacks) == 1
    logged = Action.objects.get(game=game, seq=1)
    assert logged.dice == [[5, 2, 3, 4, 6, 6]]
    assert logged.action == {"type": "roll", "keep": []}
    assert logged.result["type"] == "roll"
    assert [group for group, _ in sent] == [f"game.{game.pk}"]
    assert json.loads(sent[0][1]["text"]) == outcome.event  # the text the sockets get, encoded once
    event = outcome.event
    assert event["type"] == "event" and event["seq"] == 1 and event["player"] == "ann" and event["seat"] == 0
    assert event["state"]["dice"] == [5, 2, 3, 4, 6, 6]
    game.refresh_from_db()
    assert game.seq == 1


def test_same_client_id_applies_once(ann, bob, scripted_dice):
    game = table(ann, bob)
    scripted_dice([5, 2, 3, 4, 6, 6])
    first = act(game, ann, {"type": "roll", "keep": []}, "dup")
    again = act(game, ann, {"type": "roll", "keep": []}, "dup")
    assert (again.seq, again.duplicate) == (first.seq, True)
    assert again.event["action"] == first.event["action"]
    assert Action.objects.filter(game=game).count() == 1


def test_spectator_and_out_of_turn_and_illegal_actions_are_refused(ann, bob, cid, scripted_dice):
    game = table(ann, bob)
    with pytest.raises(Forbidden) as exc:
        act(game, cid, {"type": "roll", "keep": []})
    assert exc.value.code == "spectator"
    with pytest.raises(InvalidAction, match="not your turn"):
        act(game, bob, {"type": "roll", "keep": []})
    with pytest.raises(InvalidAction):
        act(game, ann, {"type": "bank", "keep": [0]})
    with pytest.raises(BadRequest):
        act(game, ann, "roll")
    with pytest.raises(BadRequest):
        services.game_apply_action(game_id=game.pk, user=ann, client_id="", action={"type": "roll"})
    assert Action.objects.filter(game=game).count() == 0
    game.refresh_from_db()
    assert game.seq == 0


def test_actions_refused_before_start(ann, bob):
    game = services.game_create(creator=ann, kind="farkle", seats=2)
    with pytest.raises(Conflict):
        act(game, ann, {"type": "roll", "keep": []})


def test_scripted_farkle_game_finishes_with_scores_winners_and_laps(ann, bob, scripted_dice):
    game = table(ann, bob, options={"goal": 3000})
    scripted_dice(
        [5, 2, 3, 4, 6, 6],
        [1, 1, 1, 2, 3],  # ann: 50 + 1000, banks 1050
        [2, 2, 3, 4, 6, 6],  # bob: Farkle
        [1, 1, 1, 1, 1, 2],  # ann: five 1s, banks 10000 -> 11050, reaches the goal
        [1, 2, 3, 4, 5, 6],
        [5, 5, 5, 2, 3, 4],  # bob: straight, hot dice confirmed, banks 1500
    )
    act(game, ann, {"type": "roll", "keep": []})
    act(game, ann, {"type": "roll", "keep": [0]})
    act(game, ann, {"type": "bank", "keep": [0, 1, 2]})
    act(game, bob, {"type": "roll", "keep": []})  # Farkle: the turn passes inside this action
    act(game, ann, {"type": "roll", "keep": []})
    act(game, ann, {"type": "bank", "keep": [0, 1, 2, 3, 4]})
    act(game, bob, {"type": "roll", "keep": []})
    with pytest.raises(InvalidAction, match="confirm"):
        act(game, bob, {"type": "bank", "keep": [0, 1, 2, 3, 4, 5]})
    act(game, bob, {"type": "roll", "keep": [0, 1, 2, 3, 4, 5]})
    act(game, bob, {"type": "bank", "keep": [0, 1, 2]})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.finished_at is not None
    seats = {s.user.username: s for s in game.seats.select_related("user")}
    assert (seats["ann"].final_score, seats["ann"].winner, seats["ann"].laps) == (11050, True, 2)
    assert (seats["bob"].final_score, seats["bob"].winner, seats["bob"].laps) == (1500, False, 2)
    assert game.seq == 9
    replays.game_verify_replay(game_id=game.pk)
    with pytest.raises(Conflict):
        act(game, ann, {"type": "roll", "keep": []})


@pytest.mark.parametrize(
    ("kind", "options", "players"),
    [
        ("triple-quintzee", {}, 2),
        ("triple-yahtzee-99", {}, 2),
        ("painted-dicez", {}, 3),
        ("quintzee", {}, 2),
        ("farkle", {"goal": 3000}, 3),
        ("farkle", {"goal": 5000, "dice": 5}, 1),
    ],
)
def test_random_full_games_replay_exactly(make_user, kind, options, players):
    rng = random.Random(f"{kind}-{players}")
    users = [make_user(f"{kind[:3]}{i}") for i in range(players)]
    game = table(users[0], *users[1:], kind=kind, options=options)
    by_name = {u.username: u for u in users}
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        action = random_legal_action(game.state, rng)
        act(game, by_name[game.state["current"]], action)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    state = replays.game_verify_replay(game_id=game.pk)
    assert state == game.state
    engine = game.engine
    scores = engine.scores(state)
    winners = set(engine.winners(state))
    assert winners
    for seat in game.seats.select_related("user"):
        assert seat.final_score == scores[seat.user.username]
        assert seat.winner == (seat.user.username in winners)


def test_replay_check_detects_tampering(ann, scripted_dice):
    game = services.game_create(creator=ann, kind="farkle", seats=1)
    scripted_dice([5, 2, 3, 4, 6, 6])
    act(game, ann, {"type": "roll", "keep": []})
    replays.game_verify_replay(game_id=game.pk)
    logged = Action.objects.get(game=game)
    logged.dice = [[1, 2, 3, 4, 6, 6]]
    logged.save()
    with pytest.raises(ReplayMismatch):
        replays.game_verify_replay(game_id=game.pk)
    Action.objects.filter(pk=logged.pk).delete()
    with pytest.raises(ReplayMismatch, match="gaps"):
        replays.game_verify_replay(game_id=game.pk)


# --- resign, skip, play again ----------------------------------------------------------------


def test_resign_goes_on_for_the_others_and_the_last_one_standing_wins(ann, bob, cid, scripted_dice):
    game = table(ann, bob, cid, kind="farkle", options={"goal": 3000})
    scripted_dice([2, 2, 3, 4, 6, 6], [2, 2, 3, 4, 6, 6], [2, 2, 3, 4, 6, 6])
    act(game, ann, {"type": "roll", "keep": []})  # Farkle: everyone plays a turn first (none aborts)
    act(game, bob, {"type": "roll", "keep": []})
    act(game, bob, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert Seat.objects.get(game=game, user=bob).resigned
    act(game, cid, {"type": "roll", "keep": []})  # Farkle: ann is next, bob is skipped
    game.refresh_from_db()
    assert game.state["current"] == "ann"
    with pytest.raises(InvalidAction):
        act(game, bob, {"type": "roll", "keep": []})
    act(game, ann, {"type": "resign"})  # RULINGS: only cid is left, so the game ends and cid wins
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert [s.user for s in game.seats.filter(winner=True)] == [cid]
    with pytest.raises(Conflict):
        act(game, cid, {"type": "resign"})
    replays.game_verify_replay(game_id=game.pk)


def test_a_solo_resign_abandons_the_game(ann):
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=1)
    act(game, ann, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert not game.seats.filter(winner=True).exists()
    replays.game_verify_replay(game_id=game.pk)


def test_skip_only_after_the_absence_limit(ann, bob):
    game = table(ann, bob, kind="triple-quintzee")
    with pytest.raises(InvalidAction) as exc:
        act(game, bob, {"type": "skip"})
    assert exc.value.code == "not_absent"
    long_ago = timezone.now() - timedelta(seconds=game.absence_limit + 5)
    Game.objects.filter(pk=game.pk).update(turn_started_at=long_ago, started_at=long_ago)
    Seat.objects.filter(game=game).update(last_seen=long_ago)
    outcome = act(game, bob, {"type": "skip"})
    assert outcome.event["result"]["type"] == "skip"
    game.refresh_from_db()
    assert game.state["current"] == "bob"
    replays.game_verify_replay(game_id=game.pk)


def test_skip_refused_while_the_player_is_connected(ann, bob):
    game = table(ann, bob, kind="farkle")
    long_ago = timezone.now() - timedelta(seconds=game.absence_limit + 5)
    Game.objects.filter(pk=game.pk).update(turn_started_at=long_ago, started_at=long_ago)
    presence.connection_open(game_id=game.pk, user=ann, channel_name="chan-ann")
    with pytest.raises(InvalidAction):
        act(game, bob, {"type": "skip"})
    presence.connection_close(channel_name="chan-ann", user=ann)
    Seat.objects.filter(game=game).update(last_seen=long_ago)
    act(game, bob, {"type": "skip"})


def test_play_again_seats_the_presser_and_invites_the_others(ann, bob):
    game = table(ann, bob, kind="farkle", options={"goal": 3000})
    with pytest.raises(Conflict):
        services.game_play_again(game_id=game.pk, user=ann)
    act(game, ann, {"type": "resign"})  # bob is left alone: the game is over
    new = services.game_play_again(game_id=game.pk, user=bob)
    assert new.pk != game.pk
    assert new.status == Game.Status.OPEN and new.max_seats == 2
    assert new.options == {"goal": 3000, "dice": 6}
    assert [s.user for s in new.seats.all()] == [bob]  # ann was asked, not seated
    # ann's press takes the seat kept for her, and the game starts with both.
    assert services.game_play_again(game_id=game.pk, user=ann).pk == new.pk
    new.refresh_from_db()
    assert new.status == Game.Status.PLAYING
    assert new.state["players"] == ["bob", "ann"]


def test_play_again_pressed_by_two_players_makes_one_next_game(ann, bob):
    game = table(ann, bob, kind="farkle", options={"goal": 3000})
    act(game, ann, {"type": "resign"})
    first = services.game_play_again(game_id=game.pk, user=bob)
    second = services.game_play_again(game_id=game.pk, user=ann)
    assert second.pk == first.pk
    assert Game.objects.filter(rematch_of=game).count() == 1
    assert Game.objects.count() == 2
    assert services.game_play_again(game_id=game.pk, user=ann).pk == first.pk  # a second tab
