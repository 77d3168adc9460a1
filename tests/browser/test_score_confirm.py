"""A click on the card marks a box and the Score button (or a second click) scores it, as a tap does,
so a stray click costs no box; a player who wants one click says so on their profile.
At 1280x800 with a mouse and as a 390x844 touch phone, in English and German."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.helpers import cell, off_loop, score_of
from tests.browser.test_game_ui import start_game
from tests.browser.test_site_ui import DESKTOP, PHONE, _shot, open_as  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser

SELECTED = re.compile(r"\bselected\b")


def _rolled(page, game):
    page.goto(f"/games/{game.pk}/")
    page.locator("#roll-button").click()
    expect(page.locator("#roll-count")).to_have_text("1 of 3 rolls used")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_click_marks_the_box_and_the_score_button_scores_it(open_as, make_user, dice, scheme):  # noqa: F811
    ann = make_user("ann")
    game = start_game("triple-quintzee", ann)
    dice([2, 3, 4, 5, 6], [1, 1, 1, 1, 2])
    page = open_as(ann, DESKTOP, scheme)
    _rolled(page, game)
    cell(page, "large_straight", 3).click()
    expect(cell(page, "large_straight", 3)).to_have_class(SELECTED)
    expect(page.locator("#score-button")).to_have_text("Score 120")
    expect(page.locator("#g-hint")).to_contain_text("Click it again or press Score to choose it.")
    _shot(page, f"score-confirm-1280-{scheme}")
    page.locator("#score-cancel").click()  # changed her mind: nothing was sent
    expect(cell(page, "large_straight", 3)).not_to_have_class(SELECTED)
    assert off_loop(lambda: Game.objects.get(pk=game.pk).seq) == 1
    cell(page, "chance", 1).click()
    cell(page, "chance", 1).click()  # the same box again scores it too
    expect(score_of(page, "ann")).to_have_text("20")


def test_one_click_scores_once_the_profile_says_so(open_as, make_user, dice):  # noqa: F811
    ann = make_user("ann", language="de")
    page = open_as(ann, DESKTOP)
    page.goto("/accounts/profile/")
    page.get_by_label("Mit einem Klick eintragen").check()
    page.get_by_role("button", name="Speichern").click()
    expect(page.get_by_label("Mit einem Klick eintragen")).to_be_checked()
    assert off_loop(lambda: type(ann).objects.get(pk=ann.pk).quick_scoring)
    game = start_game("triple-quintzee", ann)
    dice([2, 3, 4, 5, 6])
    page.goto(f"/games/{game.pk}/")
    unrolled = page.locator("#roll-count").inner_text()
    page.locator("#roll-button").click()
    # The box scores only once the roll has arrived: a click before it would do nothing.
    expect(page.locator("#roll-count")).not_to_have_text(unrolled)
    cell(page, "large_straight", 3).click()
    expect(score_of(page, "ann")).to_have_text("120")


def test_a_tap_still_marks_first_with_one_click_scoring_on(open_as, make_user, dice):  # noqa: F811
    ann = make_user("ann", quick_scoring=True)
    game = start_game("triple-quintzee", ann)
    dice([2, 3, 4, 5, 6])
    page = open_as(ann, PHONE)
    page.goto(f"/games/{game.pk}/")
    page.locator("#roll-button").tap()
    cell(page, "large_straight", 3).tap()
    expect(page.locator("#score-button")).to_have_text("Score 120")
    assert off_loop(lambda: Game.objects.get(pk=game.pk).seq) == 1
    page.locator("#score-button").tap()
    expect(score_of(page, "ann")).to_have_text("120")
