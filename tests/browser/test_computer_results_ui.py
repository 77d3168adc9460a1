"""Results of games with computer players in a real browser: the statistics page's choice of opponents
and the high-score list's mark, at 1280x800 and on a 390x844 touch phone, light and dark, without an
axe violation or sideways scrolling. Screenshots: artifacts/screenshots/computers/."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.tables import services
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - open_as is a fixture
from tests.computers.worker import run_due_tasks
from tests.e2e.axe import axe_violations
from tests.games.conftest import random_legal_action

SHOTS_DIR = SHOTS / "computers"


def finished_game_against_the_computer(person) -> Game:
    game = services.game_create(creator=person, kind="painted-dicez", seats=2, computers=1, strength="good")
    rng = random.Random(3)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        if game.current_player == person.username:
            action = random_legal_action(game.state, rng)
            services.game_apply_action(game_id=game.pk, user=person, client_id=f"p{game.seq}", action=action)
        else:
            run_due_tasks()


@pytest.mark.parametrize(("device", "size"), [(DESKTOP, "1280"), (PHONE, "390")])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_statistics_and_high_scores_with_computer_players(open_as, make_user, device, size, scheme):  # noqa: F811
    ann = make_user("ann")
    off_loop(finished_game_against_the_computer, ann)
    page = open_as(ann, device, scheme)
    page.goto("/players/ann/stats/?kind=painted-dicez")
    opponents = page.get_by_role("navigation", name="Opponents")
    with_computers = opponents.get_by_role("link", name="With computer players")
    with_computers.click()
    expect(with_computers).to_have_attribute("aria-current", "page")
    expect(page.locator("[data-stat=games]")).to_have_text("1")
    expect(page.locator("[data-stat=computer_games]")).to_have_text("1")
    assert not axe_violations(page)
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DIR / f"stats-{size}-{scheme}.png"), full_page=True)
    opponents.get_by_role("link", name="Among people").click()
    expect(page.locator("main")).to_contain_text("among people yet.")

    # A card game lists every complete card: ann's, marked, and not the computer's.
    page.goto("/highscores/?kind=painted-dicez")
    rows = page.locator("#highscores tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("ann")
    expect(rows.first.locator(".tag.computer")).to_have_text("with computers")
    assert not axe_violations(page)
    page.screenshot(path=str(SHOTS_DIR / f"highscores-{size}-{scheme}.png"), full_page=True)
