"""A move asked for while the connection is down says that it waits: beside the
buttons, in a polite live region, until the server has acknowledged it on return. At 1280x800 and as a
390x844 touch phone, light and dark, English and German, without an axe violation. Screenshots under
artifacts/screenshots/site/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.helpers import LOOKS, off_loop, score_box
from tests.browser.test_game_ui import start_game
from tests.browser.test_site_ui import DESKTOP, PHONE, _overflow, _shot, open_as  # noqa: F401 (the fixture)
from tests.e2e.axe import axe_violations

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "reconnecting": "Reconnecting…",
        "roll": "Your roll will be sent as soon as you are back online.",
        "score": "Your score will be sent as soon as you are back online.",
        "rolled": "1 of 3 rolls used",
    },
    "de": {
        "reconnecting": "Verbinde neu…",
        "roll": "Dein Wurf wird gesendet, sobald du wieder online bist.",
        "score": "Dein Eintrag wird gesendet, sobald du wieder online bist.",
        "rolled": "1 von 3 Würfen verbraucht",
    },
}


@pytest.mark.parametrize(("device", "scheme", "language"), LOOKS)
def test_a_move_made_offline_says_it_waits_until_it_is_sent(
    open_as,  # noqa: F811
    make_user,
    dice,
    device,
    scheme,
    language,
):
    words = WORDS[language]
    ann = make_user("ann", language=language)
    game = start_game("triple-quintzee", ann)
    dice([2, 3, 4, 5, 6])
    page = open_as(ann, DESKTOP if device == "desktop" else PHONE, scheme)
    open_as.allow(r"WebSocket connection to .* failed")  # the network is down on purpose
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")
    queued = page.locator("#g-queued")
    expect(queued).to_have_attribute("role", "status")
    expect(queued).to_be_empty()

    page.context.set_offline(True)
    expect(page.locator("#g-conn")).to_have_text(words["reconnecting"])
    page.locator("#roll-button").click()
    expect(queued).to_have_text(words["roll"])
    # Beside the buttons it was asked with: in the bar that holds them.
    expect(page.locator(".g-bar #g-queued")).to_have_count(1)
    assert off_loop(lambda: Game.objects.get(pk=game.pk).seq) == 0
    assert axe_violations(page) == []
    assert _overflow(page) <= 0
    _shot(page, f"offline-roll-waits-{device}-{language}-{scheme}")

    page.context.set_offline(False)
    expect(page.locator("#roll-count")).to_have_text(words["rolled"])
    expect(queued).to_be_empty()
    expect(page.locator("#g-conn")).to_be_hidden()
    assert off_loop(lambda: Game.objects.get(pk=game.pk).seq) == 1  # sent once
    _shot(page, f"offline-roll-sent-{device}-{language}-{scheme}")


def test_each_kind_of_move_says_what_waits(open_as, make_user, dice):  # noqa: F811
    """The note names the move: a box scored offline is "your score", not a roll."""
    ann = make_user("ann", language="de")
    game = start_game("triple-quintzee", ann)
    dice([2, 3, 4, 5, 6])
    page = open_as(ann, DESKTOP)
    open_as.allow(r"WebSocket connection to .* failed")
    page.goto(f"/games/{game.pk}/")
    page.locator("#roll-button").click()
    expect(page.locator("#roll-count")).to_have_text(WORDS["de"]["rolled"])
    page.context.set_offline(True)
    expect(page.locator("#g-conn")).to_have_text(WORDS["de"]["reconnecting"])
    score_box(page, "chance", 1)
    expect(page.locator("#g-queued")).to_have_text(WORDS["de"]["score"])
    page.context.set_offline(False)
    expect(page.locator("#g-queued")).to_be_empty()
    assert off_loop(lambda: Game.objects.get(pk=game.pk).seq) == 2
