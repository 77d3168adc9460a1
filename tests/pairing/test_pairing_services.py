"""Play someone now (pairing.services): asking, seating, waiting, computers after the chosen wait,
blocks, leaving, and the worker's moments."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import fair_dice
from games.errors import BadRequest, Conflict
from games.models import Game, SeedCommitment
from pairing import seating, services, tasks
from pairing.models import Seek
from ratings.models import Rating
from tests.computers.worker import run_due_tasks

pytestmark = pytest.mark.django_db
FARKLE = {"kind": "farkle", "options": {"goal": 3000}}


def ask(user, now=None, **kw):
    return services.seek_create(user=user, **{**FARKLE, **kw}, now=now)


def rate(user, display, kind="farkle:3000"):
    Rating.objects.create(user=user, kind=kind, mu=25, sigma=3, display=display, updated_at=timezone.now())


def test_two_players_asking_for_the_same_game_are_seated_at_one_started_table(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    first = ask(ann)
    assert first.status == Seek.Status.WAITING and first.game is None
    second = ask(bob)
    assert second.status == Seek.Status.SEATED
    game = second.game
    first.refresh_from_db()
    assert first.game == game and first.status == Seek.Status.SEATED
    assert game.status == Game.Status.PLAYING and game.rated and game.group is None
    assert sorted(game.seats.values_list("user__username", flat=True)) == ["ann", "bob"]
    assert game.options == {"goal": 3000} | {k: v for k, v in game.options.items() if k != "goal"}
    assert services.queue_state(ann) == {
        "type": "queue", "waiting": False, "game": game.pk, "url": f"/games/{game.pk}/"
    }  # fmt: skip


def test_different_requests_are_different_queues(make_user):
    ann, bob, cara = make_user("ann"), make_user("bob"), make_user("cara")
    ask(ann)
    ask(bob, options={"goal": 10000})
    ask(cara, seats=3)
    assert Seek.objects.filter(status=Seek.Status.WAITING).count() == 3


def test_asking_twice_is_one_request_and_another_game_is_refused_while_waiting(make_user):
    ann = make_user("ann")
    seek = ask(ann)
    assert ask(ann).pk == seek.pk
    with pytest.raises(Conflict) as refused:
        ask(ann, options={"goal": 10000})
    assert refused.value.code == "queued"
    assert Seek.objects.filter(user=ann).count() == 1


def test_far_ratings_wait_for_the_window_and_a_closed_page_leaves_the_queue(make_user):
    ann, bob, cara = make_user("ann"), make_user("bob"), make_user("cara")
    rate(ann, 1500)
    rate(bob, 1850)
    t0 = timezone.now()
    ask(ann, now=t0)
    ask(bob, now=t0)
    assert seating.queue_seat(queue=Seek.objects.first().queue, now=t0 + timedelta(seconds=19)) == []
    services.seek_seen(user=ann, now=t0 + timedelta(seconds=15))
    services.seek_seen(user=bob, now=t0 + timedelta(seconds=15))
    (game,) = seating.queue_seat(queue=Seek.objects.first().queue, now=t0 + timedelta(seconds=20))
    assert set(game.seats.values_list("user__username", flat=True)) == {"ann", "bob"}
    # cara asks and closes the page: 31 s without a ping, she is out of the queue, never seated.
    ask(cara, now=t0)
    dan = make_user("dan")
    ask(dan, now=t0 + timedelta(seconds=31))
    assert Seek.objects.get(user=cara).status == Seek.Status.LAPSED
    assert Seek.objects.get(user=dan).status == Seek.Status.WAITING
    # Not silently: her socket's state and her form say the request lapsed, for a while.
    assert services.queue_state(cara) == {"type": "queue", "waiting": False, "lapsed": True}
    ended = Seek.objects.get(user=cara).ended_at
    assert services.lapsed_lately(cara, now=ended + timedelta(minutes=14))
    assert not services.lapsed_lately(cara, now=ended + timedelta(minutes=16))
    assert not services.lapsed_lately(dan)
    client = Client()
    client.force_login(cara)
    assert 'id="seek-lapsed"' in client.get("/play/").content.decode()
    client.force_login(dan)  # still waiting: the waiting page, no such word
    assert 'id="seek-lapsed"' not in client.get("/play/").content.decode()


def test_computers_take_the_seats_left_once_the_chosen_wait_is_over(make_user):
    ann = make_user("ann")
    t0 = timezone.now()
    seek = ask(ann, seats=3, computers_after=30, now=t0)
    assert seating.queue_seat(queue=seek.queue, now=t0 + timedelta(seconds=29)) == []
    services.seek_seen(user=ann, now=t0 + timedelta(seconds=25))
    (game,) = seating.queue_seat(queue=seek.queue, now=t0 + timedelta(seconds=30))
    seats = list(game.seats.select_related("user").order_by("position"))
    assert seats[0].user.username == "ann"
    assert [bool(s.user.computer) for s in seats] == [False, True, True]
    assert {s.user.computer for s in seats[1:]} == {"good"}  # every computer still at 1500: the middle
    assert game.status == Game.Status.PLAYING


def test_the_computers_strength_is_the_one_rated_nearest_the_people(make_user):
    from games.computers import players

    ann = make_user("ann")
    rate(ann, 1900)
    for strength, display in (("easy", 1300), ("good", 1550), ("expert", 1880)):
        rate(players.free_computer(strength, []), display)
    t0 = timezone.now()
    seek = ask(ann, computers_after=30, now=t0)
    services.seek_seen(user=ann, now=t0 + timedelta(seconds=29))
    (game,) = seating.queue_seat(queue=seek.queue, now=t0 + timedelta(seconds=30))
    assert game.seats.get(position=1).user.computer == "expert"


def test_blocked_players_are_not_seated_together(make_user):
    ann, bob, cara = make_user("ann"), make_user("bob"), make_user("cara")
    services.block_player(user=bob, username="ann")
    assert services.blocked_names(bob) == ["ann"] and services.is_blocked(bob, ann)
    ask(ann)
    ask(bob)
    assert Seek.objects.filter(status=Seek.Status.WAITING).count() == 2
    seek = ask(cara)
    assert seek.status == Seek.Status.SEATED
    assert Seek.objects.filter(status=Seek.Status.WAITING).count() == 1
    services.unblock_player(user=bob, username="ann")
    assert services.blocked_names(bob) == []


def test_blocking_yourself_or_nobody_is_refused(make_user):
    ann = make_user("ann")
    with pytest.raises(BadRequest):
        services.block_player(user=ann, username="ann")
    with pytest.raises(Exception) as missing:
        services.block_player(user=ann, username="nobody")
    assert missing.value.code == "not_found"


def test_a_player_who_left_is_not_seated(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    ask(ann)
    services.seek_leave(user=ann)
    services.seek_leave(user=ann)  # a second tab: nothing to do
    assert ask(bob).status == Seek.Status.WAITING
    assert services.queue_state(ann) == {"type": "queue", "waiting": False}


def test_games_over_days_need_no_open_page(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    t0 = timezone.now()
    ask(ann, pace="days", days=2, now=t0)
    seek = ask(bob, pace="days", days=2, now=t0 + timedelta(hours=3))
    assert seek.status == Seek.Status.SEATED
    assert seek.game.pace == Game.Pace.DAYS and seek.game.absence_limit == 2 * 86_400


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"kind": "chess"}, "There is no game called"),
        ({"seats": 1}, "Ask for a table of 2 to"),
        ({"seats": 5}, "Ask for a table of 2 to"),
        ({"seats": "2"}, "Ask for a table of 2 to"),
        ({"pace": "days"}, "1, 2 or 3 days"),
        ({"pace": "weeks"}, "1, 2 or 3 days"),
        ({"computers_after": 7}, "offered waits"),
        ({"options": {"goal": 7}}, ""),
    ],
)
def test_bad_requests_are_refused_with_a_reason(make_user, kw, message):
    with pytest.raises(BadRequest) as refused:
        ask(make_user("ann"), **kw)
    assert message in refused.value.message
    assert not Seek.objects.exists()


def test_computers_do_not_ask(make_user):
    with pytest.raises(BadRequest):
        ask(make_user("robot", computer="good"))


def test_the_queue_is_looked_at_again_when_windows_widen_and_computers_are_due(make_user):
    seek = ask(make_user("ann"), computers_after=60)
    runs = DBTaskResult.objects.filter(task_path=tasks.seat_queue.module_path)
    offsets = sorted(round((r.run_after - seek.created_at).total_seconds()) for r in runs)
    assert offsets == [10, 20, 30, 40, 60]
    assert {tuple(r.args_kwargs["args"]) for r in runs} == {(seek.queue,)}


@pytest.mark.django_db(transaction=True)
def test_the_worker_seats_far_ratings_when_the_window_reaches_them(make_user, time_machine):
    ann, bob = make_user("ann"), make_user("bob")
    rate(ann, 1500)
    rate(bob, 1750)
    time_machine.move_to(timezone.now(), tick=False)
    ask(ann)
    ask(bob)
    run_due_tasks()
    assert Seek.objects.filter(status=Seek.Status.WAITING).count() == 2
    time_machine.shift(20)
    services.seek_seen(user=ann)
    services.seek_seen(user=bob)
    run_due_tasks()
    assert Seek.objects.filter(status=Seek.Status.SEATED).count() == 2


def test_a_table_takes_its_longest_waiters_committed_seed_and_everyones_own_seeds(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    t0 = timezone.now()
    anns, bobs = SeedCommitment.objects.create(user=ann), SeedCommitment.objects.create(user=bob)
    ask(ann, seed_ref=anns.pk, client_seed="ann-browser", now=t0)
    seek = ask(bob, seed_ref=bobs.pk, client_seed="bob-browser", now=t0 + timedelta(seconds=2))
    game = seek.game
    assert game.server_seed == anns.server_seed  # ann waited longest: drawn before bob asked
    assert not SeedCommitment.objects.exists()  # each used up by its request
    game.refresh_from_db()
    assert game.client_seeds == ["ann-browser", "bob-browser"]


def test_a_bad_client_seed_is_refused(make_user):
    with pytest.raises(BadRequest) as refused:
        ask(make_user("ann"), client_seed="not a seed")
    assert refused.value.code == "bad_seed"


def test_the_page_commits_a_seed_before_the_browser_makes_its_own(make_user, client):
    ann = make_user("ann")
    client.force_login(ann)
    page = client.get("/play/")
    committed = page.context["fair_commitment"]
    assert committed in page.content.decode() and 'name="client_seed"' in page.content.decode()
    form = {
        "kind": "farkle",
        "goal": "3000",
        "dice": "6",
        "seats": "2",
        "pace": "live",
        "computers_after": "",
    }
    assert client.post("/play/ask/", {**form, "client_seed": "from-the-browser"}).status_code == 302
    seek = Seek.objects.get(user=ann)
    assert fair_dice.commitment(seek.server_seed) == committed and seek.client_seed == "from-the-browser"


def test_a_table_the_site_filled_credits_no_seat_with_its_start(make_user):
    """The notice said "ann started Farkle (3000) #7." to bob: ann only waited longest; the site
    started the table. Every person at it hears that their table started, crediting nobody."""
    from notices import feed

    ann, bob = make_user("ann"), make_user("bob")
    t0 = timezone.now()
    ask(ann, now=t0)
    game = Game.objects.get(pk=ask(bob, now=t0).game_id)  # seated at once: ratings alike
    for user in (ann, bob):
        texts = [n.message for n in feed.recent(user)]
        assert texts == [f"Your table of Farkle (3000) #{game.pk} has started."], (user, texts)
