"""The worker's task that plays a computer's action: one legal action through the move path, once; a
stale task does nothing; the task of the next action is written with the move; a whole game against
computers runs to its end through the worker; a late task shows on the game as waiting for the
worker, and the sweep brings a lost one back."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import rules
from games.computers import tasks
from games.computers.tasks import PLAY_TASK
from games.errors import InvalidAction
from games.models import Action, Connection, Game
from games.results.replays import game_verify_replay
from games.tables import services
from tests.games.conftest import random_legal_action

pytestmark = pytest.mark.django_db(transaction=True)


def person_moves(game: Game, user, rng: random.Random) -> None:
    game.refresh_from_db()
    action = random_legal_action(game.state, rng)
    client_id = f"p{game.seq}"
    services.game_apply_action(game_id=game.pk, user=user, client_id=client_id, action=action)


def pass_turn(game: Game, user) -> None:
    """The person ends their turn at once (Farkle: rolls until they may bank or farkle; card games: roll,
    score the first box)."""
    engine = rules.get(game.kind)
    start = Game.objects.get(pk=game.pk).state["turn"]
    while True:
        game.refresh_from_db()
        state = game.state
        if state["turn"] != start or engine.is_over(state) or state["current"] != user.username:
            return
        legal = engine.legal_actions(state)
        action = next((a for a in legal if a["type"] in ("score", "bank")), legal[0])
        services.game_apply_action(game_id=game.pk, user=user, client_id=f"p{game.seq}", action=action)


def play_tasks(game: Game):
    return DBTaskResult.objects.filter(task_path=PLAY_TASK, args_kwargs__args__0=game.pk)


def waiting_task(game: Game) -> DBTaskResult:
    """The task of the game's next action."""
    (task,) = play_tasks(game).filter(status=TaskResultStatus.READY, args_kwargs__args__1=game.seq)
    return task


def worker():
    call_command("db_worker", batch=True, interval=0, startup_delay=False, verbosity=0)


@pytest.fixture
def versus(make_user):
    def make(kind="farkle", strength="expert", computers=1, options=None):
        ann = make_user("ann")
        seats = 1 + computers
        game = services.game_create(
            creator=ann, kind=kind, seats=seats, computers=computers, strength=strength, options=options
        )
        return Game.objects.get(pk=game.pk), ann

    return make


def test_the_turn_passing_to_a_computer_writes_its_task_in_the_move(versus):
    game, ann = versus()
    pass_turn(game, ann)
    game.refresh_from_db()
    assert game.current_player == "computer-expert-1"
    task = waiting_task(game)
    assert task.args_kwargs == {"args": [game.pk, game.seq], "kwargs": {}}
    # Nobody watches: at once.
    assert task.run_after <= timezone.now()


def test_a_watched_game_gives_the_computer_a_human_pause(versus, settings):
    settings.COMPUTER_PAUSE = 1.2
    game, ann = versus()
    Connection.objects.create(game=game, user=ann, channel_name="c.ann", seen_at=timezone.now())
    before = timezone.now()
    pass_turn(game, ann)
    after = timezone.now()
    game.refresh_from_db()
    task = waiting_task(game)
    # 1.2 s from the moment the move wrote the task: within the move, whatever the machine's load (a
    # busy machine took 22 ms between the turn's clock and the task).
    pause = timedelta(seconds=1.2)
    assert game.turn_started_at + pause <= task.run_after <= after + pause
    assert before <= game.turn_started_at


def test_the_task_plays_one_legal_action_as_the_computer(versus):
    game, ann = versus()
    pass_turn(game, ann)
    game.refresh_from_db()
    seq, state = game.seq, game.state
    assert tasks.play.call(game.pk, seq) == "played"
    game.refresh_from_db()
    assert game.seq == seq + 1
    (action,) = Action.objects.filter(game=game, seq=seq + 1).select_related("seat__user")
    assert action.seat.user.username == "computer-expert-1"
    assert action.client_id == f"computer:{seq}"
    assert action.action in rules.get("farkle").legal_actions(state)


def test_a_task_run_again_or_a_stale_one_plays_nothing(versus):
    game, ann = versus()
    pass_turn(game, ann)
    game.refresh_from_db()
    seq = game.seq
    assert tasks.play.call(game.pk, seq) == "played"
    count = Action.objects.filter(game=game).count()
    assert tasks.play.call(game.pk, seq) == "stale"
    assert tasks.play.call(game.pk, seq - 1) == "stale"
    assert Action.objects.filter(game=game).count() == count


