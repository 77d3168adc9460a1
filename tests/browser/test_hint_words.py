"""The turn's hint names what the player does with the dice: a mouse clicks, a finger taps, in
English and German."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_game_ui import start_game
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser

HINTS = {
    ("en", "phone"): "Tap dice to hold them and roll again, or choose a box on your card.",
    ("en", "desktop"): "Click dice to hold them and roll again, or choose a box on your card.",
    (
        "de",
        "phone",
    ): "Tippe Würfel an, um sie festzuhalten, und würfle noch einmal, oder wähle ein Feld auf deinem Block.",
}


@pytest.mark.parametrize(("language", "device"), list(HINTS))
def test_the_hint_after_a_roll_says_tap_on_a_phone(open_as, make_user, dice, language, device):  # noqa: F811
    ann = make_user("ann", language=language)
    game = start_game("triple-quintzee", ann)
    dice([1, 2, 3, 4, 6])
    page = open_as(ann, PHONE if device == "phone" else DESKTOP)
    page.goto(f"/games/{game.pk}/")
    roll = page.locator("#roll-button")
    roll.tap() if device == "phone" else roll.click()
    expect(page.locator("#g-hint")).to_have_text(HINTS[language, device])
