"""Ratings in a real browser: beside each name at the table, the change at the game's end
("+14, now 1,532"), and the rating list, at 1280x800 and on a 390x844 touch phone, light and dark,
without an axe violation or sideways scrolling. Screenshots: artifacts/screenshots/ratings/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.tables import services
from ratings.models import RatingChange
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - open_as is a fixture
from tests.e2e.axe import axe_violations
from tests.factories import GameFactory

SHOTS_DIR = SHOTS / "ratings"


def game_of(ann, bob):
    # Both move: a game ended before both moved is aborted, unrated.
    return GameFactory(creator=ann, players=[bob], options={"goal": 3000}, moved=True)


def resign(game, user):
    services.game_apply_action(game_id=game.pk, user=user, client_id="resign", action={"type": "resign"})


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


@pytest.mark.parametrize(("device", "size"), [(DESKTOP, "1280"), (PHONE, "390")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_ratings_at_the_table_at_the_end_and_in_the_list(open_as, make_user, device, size, scheme):  # noqa: F811
    ann, bob = make_user("ann"), make_user("bob")
    off_loop(lambda: resign(game_of(ann, bob), bob))  # ann 1 : 0 bob, so both bring a rating
    game = off_loop(game_of, ann, bob)
    page = open_as(ann, device, scheme)
    page.goto(f"/games/{game.pk}/")
    first = RatingChange.objects.get(user=ann, game__lt=game.pk)
    expect(page.locator('.player[data-player="ann"] .rating')).to_have_text(f"Rating {first.display_after}?")
    assert not axe_violations(page)
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    lost = page.locator(".standings .rating-change")
    expect(lost.first).to_be_visible()
    change = RatingChange.objects.get(user=ann, game=game)
    expect(page.locator(".standings")).to_contain_text(f"\u2212{-change.delta}, now {change.display_after}?")
    assert not axe_violations(page) and no_sideways_scroll(page)
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DIR / f"game-end-{size}-{scheme}.png"), full_page=True)

    page.goto("/highscores/?kind=farkle&goal=3000")
    page.locator("#ratings-link").click()
    rows = page.locator("#ratings tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("bob")  # bob won the second game
    assert not axe_violations(page) and no_sideways_scroll(page)
    page.screenshot(path=str(SHOTS_DIR / f"list-{size}-{scheme}.png"), full_page=True)


@pytest.mark.parametrize(("device", "size", "scheme"), [(DESKTOP, "1280", "light"), (PHONE, "390", "dark")])
def test_the_rating_chart_tells_games_of_one_day_apart(open_as, make_user, device, size, scheme):  # noqa: F811
    """The chart's axis named each point by its date alone: three games of one day were three points
    called "2026-12-07". Now the rated games are numbered, and a point's tooltip says when."""
    ann, bob = make_user("ann"), make_user("bob")
    for _ in range(3):
        off_loop(resign, off_loop(game_of, ann, bob), bob)
    assert RatingChange.objects.filter(user=ann).count() == 3
    page = open_as(ann, device, scheme)
    page.goto("/players/ann/stats/?kind=farkle&goal=3000")
    page.wait_for_function("window.Chart && Chart.getChart(document.getElementById('rating-chart'))")
    labels = page.evaluate("Chart.getChart(document.getElementById('rating-chart')).data.labels")
    assert labels == ["1", "2", "3"]
    axis = page.evaluate(
        "Chart.getChart(document.getElementById('rating-chart')).options.scales.x.title.text"
    )
    assert axis == "Rated game"
    page.locator("#rating").scroll_into_view_if_needed()
    page.wait_for_timeout(1200)  # Chart.js grows its charts in
    assert not axe_violations(page)
    assert no_sideways_scroll(page)
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DIR / f"rating-chart-{size}-{scheme}.png"), full_page=True)
