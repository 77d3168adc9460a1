"""The daily challenge's services (docs/daily.md): the day's seed committed before and revealed
after, the same dice for everyone whatever they hold, one attempt a day per kind, the close of a day,
no hints, and the grade."""

from __future__ import annotations

import threading
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from hypothesis import given
from hypothesis import strategies as st

from coach import hints
from daily import closing, days, grades, seeds, services, tasks
from daily.models import Attempt, Day
from games import catalogue, fair_dice
from games.access import can_watch
from games.errors import Conflict, Forbidden
from games.models import Action, Game, Seat
from games.tables import services as game_services

NOON = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
DAY = date(2026, 12, 6)
KINDS = [kind.slug for kind in catalogue.kinds()]


@pytest.fixture
def noon(time_machine):
    """The clock stands at noon of 2026-12-06 (the site's time zone is UTC in the tests' settings)."""
    time_machine.move_to(NOON, tick=False)
    return time_machine


def act(game, user, action, n=[0]):  # noqa: B006 - a counter of action ids for the whole module
    n[0] += 1
    return game_services.game_apply_action(game_id=game.pk, user=user, client_id=f"d{n[0]}", action=action)


def first_action(game) -> dict:
    """The first legal action of a fresh game (the first roll), as the engine lists it."""
    return game.engine.legal_actions(game.state)[0]


def close_tasks():
    return DBTaskResult.objects.filter(task_path=tasks.close_day.module_path)


# --- the day's seed ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_day_s_seed_is_drawn_once_committed_and_its_close_scheduled(noon):
    first = services.day_get(day=DAY)
    again = services.day_get(day=DAY)

    assert first.pk == again.pk and first.server_seed == again.server_seed
    assert len(bytes.fromhex(first.server_seed)) == fair_dice.SEED_BYTES
    assert first.commitment == fair_dice.commitment(first.server_seed)
    assert first.revealed_seed is None  # until the day is closed
    (task,) = close_tasks()
    assert task.args_kwargs["args"] == ["2026-12-06"]
    assert task.run_after == datetime(2026, 12, 7, tzinfo=UTC)


@pytest.mark.django_db(transaction=True)
def test_two_first_visitors_at_the_same_instant_get_one_seed(noon):
    barrier = threading.Barrier(2)
    found, errors = [], []

    def visit():
        try:
            barrier.wait(5)
            row = services.day_get(day=DAY)
            found.append((row.pk, row.server_seed))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=visit) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert errors == []
    assert len(found) == 2 and found[0] == found[1]
    assert Day.objects.count() == 1
    assert close_tasks().count() == 1


@pytest.mark.django_db
def test_the_day_is_the_site_s_time_zone(settings, time_machine, ann):
    settings.TIME_ZONE = "Pacific/Auckland"  # 13 hours ahead of UTC in December
    time_machine.move_to(datetime(2026, 12, 6, 12, 30, tzinfo=UTC), tick=False)

    game = services.attempt_start(user=ann, kind=KINDS[0])

    attempt = Attempt.objects.select_related("day").get(game=game)
    assert attempt.day.date == date(2026, 12, 7) == timezone.localdate(game.created_at)
    assert game.client_seeds == [f"daily-2026-12-07-{KINDS[0]}"]
    assert days.end_of(date(2026, 12, 7)) == datetime(2026, 12, 8, tzinfo=ZoneInfo("Pacific/Auckland"))


# --- the same dice for everyone -----------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_deals_the_same_first_roll_to_everyone(noon, make_user, kind):
    ann, bob = make_user("ann"), make_user("bob")
    games = [services.attempt_start(user=user, kind=kind) for user in (ann, bob)]
    day = Day.objects.get(date=DAY)

    for game, user in zip(games, (ann, bob), strict=True):
        assert game.server_seed == day.server_seed and game.seed_commitment == day.commitment
        assert game.client_seeds == [seeds.client_seed(DAY, kind)] == [f"daily-2026-12-06-{kind}"]
        assert game.is_solo and game.private and not game.rated
        act(game, user, first_action(game))
    first = [Action.objects.get(game=game, seq=1).dice for game in games]
    assert first[0] == first[1] != []
    painted = games[0].engine.dice_kind == "painted"
    sizes = [len(roll) for roll in first[0]]
    assert first[0] == fair_dice.action_rolls(day.server_seed, games[0].client_seeds, 1, sizes, painted)