def test_a_task_for_a_persons_turn_plays_nothing(versus):
    game, _ = versus()
    assert tasks.play.call(game.pk, game.seq) == "not a computer's turn"
    assert not Action.objects.filter(game=game).exists()


def test_one_action_per_task_the_next_is_another_task(versus):
    game, ann = versus(kind="triple-quintzee")
    pass_turn(game, ann)
    game.refresh_from_db()
    tasks.play.call(game.pk, game.seq)
    game.refresh_from_db()
    # A card game's turn begins with a roll and goes on: the next action has its own task.
    assert Action.objects.get(game=game, seq=game.seq).action["type"] == "roll"
    assert game.current_player == "computer-expert-1"
    assert waiting_task(game).args_kwargs["args"] == [game.pk, game.seq]


def test_a_person_may_not_skip_a_computer(versus):
    game, ann = versus(kind="triple-quintzee", computers=2, strength="easy")
    pass_turn(game, ann)
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - timedelta(days=1))
    with pytest.raises(InvalidAction, match="computer player"):
        services.game_apply_action(game_id=game.pk, user=ann, client_id="skip", action={"type": "skip"})


@pytest.mark.parametrize(
    ("kind", "strength", "options"),
    [
        ("farkle", "expert", {"goal": 3000}),
        ("triple-quintzee", "easy", None),
        ("triple-yahtzee-99", "good", None),
        ("painted-dicez", "expert", None),
    ],
)
def test_a_game_against_the_computer_is_played_to_its_end_through_the_worker(versus, kind, strength, options):
    game, ann = versus(kind=kind, strength=strength, options=options)
    rng = random.Random(7)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        if game.current_player == "ann":
            person_moves(game, ann, rng)
        else:
            worker()  # plays the computer's actions, one task each, until the turn is ann's again
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    seats = {s.user.username: s for s in game.seats.select_related("user")}
    assert seats["computer-" + strength + "-1"].final_score is not None
    assert seats["computer-" + strength + "-1"].summary is not None
    computer_actions = Action.objects.filter(game=game, seat=seats["computer-" + strength + "-1"])
    assert computer_actions.count() == play_tasks(game).filter(status=TaskResultStatus.SUCCESSFUL).count()
    assert not play_tasks(game).filter(status=TaskResultStatus.READY).exists()
    # Kept like any game: its log replays to the stored state.
    assert game_verify_replay(game_id=game.pk) == game.state


def test_a_late_task_shows_as_waiting_for_the_worker_until_it_runs(versus, settings):
    settings.COMPUTER_OVERDUE = 4
    game, ann = versus()
    pass_turn(game, ann)
    game.refresh_from_db()
    assert not tasks.waiting_for_worker(game)
    past = timezone.now() - timedelta(seconds=10)
    play_tasks(game).update(run_after=past)
    Game.objects.filter(pk=game.pk).update(turn_started_at=past)
    Action.objects.filter(game=game).update(created_at=past)
    game.refresh_from_db()
    assert tasks.waiting_for_worker(game)
    worker()
    game.refresh_from_db()
    assert not tasks.waiting_for_worker(game)


def test_the_sweep_writes_a_task_for_a_computers_turn_that_lost_its_own(versus):
    game, ann = versus()
    pass_turn(game, ann)
    game.refresh_from_db()
    # A worker killed in the middle of the task: it stays "running" and nothing plays.
    play_tasks(game).update(status=TaskResultStatus.RUNNING, started_at=timezone.now())
    assert tasks.recover(running_for=60) == 0
    assert tasks.recover(running_for=0) == 1
    assert tasks.recover(running_for=0) == 0  # one is waiting now
    seq = game.seq
    worker()
    game.refresh_from_db()
    assert game.seq > seq


def test_a_move_made_while_the_computer_chooses_makes_its_task_stale(versus, monkeypatch):
    game, ann = versus(kind="triple-quintzee", computers=2, strength="easy")
    pass_turn(game, ann)
    game.refresh_from_db()
    seq = game.seq
    choose = tasks.bots.choose

    def choose_while_ann_resigns(*args):
        services.game_apply_action(game_id=game.pk, user=ann, client_id="bye", action={"type": "resign"})
        return choose(*args)

    monkeypatch.setattr(tasks.bots, "choose", choose_while_ann_resigns)
    assert tasks.play.call(game.pk, seq) == "stale"
    game.refresh_from_db()
    assert game.seq == seq + 1  # the resignation only
    assert game.current_player == "computer-easy-1"
    # The resignation handed the turn on to the same computer: its own task plays from the new seq.
    assert waiting_task(game).args_kwargs["args"] == [game.pk, seq + 1]
