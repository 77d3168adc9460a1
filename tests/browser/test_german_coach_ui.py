"""The coach and a computer player in German, in a real browser: the Hint's words in the asker's
language, the computer's badge and the worker notice, the review and the accuracy chart with German
numbers; at 1280x800 and as a 390x844 touch phone, under artifacts/screenshots/german/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import die, off_loop, wait_for_disconnects
from tests.browser.test_coach import run_worker, solo_farkle
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - a fixture
from tests.factories import GameFactory, UserFactory
from tests.i18n.english import english_left

GERMAN_SHOTS = SHOTS / "german"
NOTICE = "Die Computerspieler warten auf den Hintergrunddienst, und der läuft gerade nicht."


def snap(page: Page, name: str) -> None:
    GERMAN_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(GERMAN_SHOTS / f"{name}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name} scrolls sideways by {overflow} px"


def no_english(page: Page, where: str) -> None:
    text = page.locator("main").inner_text()
    left = english_left(text, ("ann", "computer-expert-1", "DiceHall", "Farkle"))
    assert left == [], f"English on {where}: {left}"


def hint(page: Page, text) -> None:
    page.locator("#hint-button").click()
    expect(page.locator("#hint-text")).to_have_text(text)


@pytest.fixture
def ann(db):
    """tests/conftest.py's ann, reading the site in German."""
    return UserFactory(username="ann", language="de")


def against_the_expert(user) -> Game:
    # Unrated: a rated game gives no hint.
    return off_loop(
        GameFactory, creator=user, options={"goal": 3000}, computers=1, strength="expert", rated=False
    )


def test_a_game_against_the_computer_in_german(ann, open_as, dice):  # noqa: F811 - the fixture
    game = against_the_expert(ann)
    dice([1, 1, 1, 5, 2, 3])
    phone = open_as(ann, PHONE, "dark")
    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator("#g-players")).to_contain_text("Computer · Experte")
    first = re.compile(
        r"^Experte: würfeln \u2013 noch gibt es nichts zu entscheiden \(757,0 Punkte in diesem Zug"
    )
    hint(phone, first)
    phone.locator("#roll-button").tap()
    expect(die(phone, 6)).to_have_attribute("aria-label", "Würfel 6: drei")
    hint(phone, "Experte: 1 1 1 5 rauslegen und 1.050 aufschreiben (1.050,0 Punkte erwartet)")
    snap(phone, "computer-hint-phone-dark")
    page = open_as(ann, DESKTOP)
    page.goto(f"/games/{game.pk}/")
    expect(die(page, 6)).to_have_attribute("aria-label", "Würfel 6: drei")
    hint(page, "Experte: 1 1 1 5 rauslegen und 1.050 aufschreiben (1.050,0 Punkte erwartet)")
    no_english(page, "the game page")
    snap(page, "computer-hint-1280-light")
    for n in (1, 2, 3):
        die(page, n).click()
    page.click("#bank-button")
    # No worker runs here: the computer's turn waits, and the page says why, in German.
    expect(page.locator("#g-worker")).to_have_text(NOTICE, timeout=30_000)
    expect(phone.locator("#g-worker")).to_have_text(NOTICE, timeout=30_000)
    snap(page, "computer-waiting-for-the-worker-1280-light")
    snap(phone, "computer-waiting-for-the-worker-phone-dark")
    wait_for_disconnects()


def test_the_review_and_the_accuracy_in_german(ann, open_as, dice, server_env):  # noqa: F811
    game = solo_farkle(ann)
    dice([1, 1, 1, 5, 2, 3], [2, 2, 3, 4, 6, 6], [1, 1, 1, 1, 1, 2])
    page = open_as(ann, DESKTOP)
    page.goto(f"/games/{game.pk}/")
    page.click("#roll-button")
    expect(die(page, 6)).to_have_attribute("aria-label", "Würfel 6: drei")
    for n in (1, 2, 3):
        die(page, n).click()
    page.click("#bank-button")
    expect(page.locator("#roll-button")).to_have_text("6 Würfel würfeln")
    page.click("#roll-button")  # a Farkle
    expect(page.locator("#g-moment.farkle")).to_be_visible()
    page.click("#roll-button")
    expect(die(page, 6)).to_have_attribute("aria-label", "Würfel 6: zwei")
    for n in (1, 2, 3, 4, 5):
        die(page, n).click()
    page.click("#bank-button")
    expect(page.locator("#g-end")).to_be_visible()
    run_worker(server_env)
    wait_for_disconnects()

    for device, options, scheme in (("1280", DESKTOP, "light"), ("phone", PHONE, "dark")):
        replay = open_as(ann, options, scheme)
        replay.goto(f"/games/{game.pk}/replay/")
        expect(replay.locator("#coach-review [data-coach='total']")).to_have_text("50,0")
        expect(replay.locator("#replay-log li[data-step='2'] .coach-badge")).to_have_text("\u221250,0")
        replay.locator("#replay-log li[data-step='2']").click()
        expect(replay.locator("#replay-coach")).to_have_text(
            "Coach, bei 1 1 1 5 2 3: ann wählte „1 1 1 rauslegen und 1.000 aufschreiben“. "
            "Experte: 1 1 1 5 rauslegen und 1.050 aufschreiben (\u221250,0 erwartete Punkte)."
        )
        expect(replay.locator("#coach-review .coach-worst")).to_contain_text(
            "Zug 1, Wurf 1: 1 1 1 rauslegen und 1.000 aufschreiben. Experte: 1 1 1 5 rauslegen"
        )
        no_english(replay, "the replay")
        snap(replay, f"review-{device}-{scheme}")
        stats = open_as(ann, options, scheme)
        stats.goto("/players/ann/stats/?kind=farkle&goal=3000")
        expect(stats.locator("#coach-accuracy svg .dot")).to_have_count(1)
        stats.locator("#coach-accuracy details summary").click()
        expect(stats.locator("#accuracy-table tbody tr")).to_have_count(1)
        stats.wait_for_function("document.getElementById('histogram-chart').clientHeight > 100")
        stats.wait_for_timeout(1200)  # Chart.js grows its charts in
        no_english(stats, "the statistics")
        snap(stats, f"accuracy-{device}-{scheme}")
