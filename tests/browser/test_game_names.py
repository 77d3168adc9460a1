"""A Farkle game is named by its goal, and its goal written the same way, wherever it is shown:
the lobby, the game page, the replay, the history, the notices, the high scores and the
statistics. The goal names the game ("Farkle (3000)"), so it is written in plain digits in every
language, where scores are grouped as their reader groups them (11.050 in German). At 1280x800 and as
a 390x844 touch phone, light and dark, in English and in German."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.tables import services
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, _shot, open_as  # noqa: F401 (the fixture)
from tests.e2e.axe import check_axe

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"options": "Goal 5000 · 6 dice", "goal": "Goal", "started": "ann started Farkle (3000) #{n}."},
    "de": {
        "options": "Ziel 5000 · 6 Würfel",
        "goal": "Ziel",
        "started": "ann hat Farkle (3000) #{n} gestartet.",
    },
}
GROUPED_GOALS = re.compile(r"\b(10|5|3)[.,]000\b")


@pytest.fixture
def dice_here(dice, dice_script, settings):
    """The scripted dice for the services this test calls itself, as for the served site."""
    settings.DICE_SOURCE = "scripted"
    settings.DICE_SCRIPT_PATH = str(dice_script)
    return dice


def _games(ann, bob, dice):
    """A finished game to 3000 (ann banks 10000 in the first lap) and an open table to 5000."""

    def make():
        done = services.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=2)
        services.game_join(game_id=done.pk, user=bob)
        services.game_start(game_id=done.pk, user=ann)
        dice([1, 1, 1, 1, 1, 2], [2, 2, 3, 3, 4, 6])
        for user, n, action in [
            (ann, 1, {"type": "roll"}),
            (ann, 2, {"type": "bank", "keep": [0, 1, 2, 3, 4]}),
            (bob, 3, {"type": "roll"}),
        ]:
            services.game_apply_action(game_id=done.pk, user=user, client_id=f"c{n}", action=action)
        done.refresh_from_db()
        assert done.status == "finished"
        table = services.game_create(creator=bob, kind="farkle", options={"goal": 5000}, seats=2)
        return done, table

    return off_loop(make)


@pytest.mark.parametrize(
    ("language", "device", "scheme"),
    [
        ("en", "desktop", "light"),
        ("de", "phone", "dark"),
        ("de", "desktop", "light"),
        ("en", "phone", "dark"),
    ],
)
def test_a_farkle_game_is_named_by_its_goal_everywhere(
    open_as,  # noqa: F811
    make_user,
    dice_here,
    language,
    device,
    scheme,
):
    words = WORDS[language]
    ann, bob = make_user("ann", language=language), make_user("bob", language=language)
    done, table = _games(ann, bob, dice_here)
    page = open_as(ann, DESKTOP if device == "desktop" else PHONE, scheme)

    def named(path: str, *places: str) -> None:
        """The finished game's name on the page at ``path``: in its title and at each of ``places``."""
        page.goto(path)
        expect(page).to_have_title(re.compile(re.escape("Farkle (3000)")))
        for place in places:
            expect(page.locator(place).first).to_contain_text("Farkle (3000)")

    page.goto("/games/")
    row = page.locator("table.data tr", has_text=f"Farkle ({table.options['goal']})")
    expect(row).to_contain_text(words["options"])
    goals = page.locator("#new-game-form select[name=goal] option")
    expect(goals).to_have_text(["10000", "5000", "3000"])
    _shot(page, f"names-lobby-{language}-{device}-{scheme}")

    named(f"/games/{done.pk}/", "h1")
    head = page.locator(".game-head")
    expect(head).to_contain_text(f"{words['goal']} 3000")
    expect(page.locator(".farkle-info")).to_contain_text(f"{words['goal']} 3000")
    # ann's 10000 points are a score: grouped in German, as every score is.
    expect(page.locator("#g-players li[data-player='ann'] .score")).to_have_text(
        "10.000" if language == "de" else "10000"
    )
    assert not GROUPED_GOALS.search(head.inner_text() + page.locator(".farkle-info").inner_text())
    _shot(page, f"names-game-{language}-{device}-{scheme}")
    check_axe(page, f"a finished Farkle game ({language}, {device}, {scheme})")

    named(f"/games/{done.pk}/replay/", "h1")
    page.goto("/players/ann/history/")
    expect(page.locator("main table")).to_contain_text(f"Farkle (3000) #{done.pk}")
    named("/players/ann/stats/?kind=farkle&goal=3000")
    expect(page.locator("nav.tabs [aria-current=page]").nth(1)).to_have_text(f"{words['goal']} 3000")
    _shot(page, f"names-stats-{language}-{device}-{scheme}")
    named("/highscores/?kind=farkle&goal=3000")
    expect(page.locator("select[name=goal] option:checked")).to_have_text("3000")
    _shot(page, f"names-highscores-{language}-{device}-{scheme}")
    check_axe(page, f"high scores of Farkle (3000) ({language}, {device}, {scheme})")

    other = open_as(bob, DESKTOP, scheme)
    other.goto("/notices/")
    expect(other.locator("main")).to_contain_text(words["started"].format(n=done.pk))
