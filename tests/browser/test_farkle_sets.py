"""Farkle's scoring sets on the game page: the page lists what each set of the roll
is worth before the player picks, and marks a die usable only while it can still join the selection,
both from the engine's preview; at 1280x800 and as a 390x844 touch phone, light and dark, in English
and in German."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.tables import services
from tests.browser.helpers import die, off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, _shot, open_as  # noqa: F401 (the fixture)
from tests.e2e.axe import check_axe
from tests.factories import GameFactory

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "label": "Scoring sets:",
        "straight": "2 3 4 5 6: 500 points",
        "five": "5: 50 points",
        "selected": "Selected: %s",
        "apart": "Those dice do not score together",
        "roll_one": "Set aside, roll 1 die",
    },
    "de": {
        "label": "Wertungen im Wurf:",
        "straight": "2 3 4 5 6: 500 Punkte",
        "five": "5: 50 Punkte",
        "selected": "Gewählt: %s",
        "apart": "Diese Würfel zählen zusammen nicht",
        "roll_one": "Rauslegen, 1 Würfel würfeln",
    },
}


def _solo_farkle(user) -> Game:
    return off_loop(GameFactory, creator=user)


@pytest.mark.parametrize(
    ("language", "device", "scheme"),
    [
        ("en", "desktop", "light"),
        ("en", "phone", "dark"),
        ("de", "phone", "light"),
        ("de", "desktop", "dark"),
    ],
)
def test_the_roll_shows_its_scoring_sets_and_dice_join_only_what_scores(
    open_as,  # noqa: F811
    make_user,
    dice,
    language,
    device,
    scheme,
):
    words = WORDS[language]
    ann = make_user("ann", language=language)
    game = _solo_farkle(ann)
    dice([2, 3, 4, 4, 5, 6])
    page = open_as(ann, DESKTOP if device == "desktop" else PHONE, scheme)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")
    page.locator("#roll-button").click()
    expect(die(page, 6)).to_have_attribute("aria-label", re.compile("6|sechs|six"))

    sets = page.locator("#farkle-sets")
    expect(sets.locator(".sets-label")).to_have_text(words["label"])
    picks = sets.get_by_role("button")
    # Best first: the straight 2-3-4-5-6 (either 4 makes it), then the 5 alone.
    expect(picks).to_have_count(2)
    expect(picks.nth(0)).to_have_accessible_name(words["straight"])
    expect(picks.nth(1)).to_have_accessible_name(words["five"])
    # Every die belongs to a set, so each can be picked first ...
    expect(page.locator("#g-dice button.g-die")).to_have_count(6)
    _shot(page, f"farkle-sets-{language}-{device}-{scheme}")
    check_axe(page, f"Farkle's scoring sets ({language}, {device}, {scheme})")

    # ... but once the straight is picked with the first 4, the second 4 can no longer join it.
    for n in (1, 2, 3, 5, 6):
        die(page, n).click()
    expect(page.locator("#selection-value")).to_have_text(words["selected"] % "500")
    expect(die(page, 4)).to_have_class(re.compile(r"\bdead\b"))
    expect(page.locator("#g-dice button.g-die")).to_have_count(5)
    die(page, 4).click(force=True)
    expect(page.locator("#selection-value")).to_have_text(words["selected"] % "500")
    expect(page.locator("#roll-button")).to_have_text(words["roll_one"])
    expect(page.locator("#roll-button")).to_be_enabled()
    expect(picks.nth(0)).to_have_attribute("aria-pressed", "true")
    _shot(page, f"farkle-sets-straight-{language}-{device}-{scheme}")
    check_axe(page, f"Farkle's straight picked ({language}, {device}, {scheme})")

    # A set's button selects exactly its dice; again, none. Part of a set is not yet a scoring one.
    picks.nth(1).click()
    expect(page.locator("#selection-value")).to_have_text(words["selected"] % "50")
    expect(page.locator("#g-dice [aria-pressed='true']")).to_have_count(1)
    expect(die(page, 5)).to_have_attribute("aria-pressed", "true")
    picks.nth(1).click()
    expect(page.locator("#g-dice [aria-pressed='true']")).to_have_count(0)
    die(page, 1).click()
    expect(page.locator("#selection-value")).to_have_text(words["apart"])
    expect(page.locator("#roll-button")).to_be_disabled()


def test_the_sets_show_to_whoever_watches_without_buttons(open_as, make_user, dice):  # noqa: F811
    ann, bob = make_user("ann"), make_user("bob")

    def table() -> Game:
        game = services.game_create(creator=ann, kind="farkle", seats=2)
        services.game_join(game_id=game.pk, user=bob)
        services.game_start(game_id=game.pk, user=ann)
        return game

    game = off_loop(table)
    dice([1, 1, 1, 4, 4, 2])
    pages = [open_as(user, DESKTOP) for user in (ann, bob)]
    for page in pages:
        page.goto(f"/games/{game.pk}/")
        expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")
    pages[0].locator("#roll-button").click()
    watcher = pages[1].locator("#farkle-sets")
    expect(watcher.locator("li")).to_have_count(3)
    expect(watcher.get_by_role("button")).to_have_count(0)
    expect(watcher.locator("li").first).to_contain_text("2000")
    expect(watcher.locator("li .sr-only")).to_have_text(
        ["1 1 1 4 4: 2000 points", "1 1 1: 1000 points", "1: 100 points"]
    )
