"""The tournament pages: the group page's list, the creator's form (times read in the browser's time
zone), a tournament's page with each player's seat, the rounds, the standings and the winner; outsiders
see nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.tournaments.tournament_helpers import announce, end, everyone_enters, group_of, round_games
from tournaments import services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def signed_in(client, user):
    client.force_login(user)
    return client


def test_the_group_page_lists_its_tournaments_and_offers_the_creator_to_announce(client):
    group, u = group_of(["cora", "dan"])
    page = signed_in(client, u["dan"]).get(f"/groups/{group.pk}/").content.decode()
    assert "No tournaments yet." in page and "Announce a tournament" not in page
    t = announce(group, u["cora"])
    services.tournament_enter(tournament_id=t.pk, user=u["dan"])
    page = client.get(f"/groups/{group.pk}/").content.decode()
    assert f'href="/groups/{group.pk}/tournaments/1/"' in page and "Friday Swiss" in page
    assert "entered" in page and "1 entry" in page
    client.force_login(u["cora"])
    assert "Announce a tournament" in client.get(f"/groups/{group.pk}/").content.decode()


def test_the_group_pages_queries_do_not_grow_with_its_tournaments(client):
    group, u = group_of(["cora", "dan"])
    signed_in(client, u["dan"])
    announce(group, u["cora"])
    cache.clear()  # both pages read the group's lists (groups.selectors.leaderboards keeps them)
    with CaptureQueriesContext(connection) as one:
        client.get(f"/groups/{group.pk}/")
    for _ in range(5):
        t = announce(group, u["cora"])
        services.tournament_enter(tournament_id=t.pk, user=u["dan"])
    cache.clear()
    with CaptureQueriesContext(connection) as six:
        client.get(f"/groups/{group.pk}/")
    assert len(six.captured_queries) == len(one.captured_queries)


def test_the_creator_announces_through_the_form_in_their_time_zone(client):
    group, u = group_of(["cora", "dan"])
    signed_in(client, u["cora"])
    assert client.get(f"/groups/{group.pk}/tournaments/new/").status_code == 200
    year = timezone.now().year + 1 if timezone.now().month == 12 else timezone.now().year
    month = 1 if timezone.now().month == 12 else timezone.now().month + 1
    form = {
        "name": "Spring cup",
        "kind": "farkle",
        "goal": "3000",
        "dice": "6",
        "format": "swiss",
        "rounds": "4",
        "table_size": "3",
        "pace": "live",
        "starts_at": f"{year}-{month:02d}-10T20:00",
        "entries_close_at": f"{year}-{month:02d}-10T19:30",
        "tz": "Asia/Tokyo",
    }
    response = client.post(f"/groups/{group.pk}/tournaments/new/", form)
    assert response.status_code == 302 and response["Location"] == f"/groups/{group.pk}/tournaments/1/"
    t = Tournament.objects.get()
    assert (t.rounds, t.table_size, t.options["goal"]) == (4, 3, 3000)
    assert t.starts_at == datetime(year, month, 10, 11, 0, tzinfo=UTC)  # 20:00 in Tokyo
    # A start in the past, and entries closing after it: the form again, with why.
    bad = client.post(f"/groups/{group.pk}/tournaments/new/", {**form, "starts_at": "2001-01-01T10:00"})
    assert bad.status_code == 400 and "Choose a start in the future." in bad.content.decode()
    bad = client.post(
        f"/groups/{group.pk}/tournaments/new/", {**form, "entries_close_at": f"{year}-{month:02d}-11T10:00"}
    )
    assert bad.status_code == 400 and "Entries must close at the start or before it." in bad.content.decode()
    bad = client.post(f"/groups/{group.pk}/tournaments/new/", {**form, "starts_at": ""})
    assert bad.status_code == 400 and "Say when a live tournament starts." in bad.content.decode()
    assert Tournament.objects.count() == 1
    # A member who is not the creator is told why; an outsider learns nothing.
    client.force_login(u["dan"])
    assert client.get(f"/groups/{group.pk}/tournaments/new/").status_code == 403
    assert client.post(f"/groups/{group.pk}/tournaments/new/", form).status_code == 403
    outsider = group_of(["olga"])[1]["olga"]
    client.force_login(outsider)
    assert client.get(f"/groups/{group.pk}/tournaments/new/").status_code == 404
    assert client.get(f"/groups/{group.pk}/tournaments/1/").status_code == 404


def test_the_page_shows_each_player_their_seat_then_the_final_standings_and_winner(client):
    group, u = group_of(["cora", "dan", "eve"])
    t = announce(group, u["cora"], rounds=1)
    page = signed_in(client, u["dan"]).get(t.get_absolute_url()).content.decode()
    assert "Enter" in page and "Start now" not in page
    client.post(f"{t.get_absolute_url()}enter/")
    everyone_enters(t, [u["cora"], u["eve"]])
    client.force_login(u["cora"])
    assert "Start now" in client.get(t.get_absolute_url()).content.decode()
    client.post(f"{t.get_absolute_url()}start/")
    (game,) = round_games(t, 1)
    players = list(game.seats.values_list("user__username", flat=True))
    (sitting_out,) = {"cora", "dan", "eve"} - set(players)
    for name in players:
        client.force_login(u[name])
        page = client.get(t.get_absolute_url()).content.decode()
        assert 'id="my-seat"' in page and f'href="/games/{game.pk}/"' in page
    client.force_login(u[sitting_out])
    assert "A bye in round 1" in client.get(t.get_absolute_url()).content.decode()
    end(game)
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Final standings" in page and 'id="winner"' in page
    assert f'href="/games/{game.pk}/replay/"' in page
    assert "Buchholz" in page and 'id="my-seat"' not in page


def test_the_start_time_is_shown_and_nobody_but_the_creator_cancels(client):
    group, u = group_of(["cora", "dan"])
    t = announce(group, u["cora"], starts_at=timezone.now() + timedelta(days=2))
    signed_in(client, u["dan"])
    assert client.post(f"{t.get_absolute_url()}cancel/").status_code == 403
    client.force_login(u["cora"])
    page = client.get(t.get_absolute_url()).content.decode()
    assert f'datetime="{t.starts_at.isoformat()}"' in page
    assert client.post(f"{t.get_absolute_url()}cancel/").status_code == 302
    assert "Called off by the group" in client.get(t.get_absolute_url()).content.decode()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_standings_name_each_column_once(client, language):
    """German standings had two columns called "Punkte": the tournament's points and the games' score."""
    import re

    group, u = group_of(["cora", "dan"])
    u["dan"].language = language
    u["dan"].save(update_fields=["language"])
    t = announce(group, u["cora"], rounds=1)
    everyone_enters(t, [u["cora"], u["dan"]])
    services.tournament_start_now(tournament_id=t.pk, user=u["cora"])
    page = signed_in(client, u["dan"]).get(t.get_absolute_url()).content.decode()
    table = re.search(r'<table class="data standings-table".*?</thead>', page, re.S)[0]
    heads = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
    assert len(heads) == 6 and len(set(heads)) == 6, heads