@pytest.mark.django_db
def test_holding_dice_chooses_which_dice_take_the_values_never_the_values(noon, ann, bob):
    """The n-th action of every player's game draws from the same stream; a roll of k dice takes its
    first k values, given to the dice not held from left to right."""
    kind = "triple-quintzee"
    ann_game = services.attempt_start(user=ann, kind=kind)
    bob_game = services.attempt_start(user=bob, kind=kind)
    for game, user in ((ann_game, ann), (bob_game, bob)):
        act(game, user, {"type": "roll", "hold": []})
    act(ann_game, ann, {"type": "roll", "hold": [0, 1]})  # three dice rolled
    act(bob_game, bob, {"type": "roll", "hold": [1, 2, 4]})  # two dice rolled

    ann_game.refresh_from_db()
    bob_game.refresh_from_db()
    (ann_roll,) = Action.objects.get(game=ann_game, seq=2).dice
    (bob_roll,) = Action.objects.get(game=bob_game, seq=2).dice
    assert len(ann_roll) == 3 and len(bob_roll) == 2
    assert bob_roll == ann_roll[:2]
    stream = fair_dice.ActionDice(ann_game.server_seed, ann_game.client_seeds, 2).roll(5)
    assert ann_roll == stream[:3]
    assert ann_game.state["dice"][2:] == ann_roll
    assert [bob_game.state["dice"][0], bob_game.state["dice"][3]] == bob_roll


@pytest.mark.django_db
def test_each_kind_and_each_day_has_dice_of_its_own(noon, time_machine, ann):
    one = services.attempt_start(user=ann, kind="triple-quintzee")
    other = services.attempt_start(user=ann, kind="triple-yahtzee-99")
    time_machine.move_to(NOON + timedelta(days=1), tick=False)
    tomorrow = services.attempt_start(user=ann, kind="triple-quintzee")

    assert one.client_seeds != other.client_seeds and one.server_seed == other.server_seed
    assert tomorrow.server_seed != one.server_seed
    assert tomorrow.client_seeds == ["daily-2026-12-07-triple-quintzee"]


# --- one attempt a day --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_one_attempt_a_day_per_kind(noon, time_machine, ann):
    game = services.attempt_start(user=ann, kind="farkle")
    assert services.attempt_start(user=ann, kind="farkle").pk == game.pk  # a double click, a second tab
    assert game.options == {"goal": 10000, "dice": 6}  # the kind's defaults

    act(game, ann, {"type": "resign"})  # given up: the attempt is spent
    with pytest.raises(Conflict) as refused:
        services.attempt_start(user=ann, kind="farkle")
    assert refused.value.code == "played"
    assert "one attempt a day" in refused.value.message
    assert services.attempt_start(user=ann, kind="painted-dicez").pk != game.pk  # another kind

    time_machine.move_to(NOON + timedelta(days=1), tick=False)
    assert services.attempt_start(user=ann, kind="farkle").pk != game.pk  # another day
    assert Attempt.objects.filter(user=ann).count() == 3


@pytest.mark.django_db(transaction=True)
def test_a_double_click_at_the_same_instant_gets_one_game(noon, ann):
    barrier = threading.Barrier(2)
    found, errors = [], []

    def press():
        try:
            barrier.wait(5)
            found.append(services.attempt_start(user=ann, kind="triple-quintzee").pk)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=press) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert errors == []
    assert len(found) == 2 and found[0] == found[1]
    assert Game.objects.count() == 1 and Attempt.objects.count() == 1


@pytest.mark.django_db
def test_an_unknown_kind_is_refused(noon, ann):
    with pytest.raises(Exception, match="There is no game called"):
        services.attempt_start(user=ann, kind="chess")
    assert not Game.objects.exists()


# --- private, and the seed held back, until the day is closed ----------------------------------------


@pytest.mark.django_db
def test_a_daily_game_and_its_seed_are_its_player_s_alone_until_the_day_is_closed(
    noon, time_machine, ann, bob
):
    game = services.attempt_start(user=ann, kind="triple-yahtzee-99")
    day = Day.objects.get(date=DAY)
    assert can_watch(game, ann) and not can_watch(game, bob)

    act(game, ann, {"type": "roll", "hold": []})
    act(game, ann, {"type": "resign"})
    game.refresh_from_db()
    assert game.is_over
    # Over, but the seed is the day's, which the games still to be played are dealt from.
    assert game.revealed_seed is None and game.fair_dice_info()["server_seed"] is None
    assert closing.day_close(day=DAY) is False  # the day is not over
    assert not can_watch(game, bob)

    time_machine.move_to(datetime(2026, 12, 7, 0, 0, 1, tzinfo=UTC), tick=False)
    assert closing.day_close(day=DAY) is True
    game.refresh_from_db()
    day.refresh_from_db()
    assert can_watch(game, bob)
    assert game.revealed_seed == day.server_seed == day.revealed_seed
    assert fair_dice.commitment(game.revealed_seed) == game.seed_commitment
    assert closing.day_close(day=DAY) is True  # again: nothing more to do


