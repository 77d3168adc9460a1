"""What a game says aloud (static/js/game/announce.js): the sentences of the page's polite live region,
read as text, in order, in English and in German, for a whole turn of one's own and an opponent's."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import die
from tests.browser.test_game_ui import play, start_game  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser


def said(page: Page):
    """The live region's lines, oldest first."""
    return page.locator("#g-announce p")


def test_probe(make_user, play, dice):  # noqa: F811
    ann, bob = make_user("ann", language="de"), make_user("bob")
    game = start_game("farkle", ann, bob)
    dice([1, 5, 2, 3, 6, 6], [5, 5, 5, 2], [2, 3, 4, 6, 2, 3])
    p1, p2 = play(ann, game), play(bob, game)
    p1.click("#roll-button")
    expect(die(p2, 6)).to_have_attribute("aria-label", "Die 6: six")
    die(p1, 1).click()
    die(p1, 2).click()
    p1.click("#roll-button")
    expect(die(p2, 1)).to_have_attribute("aria-label", "Die 1: five")
    for n in (1, 2, 3):
        die(p1, n).click()
    p1.click("#bank-button")
    p2.click("#roll-button")
    p1.wait_for_timeout(1500)
    print(said(p1).all_inner_texts())
    print(said(p2).all_inner_texts())
