"""A game over days says so on its page, and says its waits in days and hours, not in seconds; at
1280x800 and as a phone, in English and German."""

from __future__ import annotations

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, _shot, open_as  # noqa: F401 (the fixture)
from tests.factories import GameFactory

pytestmark = pytest.mark.browser

WORDS = {
    "en": ("Played over days: 1 day per turn", "ann is not connected. You can skip their turn in 1 day."),
    "de": (
        "Über Tage gespielt: 1 Tag pro Zug",
        "ann ist nicht verbunden. Du kannst den Zug in 1 Tag überspringen.",
    ),
}

LATER = {"en": "You can skip their turn in 4 hours.", "de": "Zug in 4 Stunden überspringen."}


def _days_game(ann, bob) -> Game:
    return off_loop(GameFactory, creator=ann, players=[bob], pace=Game.Pace.DAYS, absence_limit=86400)


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("de", "phone")])
def test_a_game_over_days_says_its_pace_and_its_wait_in_words(open_as, make_user, language, device):  # noqa: F811
    ann, bob = make_user("ann"), make_user("bob", language=language)
    game = _days_game(ann, bob)
    started = off_loop(lambda: Game.objects.get(pk=game.pk).turn_started_at)
    for scheme in ("light", "dark"):
        page = open_as(bob, DESKTOP if device == "desktop" else PHONE, scheme)
        # The page's clock held at the turn's start: the wait is the whole day, however slow the load.
        page.clock.set_fixed_time(started)
        page.goto(f"/games/{game.pk}/")
        pace, wait = WORDS[language]
        expect(page.locator("#game-pace")).to_have_text(pace)
        expect(page.locator("#g-actions")).to_contain_text(wait)
        _shot(page, f"pace-days-{language}-{device}-{scheme}")
        page.clock.set_fixed_time(started + timedelta(hours=20, minutes=30))
        expect(page.locator("#g-actions")).to_contain_text(LATER[language])