@pytest.mark.django_db
def test_the_close_ends_the_games_still_being_played(noon, time_machine, ann, bob):
    playing = services.attempt_start(user=ann, kind="painted-dicez")
    act(playing, ann, {"type": "roll", "hold": []})
    given_up = services.attempt_start(user=bob, kind="painted-dicez")
    act(given_up, bob, {"type": "resign"})

    time_machine.move_to(datetime(2026, 12, 7, 0, 0, 1, tzinfo=UTC), tick=False)
    assert closing.day_close(day=DAY) is True

    playing.refresh_from_db()
    assert playing.status == Game.Status.ABANDONED
    assert Seat.objects.get(game=playing).resigned
    assert Action.objects.filter(game=playing, client_id=closing.CLOSE_ID).count() == 1
    assert not Game.objects.filter(private=True).exists()


@pytest.mark.django_db
def test_the_close_task_comes_again_until_the_day_is_over(noon, time_machine):
    services.day_get(day=DAY)
    assert tasks.close_day.call("2026-12-06") is False  # run early: written again for the day's end
    assert sorted(t.run_after for t in close_tasks()) == [datetime(2026, 12, 7, tzinfo=UTC)] * 2

    time_machine.move_to(datetime(2026, 12, 7, 0, 0, 1, tzinfo=UTC), tick=False)
    assert tasks.close_day.call("2026-12-06") is True
    assert Day.objects.get(date=DAY).closed_at == timezone.now()


@pytest.mark.django_db
def test_a_play_again_of_a_daily_game_is_an_ordinary_game(noon, ann):
    daily = services.attempt_start(user=ann, kind="farkle")
    assert seeds.is_daily(daily)
    act(daily, ann, {"type": "resign"})

    again = game_services.game_play_again(game_id=daily.pk, user=ann)
    assert not seeds.is_daily(again) and again.server_seed != daily.server_seed
    # The daily game is private until its day closes; the game after it is an ordinary public one.
    assert daily.private and not again.private
    act(again, ann, {"type": "resign"})
    again.refresh_from_db()
    assert again.revealed_seed == again.server_seed
    assert not Attempt.objects.filter(game=again).exists()


@pytest.mark.django_db
def test_a_game_named_like_a_daily_one_is_none(ann, bob):
    """The daily client seed alone makes no daily game: a table anyone sets up with it keeps its seed
    revealed at its end, and its hints."""
    game = game_services.game_create(
        creator=ann, kind="farkle", seats=1, client_seed="daily-2026-12-06-farkle"
    )
    assert game.client_seeds == ["daily-2026-12-06-farkle"] and not seeds.is_daily(game)
    act(game, ann, {"type": "resign"})
    game.refresh_from_db()
    assert game.revealed_seed == game.server_seed


# --- no hints ------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_daily_game_gives_no_hint(noon, ann):
    daily = services.attempt_start(user=ann, kind="triple-quintzee")
    solo = game_services.game_create(creator=ann, kind="triple-quintzee", seats=1)
    for game in (daily, solo):
        act(game, ann, {"type": "roll", "hold": []})

    assert not hints.offered(list(daily.seats.select_related("user")), ann)
    assert hints.offered(list(solo.seats.select_related("user")), ann)
    with pytest.raises(Forbidden) as refused:
        hints.hint_situation(game_id=daily.pk, user=ann)
    assert "No hints in the daily challenge" in refused.value.message
    assert hints.hint_situation(game_id=solo.pk, user=ann)[0] == "triple-quintzee"


# --- the grade -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accuracy", "grade"),
    [(100.0, "A"), (90.0, "A"), (89.99, "B"), (80.0, "B"), (75.0, "C"), (60.0, "D"), (59.9, "E"), (0.0, "E")],
)
def test_the_grade_of_an_accuracy(accuracy, grade):
    assert grades.letter(accuracy) == grade


def test_no_accuracy_no_grade():
    assert grades.letter(None) is None


@given(st.floats(0, 100), st.floats(0, 100))
def test_a_better_accuracy_never_gets_a_worse_grade(a, b):
    low, high = sorted((a, b))
    letters = [g for _, g in grades.GRADES]
    assert letters.index(grades.letter(high)) <= letters.index(grades.letter(low))
