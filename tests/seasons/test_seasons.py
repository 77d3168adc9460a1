"""Seasons: which games count, the live table, opening, ending, deleting and closing (stored,
once), the notices, and who may do what."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.errors import BadRequest, Conflict, Forbidden
from games.models import Game
from games.tables import services as tables
from groups import services as group_services
from notices.models import Notice
from ratings.models import RatingChange
from ratings.services import game_rate
from seasons import closing, handlers, selectors, services, tasks
from seasons.models import Season, Standing
from tests.factories import GroupFactory
from tests.played import everyone_moves
from tests.seasons.made import FIRST, LAST, OPENED, finished

pytestmark = pytest.mark.django_db

START = datetime.combine(FIRST, datetime.min.time(), tzinfo=UTC)
END = datetime.combine(LAST + timedelta(days=1), datetime.min.time(), tzinfo=UTC)
INSIDE = START + timedelta(days=2, hours=20)


def open_farkle(group, user=None, *, kind="farkle:3000", first=FIRST, last=LAST, now=OPENED):
    return services.season_open(
        group_id=group.pk, user=user or group.creator, kind=kind, first_day=first, last_day=last, now=now
    )


def rows(season):
    return {r.player: r for r in selectors.live_table(season)}


# --- what counts ---------------------------------------------------------------------------------


def test_the_season_s_days_are_whole_days_in_the_site_s_time_zone(group):
    season = open_farkle(group)
    assert (season.starts_at, season.ends_at) == (START, END)
    assert season.number == 1 and season.kind == "farkle:3000"


def test_games_ending_in_the_days_count_and_others_do_not(group, ann, bob, make_user):
    season = open_farkle(group)
    win = [(ann, 3000, True), (bob, 2000, False)]
    counted = [
        finished(group, win, at=START),  # the first moment
        finished(group, win, at=END - timedelta(microseconds=1)),  # the last one
        finished(group, win, at=INSIDE),
    ]
    finished(group, win, at=START - timedelta(microseconds=1))  # before
    finished(group, win, at=END)  # after
    finished(group, win, at=INSIDE, status=Game.Status.ABANDONED)
    finished(group, win, at=INSIDE, status=Game.Status.PLAYING)
    finished(GroupFactory(creator=ann, members=[bob]), win, at=INSIDE)  # another group's
    finished(None, win, at=INSIDE)  # no group's
    finished(group, win, at=INSIDE, goal=10000)  # another goal
    finished(group, [(ann, 300, True), (bob, 200, False)], at=INSIDE, kind="triple-quintzee")
    finished(group, [(ann, 3000, True)], at=INSIDE)  # solo
    assert set(selectors.counted_games(season)) == set(counted)
    table = rows(season)
    assert (table["ann"].games, table["ann"].wins, table["ann"].points) == (3, 3, 3)
    assert (table["bob"].games, table["bob"].wins, table["bob"].points) == (3, 0, 0)


def test_card_games_have_no_variant_and_ties_share(group, ann, bob, cid):
    season = open_farkle(group, kind="triple-quintzee")
    finished(
        group, [(ann, 300, True), (bob, 250, False), (cid, 250, False)], at=INSIDE, kind="triple-quintzee"
    )
    finished(group, [(bob, 280, True), (cid, 280, True)], at=INSIDE, kind="triple-quintzee")
    finished(group, [(ann, 999, True), (bob, 1, False)], at=INSIDE, kind="triple-yahtzee-99")
    table = selectors.live_table(season)
    assert [(r.player, r.points, r.wins, r.rank) for r in table] == [
        ("ann", 2, 1, 1),
        ("bob", 1, 1, 2),
        ("cid", 1, 1, 2),
    ]
    assert table[1].average == (250 + 280) / 2


def test_computers_count_as_opponents_but_have_no_row(group, ann, make_user):
    robo = make_user("robo", computer="expert")
    season = open_farkle(group)
    finished(group, [(ann, 3000, True), (robo, 2500, False)], at=INSIDE)
    finished(group, [(ann, 1000, False), (robo, 3000, True)], at=INSIDE)
    table = selectors.live_table(season)
    assert [(r.player, r.games, r.wins, r.points) for r in table] == [("ann", 2, 1, 1)]


def test_the_rating_change_is_the_sum_over_the_season_s_rated_games(group, ann, bob):
    season = open_farkle(group)
    for at in (INSIDE, INSIDE + timedelta(hours=1)):
        game_rate(finished(group, [(ann, 3000, True), (bob, 2000, False)], at=at))
    game_rate(finished(group, [(ann, 3000, True), (bob, 2000, False)], at=END + timedelta(hours=1)))
    in_season = RatingChange.objects.filter(game__finished_at__lt=END)
    want = {name: sum(c.delta for c in in_season.filter(user__username=name)) for name in ("ann", "bob")}
    table = rows(season)
    assert (table["ann"].rating_change, table["bob"].rating_change) == (want["ann"], want["bob"])
    assert want["ann"] > 0 > want["bob"]


# --- opening, ending, deleting ----------------------------------------------------------------------


def test_opening_checks_the_game_and_the_days(group):
    with pytest.raises(BadRequest):
        open_farkle(group, kind="chess")
    with pytest.raises(BadRequest):
        open_farkle(group, kind="farkle:1234")
    with pytest.raises(BadRequest):
        open_farkle(group, first=LAST, last=FIRST)
    with pytest.raises(BadRequest):
        open_farkle(group, first=OPENED.date() - timedelta(days=1))
    with pytest.raises(BadRequest):
        open_farkle(group, last=FIRST + timedelta(days=366))
    with pytest.raises(BadRequest):
        open_farkle(group, first=FIRST + timedelta(days=400), last=FIRST + timedelta(days=401))
    assert not Season.objects.exists()
    assert open_farkle(group, first=OPENED.date(), last=OPENED.date()).starts_at < OPENED


def test_only_the_creator_opens_ends_and_deletes(group, bob):
    with pytest.raises(Forbidden):
        open_farkle(group, bob)
    season = open_farkle(group)
    with pytest.raises(Forbidden):
        services.season_end(group_id=group.pk, number=season.number, user=bob, now=INSIDE)
    with pytest.raises(Forbidden):
        services.season_delete(group_id=group.pk, number=season.number, user=bob, now=OPENED)
    assert Season.objects.filter(closed_at__isnull=True).count() == 1


def test_one_season_of_a_kind_at_a_time_and_none_overlapping(group, ann):
    first = open_farkle(group)
    with pytest.raises(Conflict):
        open_farkle(group, first=LAST + timedelta(days=1), last=LAST + timedelta(days=8))
    # Another kind, or another goal, runs beside it.
    open_farkle(group, kind="farkle:10000")
    open_farkle(group, kind="painted-dicez")
    services.season_end(group_id=group.pk, number=first.number, user=ann, now=INSIDE)
    with pytest.raises(Conflict):  # it ran until INSIDE's day: a new one starts after it
        open_farkle(group, first=INSIDE.date(), last=LAST, now=INSIDE)
    second = open_farkle(group, first=INSIDE.date() + timedelta(days=1), last=LAST, now=INSIDE)
    assert second.number == 4


def test_a_season_past_its_end_is_closed_before_the_next_one_opens(group):
    first = open_farkle(group)
    later = END + timedelta(days=3)
    second = open_farkle(group, first=later.date(), last=later.date() + timedelta(days=6), now=later)
    first.refresh_from_db()
    assert first.closed_at == later and second.closed_at is None


def test_ending_early_closes_now_with_the_games_so_far(group, ann, bob):
    season = open_farkle(group)
    finished(group, [(ann, 3000, True), (bob, 2000, False)], at=INSIDE - timedelta(hours=1))
    finished(group, [(bob, 3000, True), (ann, 2000, False)], at=INSIDE + timedelta(hours=1))
    ended = services.season_end(group_id=group.pk, number=season.number, user=ann, now=INSIDE)
    assert ended.ended_early and ended.ends_at == INSIDE and ended.last_day == INSIDE.date()
    assert ended.closed_at == INSIDE
    assert [(s.username, s.rank, s.wins) for s in ended.standings.all()] == [("ann", 1, 1), ("bob", 2, 0)]
    with pytest.raises(Conflict):
        services.season_end(group_id=group.pk, number=season.number, user=ann, now=INSIDE)


def test_a_season_not_started_is_deleted_not_ended_and_a_running_one_not_deleted(group, ann):
    season = open_farkle(group)
    with pytest.raises(Conflict):
        services.season_end(group_id=group.pk, number=season.number, user=ann, now=OPENED)
    with pytest.raises(Conflict):
        services.season_delete(group_id=group.pk, number=season.number, user=ann, now=INSIDE)
    services.season_delete(group_id=group.pk, number=season.number, user=ann, now=OPENED)
    assert not Season.objects.exists()
    # Its closing task finds nothing to close.
    assert tasks.close_season.call(season.pk) == "gone"


# --- closing ------------------------------------------------------------------------------------------


def test_closing_stores_the_table_once_and_later_games_and_leavers_change_nothing(group, ann, bob, cid):
    season = open_farkle(group)
    finished(group, [(bob, 3000, True), (ann, 2500, False), (cid, 2000, False)], at=INSIDE)
    finished(group, [(bob, 3000, True), (cid, 2500, False)], at=INSIDE)
    assert closing.season_close(season_id=season.pk, now=END - timedelta(seconds=1)) == "not yet"
    assert closing.season_close(season_id=season.pk, now=END) == "closed"
    assert closing.season_close(season_id=season.pk, now=END + timedelta(days=1)) == "closed already"
    stored = [(s.username, s.rank, s.games, s.wins, s.points, s.best) for s in Standing.objects.all()]
    assert stored == [("bob", 1, 2, 2, 3, 3000), ("ann", 2, 1, 0, 1, 2500), ("cid", 3, 2, 0, 0, 2500)]
    # A game back-dated into the season, and cid leaving the group, change nothing stored.
    finished(group, [(cid, 3000, True), (ann, 100, False), (bob, 50, False)], at=INSIDE)
    group_services.group_leave(group_id=group.pk, user=cid)
    shown = selectors.shown(Season.objects.get(pk=season.pk))
    assert shown.status == selectors.CLOSED and shown.champions == ["bob"]
    assert [(r.player, r.rank, r.games) for r in shown.rows] == [("bob", 1, 2), ("ann", 2, 1), ("cid", 3, 2)]


def test_the_next_season_starts_empty(group, ann, bob):
    season = open_farkle(group)
    finished(group, [(bob, 3000, True), (ann, 2500, False)], at=INSIDE)
    closing.season_close(season_id=season.pk, now=END)
    later = END + timedelta(days=1)
    second = open_farkle(group, first=later.date(), last=later.date() + timedelta(days=6), now=later)
    assert selectors.live_table(second) == []


def test_a_season_with_no_game_closes_without_a_champion(group, ann, bob, cid):
    season = open_farkle(group)
    assert closing.season_close(season_id=season.pk, now=END) == "closed"
    assert not Standing.objects.exists()
    assert selectors.shown(Season.objects.get(pk=season.pk)).champions == []
    assert Notice.objects.filter(text__contains="no game counted").count() == 3


def test_opening_enqueues_the_closing_for_the_moment_after_the_last_day(group):
    season = open_farkle(group)
    (task,) = DBTaskResult.objects.filter(task_path=tasks.close_season.module_path)
    assert task.run_after == season.ends_at == END
    assert task.args_kwargs["args"] == [season.pk]


@pytest.mark.django_db(transaction=True)
def test_the_worker_closes_the_season_when_its_task_comes_due(group, ann, bob):
    season = open_farkle(group)  # in March: its closing is due now
    finished(group, [(bob, 3000, True), (ann, 2500, False)], at=INSIDE)
    call_command("db_worker", batch=True, interval=0, startup_delay=False, verbosity=0)
    season.refresh_from_db()
    assert season.closed_at is not None
    assert [s.username for s in season.standings.filter(rank=1)] == ["bob"]


def test_a_season_whose_worker_was_down_closes_on_the_next_read_of_the_group_page(
    client, group, ann, bob, cid
):
    season = open_farkle(group)  # its task never ran: no worker
    finished(group, [(cid, 3000, True), (ann, 2500, False)], at=INSIDE)
    client.force_login(bob)
    response = client.get(reverse("groups:detail", args=[group.pk]))
    assert response.status_code == 200
    season.refresh_from_db()
    assert season.closed_at is not None
    assert response.context["seasons_past"][0].champions == ["cid"]
    assert "Past seasons" in response.content.decode()
    # The worker, back at last, finds it closed.
    assert tasks.close_season.call(season.pk) == "closed already"
    assert Standing.objects.filter(season=season).count() == 2


def test_a_season_whose_worker_was_down_closes_on_the_read_of_its_own_page(client, group, bob, cid, ann):
    season = open_farkle(group)
    finished(group, [(cid, 3000, True), (ann, 2500, False)], at=INSIDE)
    client.force_login(bob)
    response = client.get(reverse("seasons:detail", args=[group.pk, season.number]))
    assert response.status_code == 200
    assert response.context["shown"].status == selectors.CLOSED
    assert "Champion: <strong>cid</strong>" in response.content.decode()


# --- notices ------------------------------------------------------------------------------------------


def test_members_hear_of_the_opening_and_of_the_champion(group, ann, bob, cid):
    season = open_farkle(group)
    opened = Notice.objects.filter(text__contains="opened a season")
    assert sorted(n.user.username for n in opened) == ["bob", "cid"]
    assert opened[0].message == (
        "ann opened a season of Farkle (3000) in Friday dice, from 2026-03-02 to 2026-03-08."
    )
    assert opened[0].url == reverse("seasons:detail", args=[group.pk, season.number])
    finished(group, [(bob, 3000, True), (ann, 2500, False)], at=INSIDE)
    closing.season_close(season_id=season.pk, now=END)
    over = Notice.objects.filter(text__contains="is over")
    assert sorted(n.user.username for n in over) == ["ann", "bob", "cid"]
    assert over[0].message == "The season of Farkle (3000) in Friday dice is over: bob won it."


# --- live: a counted game's end refreshes the pages --------------------------------------------------


def test_a_counted_game_s_end_tells_the_members_pages(group, ann, bob, monkeypatch):
    told = []
    monkeypatch.setattr(
        handlers.live, "refresh_on_commit", lambda group_id, names: told.append((group_id, sorted(names)))
    )
    today = timezone.localdate()
    open_farkle(group, first=today, last=today + timedelta(days=6), now=timezone.now())
    game = tables.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=2, group=group)
    tables.game_join(game_id=game.pk, user=bob)
    tables.game_start(game_id=game.pk, user=ann)
    everyone_moves(game, points=False)
    tables.game_apply_action(game_id=game.pk, user=bob, client_id="r1", action={"type": "resign"})
    assert told == [(group.pk, ["ann", "bob", "cid"])]
    # Another goal's game is not the season's.
    other = tables.game_create(creator=ann, kind="farkle", options={"goal": 10000}, seats=2, group=group)
    tables.game_join(game_id=other.pk, user=bob)
    tables.game_start(game_id=other.pk, user=ann)
    everyone_moves(other, points=False)
    tables.game_apply_action(game_id=other.pk, user=bob, client_id="r2", action={"type": "resign"})
    assert len(told) == 1
    # The real game counts in the table, with its rating change.
    season = Season.objects.get(kind="farkle:3000")
    table = rows(season)
    assert table["ann"].wins == 1 and table["ann"].rating_change > 0


# --- pages and who may see them -------------------------------------------------------------------


@pytest.fixture
def outsider(make_user):
    return make_user("olga")


def status_of(client, user, method, url, data=None):
    client.logout()
    if user is not None:
        client.force_login(user)
    return getattr(client, method)(url, data or {}).status_code


def test_who_may_see_and_manage_seasons(client, group, ann, bob, outsider):
    today = timezone.localdate()
    season = open_farkle(group, first=today, last=today + timedelta(days=3), now=timezone.now())
    new = reverse("seasons:new", args=[group.pk])
    detail = reverse("seasons:detail", args=[group.pk, season.number])
    end = reverse("seasons:end", args=[group.pk, season.number])
    delete = reverse("seasons:delete", args=[group.pk, season.number])
    assert status_of(client, None, "get", detail) == 302
    assert status_of(client, outsider, "get", detail) == 404
    assert status_of(client, bob, "get", detail) == 200
    assert status_of(client, ann, "get", detail) == 200
    assert status_of(client, outsider, "get", new) == 404
    assert status_of(client, bob, "get", new) == 403
    assert status_of(client, ann, "get", new) == 200
    for url in (end, delete):
        assert status_of(client, outsider, "post", url) == 404
        assert status_of(client, bob, "post", url) == 403
        assert status_of(client, bob, "get", url) == 405
    assert status_of(client, bob, "get", reverse("seasons:detail", args=[group.pk, 99])) == 404
    assert status_of(client, ann, "post", reverse("seasons:end", args=[group.pk, 99])) == 404
    # The outsider learns nothing of the group from its season's page.
    client.force_login(outsider)
    assert "Friday dice" not in client.get(detail).content.decode()
    # A running season is not deleted: back to its page with why.
    client.force_login(ann)
    response = client.post(delete)
    assert response.status_code == 302 and response["Location"] == detail
    assert Season.objects.filter(pk=season.pk).exists()
    response = client.post(end)
    assert response.status_code == 302 and response["Location"] == detail
    assert Season.objects.get(pk=season.pk).closed_at is not None


def test_the_creator_opens_a_season_with_the_form(client, group, ann):
    client.force_login(ann)
    today = timezone.localdate()
    url = reverse("seasons:new", args=[group.pk])
    form = {
        "kind": "farkle:3000",
        "first_day": today.isoformat(),
        "last_day": (today + timedelta(days=6)).isoformat(),
    }
    response = client.post(url, form)
    season = Season.objects.get()
    assert response["Location"] == reverse("seasons:detail", args=[group.pk, season.number])
    # Again: refused with why, on the form's page.
    response = client.post(url, form)
    assert response.status_code == 400
    assert "already has a season" in response.content.decode()
    response = client.post(url, {**form, "kind": "chess", "first_day": "not a day"})
    assert response.status_code == 400
    assert set(response.context["form"].errors) == {"kind", "first_day"}


def test_the_group_page_shows_the_running_table_and_the_scheme(client, group, ann, bob):
    today = timezone.localdate()
    open_farkle(group, first=today, last=today + timedelta(days=6), now=timezone.now())
    finished(group, [(bob, 3000, True), (ann, 2000, False)], at=timezone.now() - timedelta(seconds=5))
    client.force_login(ann)
    response = client.get(reverse("groups:detail", args=[group.pk]))
    page = response.content.decode()
    (shown,) = response.context["seasons_current"]
    assert [(r.player, r.points) for r in shown.rows] == [("bob", 1), ("ann", 0)]
    assert "Season 1: Farkle (3000)" in page
    assert "1 for every player you finished ahead of" in page
    assert 'id="open-season"' in page
    client.force_login(bob)
    assert 'id="open-season"' not in client.get(reverse("groups:detail", args=[group.pk])).content.decode()


def test_the_group_page_s_queries_do_not_grow_with_the_seasons(
    client, group, ann, bob, django_assert_max_num_queries
):
    today = timezone.localdate()
    for n, kind in enumerate(("farkle:3000", "farkle:10000", "painted-dicez")):
        season = open_farkle(group, kind=kind)
        finished(group, [(bob, 3000, True), (ann, 2000, False)], at=INSIDE, kind=kind.split(":")[0])
        closing.season_close(season_id=season.pk, now=END + timedelta(minutes=n))
    open_farkle(group, first=today, last=today + timedelta(days=6), now=timezone.now())
    client.force_login(ann)
    client.get(reverse("groups:detail", args=[group.pk]))
    with django_assert_max_num_queries(60) as captured:
        client.get(reverse("groups:detail", args=[group.pk]))
    seasons_queries = [q for q in captured.captured_queries if "seasons_" in q["sql"]]
    assert len(seasons_queries) <= 5, [q["sql"][:120] for q in seasons_queries]


def test_days_are_read_in_the_site_s_time_zone(group, settings):
    settings.TIME_ZONE = "Europe/Berlin"
    season = open_farkle(group, first=date(2026, 3, 2), last=date(2026, 3, 2))
    assert season.starts_at == datetime(2026, 3, 1, 23, 0, tzinfo=UTC)
    assert season.ends_at == datetime(2026, 3, 2, 23, 0, tzinfo=UTC)
