"""Computer players at a table: their accounts, seating them when a table is created or in its waiting
room, who may do so, and the start."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django_tasks_db.models import DBTaskResult

from accounts.forms import SignUpForm
from games.computers import players
from games.computers.tasks import PLAY_TASK
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game, Seat
from games.tables import services

pytestmark = pytest.mark.django_db(transaction=True)


def names(game: Game) -> list[str]:
    return [s.user.username for s in game.seats.select_related("user").order_by("position")]


def test_a_computer_account_is_made_once_per_strength_and_number_and_cannot_sign_in():
    first = players.computer_user("expert", 1)
    assert players.computer_user("expert", 1).pk == first.pk
    assert first.username == "computer-expert-1"
    assert first.is_computer and first.computer == "expert"
    assert not first.has_usable_password()
    assert not first.check_password("")
    assert players.computer_user("easy", 1).pk != first.pk


@pytest.mark.parametrize("name", ["computer-expert-1", "Computer-Good-9", "computer-me"])
def test_nobody_can_sign_up_under_a_computers_name(name):
    data = {"username": name, "password1": "correct-horse-battery", "password2": "correct-horse-battery"}
    form = SignUpForm(data)
    assert not form.is_valid()
    assert "computer players" in form.errors["username"][0]


def test_play_now_against_the_computer_starts_at_once(make_user):
    ann = make_user("ann")
    game = services.game_create(creator=ann, kind="farkle", seats=2, computers=1, strength="expert")
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert names(game) == ["ann", "computer-expert-1"]
    assert game.state["players"] == ["ann", "computer-expert-1"]
    assert game.current_player == "ann"
    # The person begins: no computer's task is waiting yet.
    assert not DBTaskResult.objects.filter(task_path=PLAY_TASK).exists()


def test_several_computers_of_one_strength_get_different_accounts(make_user):
    ann = make_user("ann")
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=4, computers=3, strength="easy")
    assert names(game) == ["ann", "computer-easy-1", "computer-easy-2", "computer-easy-3"]
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_a_table_with_free_seats_waits_for_people(make_user):
    ann = make_user("ann")
    game = services.game_create(creator=ann, kind="farkle", seats=3, computers=1, strength="good")
    assert Game.objects.get(pk=game.pk).status == Game.Status.OPEN
    bob = make_user("bob")
    services.game_join(game_id=game.pk, user=bob)
    assert names(game) == ["ann", "computer-good-1", "bob"]


@pytest.mark.parametrize(
    ("seats", "computers", "strength"), [(1, 1, "good"), (2, 2, "good"), (2, 1, "genius"), (3, -1, "good")]
)
def test_impossible_computer_seats_are_refused(make_user, seats, computers, strength):
    with pytest.raises(BadRequest):
        services.game_create(
            creator=make_user("ann"), kind="farkle", seats=seats, computers=computers, strength=strength
        )
    assert not Game.objects.exists()


def test_the_creator_adds_and_removes_computers_in_the_waiting_room(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="painted-dicez", seats=4)
    services.game_join(game_id=game.pk, user=bob)
    services.game_add_computer(game_id=game.pk, user=ann, strength="expert")
    services.game_add_computer(game_id=game.pk, user=ann, strength="easy")
    assert names(game) == ["ann", "bob", "computer-expert-1", "computer-easy-1"]
    with pytest.raises(Conflict):
        services.game_add_computer(game_id=game.pk, user=ann, strength="good")
    services.game_remove_computer(game_id=game.pk, user=ann, username="computer-expert-1")
    assert names(game) == ["ann", "bob", "computer-easy-1"]
    services.game_start(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert game.state["players"] == ["ann", "bob", "computer-easy-1"]


def test_only_the_creator_seats_computers_and_only_before_the_start(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="farkle", seats=3)
    services.game_join(game_id=game.pk, user=bob)
    with pytest.raises(Forbidden):
        services.game_add_computer(game_id=game.pk, user=bob, strength="good")
    services.game_add_computer(game_id=game.pk, user=ann, strength="good")
    with pytest.raises(Forbidden):
        services.game_remove_computer(game_id=game.pk, user=bob, username="computer-good-1")
    # A person's seat is not the host's to take away this way.
    with pytest.raises(NotFound):
        services.game_remove_computer(game_id=game.pk, user=ann, username="bob")
    with pytest.raises(BadRequest):
        services.game_add_computer(game_id=game.pk, user=ann, strength="genius")
    services.game_start(game_id=game.pk, user=ann)
    with pytest.raises(Conflict):
        services.game_remove_computer(game_id=game.pk, user=ann, username="computer-good-1")
    with pytest.raises(Conflict):
        services.game_add_computer(game_id=game.pk, user=ann, strength="good")
    assert names(game) == ["ann", "bob", "computer-good-1"]


def test_a_game_whose_first_player_is_a_computer_enqueues_its_task_at_the_start(make_user):
    ann = make_user("ann")
    game = services.game_create(creator=ann, kind="farkle", seats=2, computers=1, strength="good")
    # The next game keeps the seats' order; here the computer is made to begin by swapping them.
    mine, computer = game.seats.order_by("position")
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    for seat, position in ((mine, 9), (computer, 0), (mine, 1)):
        Seat.objects.filter(pk=seat.pk).update(position=position)
    again = services.game_play_again(game_id=game.pk, user=ann)
    assert again.state["players"] == ["computer-good-1", "ann"]
    (task,) = DBTaskResult.objects.filter(task_path=PLAY_TASK)
    assert task.args_kwargs == {"args": [again.pk, 0], "kwargs": {}}


def test_computer_accounts_are_not_people(make_user):
    make_user("ann")
    players.computer_user("good", 2)
    people = get_user_model().objects.filter(computer="")
    assert list(people.values_list("username", flat=True)) == ["ann"]
