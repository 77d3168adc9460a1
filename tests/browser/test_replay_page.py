"""The replay of the longest game there is (four players of Triple Yahtzee 99, every turn rolled three
times) in a real browser: the states the page rebuilds from its patches show the server's scores at
every step looked at, and all four cards fit beside the log without being cut off."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.results import replays
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import ConsoleWatch, off_loop, sign_in
from tests.games.test_replays import longest, play_out
from tests.games.test_services import table

NAMES = ("annabelle", "bartholomew", "cordelia", "dorothea")


@pytest.fixture
def long_game(transactional_db, make_user) -> Game:
    users = [make_user(name) for name in NAMES]
    choose = longest(random.Random(7))
    return off_loop(lambda: play_out(table(*users, kind="triple-yahtzee-99"), users, choose))


def scores_shown(page) -> dict[str, int]:
    items = page.locator("#replay-board .replay-players li")
    return {
        item.get_attribute("data-player"): int(item.locator(".score").inner_text()) for item in items.all()
    }


def cards_clipped(page) -> dict[str, list[float]]:
    """The cards whose table is wider than the card, or that reach past the board or the window:
    player -> [table width, card width, card's right edge, board's right edge]."""
    return page.evaluate(
        """() => {
            const board = document.getElementById("replay-board").getBoundingClientRect();
            const clipped = {};
            for (const card of document.querySelectorAll("#replay-board .replay-card")) {
                const box = card.getBoundingClientRect();
                const table = card.querySelector("table");
                if (table.scrollWidth > card.clientWidth + 1 || box.right > board.right + 1
                    || box.left < board.left - 1 || box.right > document.documentElement.clientWidth) {
                    const { player } = card.dataset;
                    clipped[player] = [table.scrollWidth, card.clientWidth, box.right, board.right];
                }
            }
            return clipped;
        }"""
    )


def test_the_longest_replay_shows_the_servers_scores_and_every_card(long_game, login_as, shot):
    frames = replays.game_replay_frames(long_game)
    steps = len(frames) - 1
    watch = ConsoleWatch()
    page = watch.watch(login_as(long_game.creator), "annabelle")
    page.goto(f"/games/{long_game.pk}/replay/")
    position = page.locator("#replay-position")
    expect(position).to_have_text(f"Step {steps} of {steps}")
    assert scores_shown(page) == frames[-1]["scores"]

    # Steps all over the game, reached with the keys and the log, against the server's own frames.
    page.keyboard.press("Home")
    expect(position).to_have_text(f"Step 0 of {steps}")
    assert scores_shown(page) == frames[0]["scores"]
    for step in (1, 4, 5, 97, 333, steps // 2, steps - 1):
        page.locator(f"#replay-log li[data-step='{step}']").click()
        expect(position).to_have_text(f"Step {step} of {steps}")
        assert scores_shown(page) == frames[step]["scores"], f"step {step}"
        expect(page.locator("#replay-event")).to_have_text(frames[step]["state"]["last_event"]["text"])
    page.keyboard.press("End")
    expect(position).to_have_text(f"Step {steps} of {steps}")
    expect(page.locator("#replay-board .replay-card")).to_have_count(4)

    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"replay-ty99-4-players-{width}")
        assert cards_clipped(page) == {}, f"cards cut off at {width} px"
        overflow = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"the page scrolls sideways at {width} px"
    watch.check()


def test_the_longest_replay_on_a_touch_phone(long_game, browser, server, shot):
    """As a 390 px touch phone sees it (its own context: touch, mobile viewport)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, base_url=server
    )
    try:
        sign_in(context, long_game.creator, server)
        page = context.new_page()
        page.goto(f"/games/{long_game.pk}/replay/")
        expect(page.locator("#replay-board .replay-card")).to_have_count(4)
        assert cards_clipped(page) == {}
        shot(page, "replay-ty99-4-players-phone-touch")
        # The first card as the phone's screen shows it, for a look at its size.
        page.locator("#replay-board .replay-card").first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "replay-ty99-4-players-phone-card.png"))
    finally:
        context.close()
