"""The replay page while it loads, in a real browser: the board's renderer (static/js/game/replay-view.js)
held back on the way, the page must offer no step and no working control yet, and a step, once on the
screen, must not move when the page finishes. A line that moved under the pointer lost its click and the
page's own last step stayed: the rare failure of the coach's German review test (test_german_coach_ui).
In English and German, at 1280x800 and as a 390x844 touch phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, Route, expect

from games.models import Game
from games.tables import services
from tests.browser.helpers import off_loop
from tests.browser.test_coach import run_worker
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - a fixture
from tests.games.test_services import act

RENDERER = "**/js/game/replay-view.js"

# The turns of the coach's tests (test_coach, test_german_coach_ui): step 2 banks 1000 where the expert
# banks 1050, the only decision that cost anything; step 5, the last, is the expert's choice.
ROLLS = ([1, 1, 1, 5, 2, 3], [2, 2, 3, 4, 6, 6], [1, 1, 1, 1, 1, 2])
ACTIONS = (
    {"type": "roll", "keep": []},
    {"type": "bank", "keep": [0, 1, 2]},
    {"type": "roll", "keep": []},  # a Farkle
    {"type": "roll", "keep": []},
    {"type": "bank", "keep": [0, 1, 2, 3, 4]},
)

WORDS = {
    "en": {
        "position": "Step {} of 5",
        "coach": "Coach, on 1 1 1 5 2 3: ann chose to set aside 1 1 1 and bank 1000. "
        "Expert: set aside 1 1 1 5 and bank 1050 (\u221250.0 expected points).",
    },
    "de": {
        "position": "Schritt {} von 5",
        "coach": "Coach, bei 1 1 1 5 2 3: ann wählte „1 1 1 rauslegen und 1.000 aufschreiben“. "
        "Experte: 1 1 1 5 rauslegen und 1.050 aufschreiben (\u221250,0 erwartete Punkte).",
    },
}

# Where step 2's line stood the moment it was put in the page, before any later work could move it
# (a mutation observer's callback runs once the script that added the line yields).
FIRST_PLACE = """
window.stepTwoFirst = null;
new MutationObserver((_, observer) => {
  const line = document.querySelector("#replay-log li[data-step='2']");
  if (!line) return;
  const box = line.getBoundingClientRect();
  window.stepTwoFirst = { x: box.x + scrollX, y: box.y + scrollY };
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });
"""


@pytest.fixture
def reviewed_game(make_user, settings, dice, dice_script, server_env):
    """reviewed_game(language) -> ann's solo Farkle, played through the services on scripted dice,
    then reviewed by the worker."""
    settings.DICE_SOURCE = "scripted"
    settings.DICE_SCRIPT_PATH = str(dice_script)

    def make(language: str) -> Game:
        ann = make_user("ann", language=language)
        dice(*ROLLS)

        def play() -> Game:
            game = services.game_create(
                creator=ann, kind="farkle", options={"goal": 3000, "dice": 6}, seats=1
            )
            for action in ACTIONS:
                game.refresh_from_db()
                act(game, ann, action)
            game.refresh_from_db()
            return game

        game = off_loop(play)
        assert game.status == Game.Status.FINISHED
        run_worker(server_env)
        return game

    return make


def place(page: Page, selector: str) -> dict:
    return page.evaluate(
        "(selector) => { const box = document.querySelector(selector).getBoundingClientRect();"
        " return { x: box.x + scrollX, y: box.y + scrollY }; }",
        selector,
    )


@pytest.mark.parametrize(
    ("language", "device"), [("en", "1280"), ("en", "phone"), ("de", "1280"), ("de", "phone")]
)
def test_a_step_chosen_as_the_replay_loads_is_the_one_shown(language, device, reviewed_game, open_as):  # noqa: F811
    game = reviewed_game(language)
    words = WORDS[language]
    page = open_as(game.creator, PHONE if device == "phone" else DESKTOP)
    page.add_init_script(FIRST_PLACE)
    held: list[Route] = []
    page.route(RENDERER, lambda route: held.append(route))  # answered below, when the test says
    with page.expect_request(RENDERER):
        page.goto(f"/games/{game.pk}/replay/", wait_until="commit")

    # The renderer is on its way: no step to choose yet, and the controls say they cannot answer.
    expect(page.locator("#replay-log li")).to_have_count(0)
    controls = page.locator(".replay-controls button, #coach-review button[data-goto-step]")
    expect(controls).to_have_count(5)
    for button in controls.all():
        expect(button).to_be_disabled()

    held[0].continue_()
    position = page.locator("#replay-position")
    expect(position).to_have_text(words["position"].format(5))
    for button in controls.all():
        expect(button).to_be_enabled()
    # Step 2 is where it was first put: a press on it as it appeared ends on it.
    first = page.evaluate("window.stepTwoFirst")
    assert first == place(page, "#replay-log li[data-step='2']"), "step 2 moved after it was shown"

    step_two = page.locator("#replay-log li[data-step='2']")
    if device == "phone":
        step_two.tap()
    else:
        step_two.click()
    expect(position).to_have_text(words["position"].format(2))
    expect(page.locator("#replay-coach")).to_have_text(words["coach"])
    expect(page.locator("#replay-log li.current")).to_have_attribute("data-step", "2")

    # The coach's costliest decision leads to its step from anywhere.
    page.locator(".replay-controls button[data-step='last']").click()
    expect(position).to_have_text(words["position"].format(5))
    page.locator("#coach-review button[data-goto-step='2']").click()
    expect(position).to_have_text(words["position"].format(2))
    expect(page.locator("#replay-coach")).to_have_text(words["coach"])
