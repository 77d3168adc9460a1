"""A season's journey in Chromium: the creator opens a season from the group's page; games
of its days count and games outside them do not; a game that ends while a member watches the group's
page shows in its table without a reload; the creator ends the season, and its champion stays on the
group's page. At 1280x800 and as a 390x844 touch phone, light and dark, never scrolling sideways and
without an axe violation. Screenshots: artifacts/screenshots/seasons/ (SEASON_SHOTS elsewhere)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.tables import services as tables
from groups import services as groups
from seasons.models import Season
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 (the fixture)
from tests.e2e.axe import axe_violations
from tests.played import everyone_moves
from tests.seasons.made import finished

pytestmark = pytest.mark.browser

SEASON_SHOTS = Path(os.environ.get("SEASON_SHOTS", SHOTS / "seasons"))


def shoot(page: Page, name: str) -> None:
    """A full-page screenshot, after checking the page never scrolls sideways and axe finds nothing."""
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name} overflows by {overflow} px"
    assert not axe_violations(page), name
    SEASON_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SEASON_SHOTS / f"{name}.png"), full_page=True)


def row(page: Page, player: str):
    """A player's row of the first league table on the page."""
    return page.locator(f"table.league tbody tr[data-player='{player}']")


def cells(page: Page, player: str) -> list[str]:
    return [t.strip() for t in row(page, player).locator("td").all_inner_texts()]


def test_a_season_from_opening_to_its_champion(open_as, make_user):  # noqa: F811
    ann, bob, cid = make_user("ann"), make_user("bob"), make_user("cid")
    group = off_loop(groups.group_create, creator=ann, name="Friday dice")
    for name in ("bob", "cid"):
        off_loop(groups.group_add_member, group_id=group.pk, user=ann, username=name)
    now = timezone.now()
    # Before the season: a game of yesterday; beside it: a game to another goal.
    finished(group, [(bob, 3000, True), (cid, 100, False)], at=now - timedelta(days=1))

    creator = open_as(ann, DESKTOP)
    creator.goto(f"/groups/{group.pk}/")
    expect(creator.locator("#seasons")).to_contain_text("No season is running.")
    creator.get_by_role("link", name="Open a season").click()
    creator.get_by_label("Game").select_option("farkle:3000")
    today = timezone.localdate()
    creator.get_by_label("First day").fill(today.isoformat())
    creator.get_by_label("Last day").fill((today + timedelta(days=6)).isoformat())
    shoot(creator, "season-new-1280-light")
    phone_form = open_as(ann, PHONE, "dark")
    phone_form.goto(f"/groups/{group.pk}/seasons/new/")
    shoot(phone_form, "season-new-390-dark")
    creator.get_by_role("button", name="Open the season").click()
    expect(creator.get_by_role("heading", name="Season 1: Farkle (3000)")).to_be_visible()
    expect(creator.locator("table.league")).to_contain_text("No game has counted yet.")

    # Games of the season's days, made quickly; and one of the days to another goal.
    at = timezone.now()
    finished(group, [(ann, 3000, True), (cid, 2000, False)], at=at)
    finished(group, [(cid, 3000, True), (bob, 2500, False), (ann, 1000, False)], at=at)
    finished(group, [(bob, 10000, True), (ann, 200, False)], at=at, goal=10000)

    member = open_as(bob, PHONE, "dark")
    member.goto(f"/groups/{group.pk}/")
    expect(member.locator("#seasons table.league")).to_be_visible()
    # Points, then wins: ann (1 point, 1 win) before bob (1 point, no win).
    assert cells(member, "cid")[:5] == ["1", "cid", "2", "2", "1"]
    assert cells(member, "ann")[:5] == ["2", "ann", "1", "2", "1"]
    assert cells(member, "bob")[:5] == ["3", "bob", "1", "1", "0"]
    expect(member.locator("#seasons")).to_contain_text("1 for every player you finished ahead of")
    member.locator("#seasons").scroll_into_view_if_needed()
    shoot(member, "group-running-390-dark")

    # A real game of the group ends (ann resigns at her table): bob's page shows it without a reload.
    game = off_loop(
        tables.game_create, creator=ann, kind="farkle", options={"goal": 3000}, seats=2, group=group
    )
    off_loop(tables.game_join, game_id=game.pk, user=bob)
    off_loop(tables.game_start, game_id=game.pk, user=ann)
    off_loop(everyone_moves, game)  # a game ended before both moved is aborted, out of the season
    member.evaluate("window.stillHere = true")
    table = open_as(ann, DESKTOP)
    table.goto(f"/games/{game.pk}/")
    table.click("#resign-button")
    table.click("#resign-confirm")
    expect(table.locator("#g-end .verdict")).to_contain_text("bob wins")
    expect(row(member, "bob").locator("td").nth(3)).to_have_text("2")  # games
    assert cells(member, "bob")[:5] == ["2", "bob", "2", "2", "1"]  # level with cid, a lower average
    assert cells(member, "ann")[:5] == ["3", "ann", "1", "3", "1"]
    assert member.evaluate("window.stillHere") is True  # not reloaded

    # The creator's view of the running season, in both themes and on a phone.
    creator.goto(f"/groups/{group.pk}/seasons/1/")
    expect(creator.locator("table.league tbody tr")).to_have_count(3)
    expect(creator.locator(".game-list li")).to_have_count(3)  # the two made, the one played
    shoot(creator, "season-running-1280-light")
    dark = open_as(ann, DESKTOP, "dark")
    dark.goto(f"/groups/{group.pk}/")
    shoot(dark, "group-running-1280-dark")
    phone = open_as(cid, PHONE)
    phone.goto(f"/groups/{group.pk}/seasons/1/")
    shoot(phone, "season-running-390-light")

    # The creator ends the season (the page asks first): its table is final, cid is champion.
    creator.on("dialog", lambda dialog: dialog.accept())
    creator.get_by_role("button", name="End the season now").click()
    expect(creator.get_by_role("heading", name="Final table")).to_be_visible()
    expect(creator.locator(".champion-line")).to_contain_text("cid")
    shoot(creator, "season-closed-1280-light")

    # A game played afterwards changes nothing; the group page keeps the champion.
    finished(group, [(ann, 3000, True), (cid, 0, False), (bob, 0, False)], at=timezone.now())
    member.goto(f"/groups/{group.pk}/")
    past = member.locator(".past-seasons li")
    expect(past).to_have_count(1)
    expect(past).to_contain_text("Season 1: Farkle (3000)")
    expect(past).to_contain_text("champion: cid")
    expect(member.locator("#seasons")).to_contain_text("No season is running.")
    shoot(member, "group-closed-390-dark")
    member.get_by_role("link", name="Season 1: Farkle (3000)").tap()
    expect(member.locator(".champion-line")).to_contain_text("cid")
    assert cells(member, "cid")[:5] == ["1", "cid champion", "2", "2", "1"]
    assert cells(member, "ann")[:5] == ["3", "ann", "1", "3", "1"]
    shoot(member, "season-closed-390-dark")
    light = open_as(bob, PHONE)
    light.goto(f"/groups/{group.pk}/")
    shoot(light, "group-closed-390-light")
    dark.goto(f"/groups/{group.pk}/seasons/1/")
    shoot(dark, "season-closed-1280-dark")
    season = Season.objects.get(group=group)
    assert season.closed_at is not None and season.ended_early
    assert [s.username for s in season.standings.all()] == ["cid", "bob", "ann"]
