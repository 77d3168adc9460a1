"""The fair-play screen on seeded games: a player who always takes the expert's move is listed, the
honest good computers are not; the moderators' page reads it from the rated games' reviews alone, and
nobody but staff sees it."""

from __future__ import annotations

from datetime import timedelta
from functools import cache

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from bench.screening import record
from coach.models import Review, SeatReview
from games.models import Game, Seat
from ratings.models import Rating, RatingChange
from safety import screening, services

FARKLE = ("farkle", {"goal": 3000})
GAMES = 35  # about 300 judged decisions each: over MIN_DECISIONS
HONEST = 20

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def seeded() -> list[screening.Record]:
    return seeded_records()


@cache
def seeded_records() -> list[screening.Record]:
    """Twenty good computers and one player who takes the expert's move every time, at one rating."""
    slug, options = FARKLE
    records = [record(slug, options, GAMES, f"good{i}", "good", f"screen-good-{i}") for i in range(HONEST)]
    records.append(record(slug, options, GAMES, "cheat", "expert 100 %", "screen-cheat"))
    return [
        screening.Record(r.player, r.kind, 1700, r.games, r.decisions, r.best, r.accuracy_sum)
        for r in records
    ]


def test_the_expert_follower_is_listed_and_no_good_computer(seeded):
    assert all(r.decisions >= screening.MIN_DECISIONS for r in seeded)
    screened = screening.screen(seeded)
    assert len(screened) == HONEST + 1
    assert [s.record.player for s in screened if s.listed] == ["cheat"]
    cheat = screened[0]
    assert cheat.record.share == 1 and cheat.band == 1600 and cheat.population == HONEST + 1
    assert min(cheat.share_z, cheat.accuracy_z) >= screening.THRESHOLD
    assert max(min(s.share_z, s.accuracy_z) for s in screened[1:]) < screening.THRESHOLD / 2


def test_too_few_decisions_or_players_are_not_screened(seeded):
    short = [screening.Record(r.player, r.kind, r.rating, r.games, 199, r.best % 199, 0.0) for r in seeded]
    assert screening.screen(short) == []
    assert screening.screen(seeded[-(screening.MIN_BAND - 1) :]) == []


def test_a_small_band_is_compared_with_the_whole_game(seeded):
    moved = [*seeded[:-1], screening.Record("cheat", "farkle", 2300, GAMES, *_figures(seeded[-1]))]
    cheat = next(s for s in screening.screen(moved) if s.record.player == "cheat")
    assert (cheat.band, cheat.population, cheat.listed) == (None, HONEST + 1, True)


def _figures(r: screening.Record) -> tuple:
    return r.decisions, r.best, r.accuracy_sum


def stored(seeded, make_user, *, rated: bool = True) -> dict:
    """The seeded figures as the site keeps them: each player's games split in five rated games of
    three seats, reviewed, with a rating of 1700."""
    users = {r.player: make_user(r.player) for r in seeded}
    now = timezone.now()
    for user in users.values():
        Rating.objects.create(user=user, kind="farkle:3000", mu=25, sigma=3, display=1700, updated_at=now)
    parts = screening.MIN_GAMES
    names = list(users)
    for start in range(0, len(names), 3):
        table = names[start : start + 3]
        for part in range(parts):
            game = Game.objects.create(
                kind="farkle",
                options=dict(FARKLE[1]),
                max_seats=3,
                status=Game.Status.FINISHED,
                rated=rated,
                started_at=now,
                finished_at=now - timedelta(days=part),
            )
            review = Review.objects.create(game=game)
            for position, name in enumerate(table):
                r = next(x for x in seeded if x.player == name)
                seat = Seat.objects.create(game=game, user=users[name], position=position)
                share = r.decisions // parts + (part < r.decisions % parts)
                best = r.best // parts + (part < r.best % parts)
                SeatReview.objects.create(
                    review=review,
                    seat=seat,
                    user=users[name],
                    kind="farkle",
                    finished_at=game.finished_at,
                    decision_count=share,
                    best_count=best,
                    total_cost=0,
                    accuracy=r.accuracy_sum / r.decisions,
                    decisions=[],
                )
                if rated:
                    RatingChange.objects.create(
                        game=game,
                        user=users[name],
                        kind="farkle:3000",
                        at=now,
                        place=position + 1,
                        mu_before=25,
                        sigma_before=3,
                        mu_after=25,
                        sigma_after=3,
                        display_before=1700,
                        display_after=1700,
                    )
    return users


def test_the_screen_reads_the_rated_games_reviews(seeded, make_user):
    stored(seeded, make_user)
    found = services.screened_players()
    assert found["screened"] == HONEST + 1
    assert [s.record.player for s in found["listed"]] == ["cheat"]
    listed = found["listed"][0]
    assert (listed.record.games, listed.record.decisions, listed.band) == (5, seeded[-1].decisions, 1600)
    assert services.screened_players(kind="quintzee") == {"listed": [], "screened": 0}


def test_unrated_games_are_not_screened(seeded, make_user):
    stored(seeded, make_user, rated=False)
    assert services.screened_players() == {"listed": [], "screened": 0}


def test_the_page_is_for_staff_alone(seeded, make_user):
    stored(seeded, make_user)
    url = reverse("safety:screening")
    staff, player = Client(), Client()
    staff.force_login(make_user("rita", is_staff=True))
    player.force_login(make_user("pat"))
    page = staff.get(url)
    assert page.status_code == 200
    assert b'data-player="cheat"' in page.content and b'data-player="good1"' not in page.content
    assert staff.get(url, {"kind": "farkle"}).status_code == 200
    assert b"no-screened" in staff.get(url, {"kind": "quintzee"}).content
    assert staff.get(url, {"kind": "chess"}).status_code == 400
    assert player.get(url).status_code == 403
    assert Client().get(url).status_code == 302
    german = Client(HTTP_ACCEPT_LANGUAGE="de")
    german.force_login(make_user("rolf", is_staff=True))
    page = german.get(url).content.decode()
    assert "Fairplay-Prüfung" in page and "So gut wie der Experte: 100 % der Entscheidungen" in page
