"""Friends in a real browser: follow a player from their profile, see them playing in the list of the
players one follows and watch their game from it, find a player from the header's search field; at
1280x800 and on a 390x844 touch phone, light and dark (and once in German), without an axe violation or
sideways scrolling. Screenshots: artifacts/screenshots/friends/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from friends.models import Follow
from games.models import Game
from notices.services import seen_on_site
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - open_as is a fixture
from tests.e2e.axe import axe_violations
from tests.factories import GameFactory

SHOTS_DIR = SHOTS / "friends"


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


def shoot(page, name: str) -> None:
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DIR / f"{name}.png"), full_page=True)


def checked(page, name: str) -> None:
    assert not axe_violations(page) and no_sideways_scroll(page)
    shoot(page, name)


def started(creator, other) -> Game:
    return off_loop(GameFactory, creator=creator, players=[other], options={"goal": 10000})


def at_the_table(open_as, user, game, device, scheme):  # noqa: F811
    """``user``'s page of ``game``, open until the test ends: they are at its table (and on the site)."""
    page = open_as(user, device, scheme)
    page.goto(game.get_absolute_url())
    expect(page.locator(f"#g-players li[data-player='{user.username}'] .dot")).to_have_class(
        re.compile(r"\bonline\b")
    )
    return page


@pytest.mark.parametrize(("device", "size", "scheme"), [(DESKTOP, "1280", "light"), (PHONE, "390", "dark")])
def test_follow_from_the_profile_then_watch_the_followed_player_from_the_list(
    open_as,  # noqa: F811
    make_user,
    device,
    size,
    scheme,
):
    ann, bob, eve = make_user("ann"), make_user("bob"), make_user("eve")
    make_user("bobby")
    game = started(bob, eve)
    at_the_table(open_as, bob, game, device, scheme)

    page = open_as(ann, device, scheme)
    page.goto("/players/bob/")
    page.get_by_role("button", name="Follow bob").click()
    expect(page).to_have_url(re.compile(r"/players/bob/$"))
    expect(page.locator("#following-note")).to_contain_text("You follow bob")
    expect(page.get_by_role("button", name="Unfollow bob")).to_be_visible()
    assert Follow.objects.filter(follower=ann, followed=bob).exists()
    checked(page, f"profile-following-{size}-{scheme}")

    page.get_by_role("link", name="see who you follow").click()
    expect(page).to_have_url(re.compile(r"/players/following/$"))
    row = page.locator("#following-list li[data-player='bob']")
    expect(row).to_have_attribute("data-state", "playing")
    expect(row).to_contain_text("playing Farkle (10000)")
    expect(row.get_by_role("link", name="Challenge bob")).to_be_visible()
    checked(page, f"following-{size}-{scheme}")

    page.goto("/")
    expect(page.locator("#home-following li[data-player='bob']")).to_contain_text("playing Farkle (10000)")
    checked(page, f"home-{size}-{scheme}")

    page.get_by_role("link", name="Watch bob's game of Farkle (10000)").click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(page.locator("#g-players li[data-player='bob']")).to_be_visible()

    # The header's search field: on the phone, in the menu.
    if device is PHONE:
        page.get_by_role("button", name="Menu").tap()
        shoot(page, f"menu-{size}-{scheme}")
    search = page.get_by_role("searchbox", name="Find a player")
    search.fill("BO")
    search.press("Enter")
    expect(page).to_have_url(re.compile(r"/players/search/\?q=BO$"))
    results = page.locator("#search-results li")
    expect(results).to_have_count(2)
    expect(results.first).to_have_attribute("data-player", "bob")
    expect(results.first).to_contain_text("followed")
    checked(page, f"search-{size}-{scheme}")


@pytest.mark.parametrize(("device", "size", "scheme"), [(DESKTOP, "1280", "dark"), (PHONE, "390", "light")])
def test_the_pages_in_the_other_schemes_and_in_german(open_as, make_user, device, size, scheme):  # noqa: F811
    ann, bob, cid = make_user("ann", language="de"), make_user("bob"), make_user("cid")
    eve = make_user("eve")
    for other in (bob, cid, eve):
        Follow.objects.create(follower=ann, followed=other)
    at_the_table(open_as, bob, started(bob, cid), device, scheme)
    off_loop(seen_on_site, cid)  # a page of the site open: on the site, not at the table

    page = open_as(ann, device, scheme)
    page.goto("/players/following/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Spieler, denen du folgst")
    expect(page.locator("li[data-player='bob']")).to_contain_text("spielt Farkle (10000)")
    expect(page.locator("li[data-player='cid']")).to_contain_text("online")
    expect(page.locator("li[data-player='eve']")).to_contain_text("abwesend")
    checked(page, f"following-de-{size}-{scheme}")

    page.goto("/players/search/?q=zz")
    expect(page.locator("#search-empty")).to_contain_text("Kein Spielername beginnt mit „zz“.")
    checked(page, f"search-empty-de-{size}-{scheme}")

    page.goto("/players/eve/")
    expect(page.get_by_role("button", name="eve nicht mehr folgen")).to_be_visible()
    checked(page, f"profile-de-{size}-{scheme}")
