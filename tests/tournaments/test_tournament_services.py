"""Tournaments through their services: announcing (the creator only, what the form may not get wrong),
entering and leaving until entries close, the start (at once, or by the worker at the announced time),
the rounds advancing as their last game ends, byes, standings, the winner, a member removed mid-way."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game
from groups import services as group_services
from notices.models import Notice
from tests.computers.worker import run_due_tasks
from tests.tournaments.tournament_helpers import announce, end, everyone_enters, group_of, round_games
from tournaments import rounds, selectors, services, tasks
from tournaments.models import Bye, Entry, Round, Tournament

pytestmark = pytest.mark.django_db
FIVE = ["cora", "dan", "eve", "fay", "gus"]


def start_rows(path) -> list:
    return list(DBTaskResult.objects.filter(task_path=path.module_path).values_list("args_kwargs", flat=True))


def test_the_creator_announces_and_members_hear_of_it():
    group, u = group_of(FIVE)
    t = announce(group, u["cora"])
    assert (t.number, t.status, t.options["goal"], t.table_size) == (1, "open", 3000, 2)
    assert start_rows(tasks.start_tournament) == [{"args": [t.pk], "kwargs": {}}]
    assert Notice.objects.filter(user=u["dan"], url=t.get_absolute_url()).exists()
    assert not Notice.objects.filter(user=u["cora"]).exists()
    assert announce(group, u["cora"]).number == 2


def test_only_the_creator_announces_and_bad_terms_are_refused():
    group, u = group_of(FIVE)
    with pytest.raises(Forbidden):
        announce(group, u["dan"])
    now = timezone.now()
    bad = [
        {"name": " "},
        {"kind": "chess"},
        {"options": {"goal": 7}},
        {"table_size": 5},
        {"table_size": 1},
        {"format": "knockout"},
        {"rounds": 0},
        {"rounds": 10},
        {"starts_at": now - timedelta(minutes=1)},
        {"entries_close_at": now + timedelta(hours=2)},  # after the start
        {"entries_close_at": now - timedelta(minutes=1), "starts_at": now + timedelta(hours=1)},
        {"pace": "days", "days": 4},
        {"pace": "weekly"},
        {"starts_at": now + timedelta(days=400)},
    ]
    for terms in bad:
        with pytest.raises(BadRequest):
            announce(group, u["cora"], now=now, **terms)
    assert not Tournament.objects.exists()


def test_over_days_it_starts_when_entries_close():
    group, u = group_of(FIVE)
    close = timezone.now() + timedelta(days=2)
    t = announce(group, u["cora"], pace="days", days=2, starts_at=None, entries_close_at=close)
    assert t.starts_at == close and t.absence_limit == 2 * 86_400


def test_members_enter_and_leave_until_entries_close_and_outsiders_cannot():
    group, u = group_of(FIVE)
    outsider = group_of(["olga"])[1]["olga"]
    t = announce(group, u["cora"])
    services.tournament_enter(tournament_id=t.pk, user=u["dan"])
    services.tournament_enter(tournament_id=t.pk, user=u["dan"])  # twice: one entry
    assert Entry.objects.filter(tournament=t).count() == 1
    with pytest.raises(NotFound):
        services.tournament_enter(tournament_id=t.pk, user=outsider)
    services.tournament_leave(tournament_id=t.pk, user=u["dan"])
    with pytest.raises(Conflict):
        services.tournament_leave(tournament_id=t.pk, user=u["dan"])
    later = t.entries_close_at + timedelta(seconds=1)
    with pytest.raises(Conflict):
        services.tournament_enter(tournament_id=t.pk, user=u["eve"], now=later)


def test_the_creator_cancels_before_the_start_and_nobody_else_may():
    group, u = group_of(FIVE)
    t = announce(group, u["cora"])
    with pytest.raises(Forbidden):
        services.tournament_cancel(tournament_id=t.pk, user=u["dan"])
    services.tournament_cancel(tournament_id=t.pk, user=u["cora"])
    t.refresh_from_db()
    assert (t.status, t.cancelled_because) == ("cancelled", "creator")
    # Its start, when the worker comes to it, does nothing.
    assert rounds.tournament_start_due(tournament_id=t.pk) is None
    with pytest.raises(Conflict):
        services.tournament_enter(tournament_id=t.pk, user=u["dan"])


def test_the_announced_start_with_fewer_than_two_entries_cancels_it():
    group, u = group_of(FIVE)
    t = announce(group, u["cora"])
    everyone_enters(t, [u["dan"]])
    assert rounds.tournament_start_due(tournament_id=t.pk, now=t.starts_at) is None
    t.refresh_from_db()
    assert (t.status, t.cancelled_because) == ("cancelled", "too_few")


@pytest.mark.django_db(transaction=True)  # the worker's loop closes its connection
def test_the_worker_starts_it_at_the_announced_time():
    group, u = group_of(FIVE)
    t = announce(group, u["cora"])
    everyone_enters(t, [u["dan"], u["eve"]])
    # The hour has passed.
    past = timezone.now() - timedelta(seconds=1)
    Tournament.objects.filter(pk=t.pk).update(starts_at=past, entries_close_at=past)
    DBTaskResult.objects.filter(task_path=tasks.start_tournament.module_path).update(run_after=past)
    run_due_tasks()
    t.refresh_from_db()
    assert t.status == "running"
    (game,) = round_games(t, 1)
    assert game.status == Game.Status.PLAYING and game.group_id == group.pk and game.rated


@pytest.mark.django_db(transaction=True)  # the worker's loop closes its connection
def test_a_swiss_tournament_of_five_runs_three_rounds_to_its_winner():
    group, u = group_of(FIVE)
    t = announce(group, u["cora"])
    everyone_enters(t, [u[n] for n in FIVE])
    with pytest.raises(Forbidden):
        services.tournament_start_now(tournament_id=t.pk, user=u["dan"])
    services.tournament_start_now(tournament_id=t.pk, user=u["cora"])
    byes = []
    for number in (1, 2, 3):
        games = round_games(t, number)
        assert len(games) == 2 and all(g.status == Game.Status.PLAYING for g in games)
        (bye,) = Bye.objects.filter(round__tournament=t, round__number=number)
        byes.append(bye.user.username)
        for game in games:
            seated = list(game.seats.values_list("user__username", flat=True))
            # Everyone at a table was told where to sit.
            for name in seated:
                assert Notice.objects.filter(user__username=name, url=f"/games/{game.pk}/").exists()
        end(games[0])
        assert Round.objects.get(tournament=t, number=number).status == "playing"
        assert not Round.objects.filter(tournament=t, number=number + 1).exists()
        end(games[1])
        assert Round.objects.get(tournament=t, number=number).status == "done"
        if number < 3:
            # The next round waits for the worker: enqueued in the move's transaction.
            assert {"args": [t.pk, number + 1], "kwargs": {}} in start_rows(tasks.start_round)
            run_due_tasks()
    assert len(set(byes)) == 3  # nobody sat out twice
    t.refresh_from_db()
    assert t.status == "finished" and t.finished_at is not None
    page = selectors.tournament_page(t, u["cora"])
    lines = page["standings"]
    assert [s.line.games + s.line.byes for s in lines] == [3] * 5
    assert page["winners"] and all(s.line.place == 1 for s in page["winners"])
    assert sum(s.line.points for s in lines) == 2 * 3 + 3  # one point a game, a win's point a bye
    # Nobody met anyone twice in three rounds of five.
    met = [frozenset(g.seats.values_list("user_id", flat=True)) for r in (1, 2, 3) for g in round_games(t, r)]
    assert len(met) == len(set(met))


def test_a_round_starts_once_however_often_its_start_is_asked_for():
    group, u = group_of(FIVE[:4])
    t = announce(group, u["cora"])
    everyone_enters(t, u.values())
    services.tournament_start_now(tournament_id=t.pk, user=u["cora"])
    for game in round_games(t, 1):
        end(game)
    assert rounds.round_start(tournament_id=t.pk, number=2) is not None
    assert rounds.round_start(tournament_id=t.pk, number=2) is None
    assert rounds.round_start(tournament_id=t.pk, number=3) is None  # round 2 is not done
    assert Round.objects.filter(tournament=t).count() == 2


@pytest.mark.django_db(transaction=True)  # the worker's loop closes its connection
def test_a_member_removed_mid_tournament_forfeits_and_is_left_out_of_later_rounds():
    group, u = group_of(FIVE[:4])
    t = announce(group, u["cora"], rounds=2)
    everyone_enters(t, u.values())
    services.tournament_start_now(tournament_id=t.pk, user=u["cora"])
    games = round_games(t, 1)
    dan_game = next(g for g in games if g.seats.filter(user=u["dan"]).exists())
    group_services.group_remove_member(group_id=group.pk, user=u["cora"], member_id=u["dan"].pk)
    dan_game.refresh_from_db()
    assert dan_game.status == Game.Status.FINISHED
    assert dan_game.seats.get(user=u["dan"]).resigned
    for game in games:
        if game.pk != dan_game.pk:
            end(game)
    run_due_tasks()
    second = round_games(t, 2)
    seated = {name for g in second for name in g.seats.values_list("user__username", flat=True)}
    assert "dan" not in seated
    assert Bye.objects.filter(round__tournament=t, round__number=2).count() == 1
    assert Entry.objects.get(tournament=t, user=u["dan"]).withdrawn_at is not None


@pytest.mark.django_db(transaction=True)  # the worker's loop closes its connection
def test_a_round_robin_at_tables_of_three_meets_everyone():
    group, u = group_of(FIVE)
    t = announce(group, u["cora"], format="round-robin", table_size=3, rounds=None)
    everyone_enters(t, u.values())
    services.tournament_start_now(tournament_id=t.pk, user=u["cora"])
    t.refresh_from_db()
    assert t.rounds == len(t.schedule) >= 4
    for number in range(1, t.rounds + 1):
        for game in round_games(t, number):
            end(game)
        run_due_tasks()
    t.refresh_from_db()
    assert t.status == "finished"
    met = set()
    for number in range(1, t.rounds + 1):
        for game in round_games(t, number):
            ids = list(game.seats.values_list("user_id", flat=True))
            met |= {frozenset((a, b)) for a in ids for b in ids if a != b}
    assert len(met) == 10


def test_only_the_tournaments_games_move_its_rounds():
    other = Game.objects.create(kind="farkle", status=Game.Status.FINISHED)
    assert services.game_ended(other) is False


def test_starting_now_needs_two_players_and_leaves_out_who_left_the_group():
    group, u = group_of(FIVE[:3])
    t = announce(group, u["cora"])
    everyone_enters(t, [u["dan"], u["eve"]])
    group_services.group_leave(group_id=group.pk, user=u["eve"])
    with pytest.raises(Conflict):
        services.tournament_start_now(tournament_id=t.pk, user=u["cora"])
    assert Entry.objects.get(tournament=t, user=u["eve"]).withdrawn_at is None  # rolled back with the refusal
    services.tournament_enter(tournament_id=t.pk, user=u["cora"])
    services.tournament_start_now(tournament_id=t.pk, user=u["cora"])
    (game,) = round_games(t, 1)
    assert sorted(game.seats.values_list("user__username", flat=True)) == ["cora", "dan"]
    assert Entry.objects.get(tournament=t, user=u["eve"]).withdrawn_at is not None
    with pytest.raises(Conflict):
        services.tournament_start_now(tournament_id=t.pk, user=u["cora"])
    with pytest.raises(Conflict):
        services.tournament_cancel(tournament_id=t.pk, user=u["cora"])


def test_a_table_of_three_that_two_players_resign_from_ends_its_round():
    group, u = group_of(FIVE[:3])
    t = announce(group, u["cora"], table_size=3, rounds=1)
    everyone_enters(t, u.values())
    services.tournament_start_now(tournament_id=t.pk, user=u["cora"])
    (game,) = round_games(t, 1)
    first, second, _third = [s.user for s in game.seats.select_related("user").order_by("position")]
    end(game, first)
    end(game, second)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED  # the last one standing wins
    t.refresh_from_db()
    assert t.status == "finished"
    lines = selectors.tournament_page(t, u["cora"])["standings"]
    assert [line.line.points for line in lines] == [2.0, 0.5, 0.5]  # the two who resigned tie for last
