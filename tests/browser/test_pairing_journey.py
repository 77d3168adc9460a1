"""Play someone now in a real browser: two strangers ask for Farkle on two touch phones,
land at one table (the one who waited is taken there by the queue socket), and both see their new
ratings when the game ends; the form and the waiting page at 1280x800 and 390x844, light and dark,
without an axe violation or sideways scrolling. Screenshots: artifacts/screenshots/pairing/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from pairing.models import Seek
from ratings.models import RatingChange
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - open_as is a fixture
from tests.e2e.axe import axe_violations
from tests.played import everyone_moves

SHOTS_DIR = SHOTS / "pairing"


def no_sideways_scroll(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


def shot(page: Page, name: str) -> None:
    assert not axe_violations(page), name
    assert no_sideways_scroll(page), name
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DIR / f"{name}.png"), full_page=True)


def ask_for_farkle(page: Page, tap: bool) -> None:
    page.goto("/play/")
    page.get_by_label("Game").select_option("farkle")
    page.get_by_label("Goal").select_option("3000")
    page.get_by_label("Players at the table").select_option("2")
    button = page.get_by_role("button", name="Find players")
    button.tap() if tap else button.click()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_two_strangers_on_phones_land_at_one_table_and_see_their_ratings(open_as, make_user, scheme):  # noqa: F811
    ann, bob = make_user("ann"), make_user("bob")
    a = open_as(ann, PHONE, scheme)
    b = open_as(bob, PHONE, scheme)
    ask_for_farkle(a, tap=True)
    expect(a.get_by_role("heading", name="Looking for players")).to_be_visible()
    expect(a.locator("#queue-others")).to_have_text("0 other players wait for this game.")
    expect(a.locator("#queue-window")).to_contain_text("within 100 points")
    shot(a, f"waiting-390-{scheme}")
    ask_for_farkle(b, tap=True)
    expect(b).to_have_url(re.compile(r"/games/\d+/$"))
    # ann's page heard it on the queue socket and went to the same table.
    expect(a).to_have_url(b.url)
    game_id = int(re.search(r"/games/(\d+)/", b.url).group(1))
    assert set(Seek.objects.filter(game_id=game_id).values_list("user__username", flat=True)) == {
        "ann",
        "bob",
    }
    for page in (a, b):
        expect(page.locator('.player[data-player="ann"]')).to_be_visible()
        expect(page.locator('.player[data-player="bob"]')).to_be_visible()
    # Both move (a game ended before both moved is aborted, unrated), then bob resigns.
    off_loop(lambda: everyone_moves(Game.objects.get(pk=game_id)))
    b.get_by_role("button", name="Resign").tap()
    b.get_by_role("button", name="Yes, resign").tap()
    for page in (a, b):
        expect(page.locator(".standings .rating-change").first).to_be_visible()
    for page, name in ((a, "ann"), (b, "bob")):
        change = RatingChange.objects.get(user__username=name, game_id=game_id)
        sign = "+" if change.delta >= 0 else "\u2212"
        expect(page.locator(".standings")).to_contain_text(
            f"{sign}{abs(change.delta)}, now {change.display_after}"
        )
    assert RatingChange.objects.get(user=ann, game_id=game_id).delta > 0
    shot(a, f"rated-390-{scheme}")


@pytest.mark.parametrize(("device", "size"), [(DESKTOP, "1280"), (PHONE, "390")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_form_and_leaving_the_queue(open_as, make_user, device, size, scheme):  # noqa: F811
    ann = make_user("ann")
    page = open_as(ann, device, scheme)
    page.goto("/play/")
    expect(page.get_by_role("heading", name="Play someone now")).to_be_visible()
    page.get_by_label("Computer players").select_option(label="After 1 minute")
    shot(page, f"form-{size}-{scheme}")
    page.get_by_role("button", name="Find players").click()
    expect(page.locator("#queue-computers")).to_be_visible()
    expect(page.locator("#queue-waited")).to_have_text(re.compile(r"Waiting for \d+ s\."))
    shot(page, f"waiting-{size}-{scheme}")
    page.get_by_role("button", name="Leave the queue").click()
    expect(page.get_by_text("You left the queue.")).to_be_visible()
    assert Seek.objects.get(user=ann).status == Seek.Status.LEFT


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("device", "size"), [(DESKTOP, "1280"), (PHONE, "390")])
def test_the_waiting_page_widens_and_counts_down(open_as, make_user, device, size, scheme):  # noqa: F811
    """The page said "within 100 points" for as long as one waited (the server sends nothing when a
    window widens) and never how long until the computers came. The page's clock is Playwright's, run
    forward: no real waiting."""
    ann = make_user("ann")
    page = open_as(ann, device, scheme)
    page.clock.install()
    page.goto("/play/")
    page.get_by_label("Computer players").select_option(label="After 1 minute")
    page.get_by_role("button", name="Find players").click()
    window, computers = page.locator("#queue-window"), page.locator("#queue-computers")
    expect(window).to_contain_text("within 100 points")
    expect(computers).to_have_text(re.compile(r"Computers take the seats left in (60|59|58) s\."))
    page.clock.run_for(12_000)
    expect(window).to_contain_text("within 200 points")
    expect(computers).to_have_text(re.compile(r"Computers take the seats left in 4[6-9] s\."))
    page.clock.run_for(10_000)
    expect(window).to_contain_text("within 400 points")
    shot(page, f"waiting-widened-{size}-{scheme}")
    page.clock.run_for(20_000)
    expect(window).to_have_text("Seating anyone who waits for this game.")
    page.clock.run_for(20_000)
    expect(computers).to_have_text("Computers are taking the seats left.")
    page.get_by_role("button", name="Leave the queue").click()
