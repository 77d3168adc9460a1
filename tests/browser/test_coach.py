"""The coach in a real browser: a solo Farkle game to 3000 with the Hint button pressed along the way,
its replay before and after the worker's review, and the accuracy chart; at 1280x800 and as a 390x844
touch phone, light and dark, under artifacts/screenshots/coach/."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.browser.fixtures import ROOT, SHOTS
from tests.browser.helpers import die, off_loop, wait_for_disconnects
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - a fixture
from tests.factories import GameFactory

COACH_SHOTS = SHOTS / "coach"
DEVICES = {"desktop": DESKTOP, "phone": PHONE}


def snap(page: Page, name: str) -> None:
    COACH_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(COACH_SHOTS / f"{name}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name} scrolls sideways by {overflow} px"


def hint(page: Page, text: str) -> None:
    page.click("#hint-button")
    expect(page.locator("#hint-text")).to_have_text(text)


def solo_farkle(user) -> Game:
    return off_loop(GameFactory, creator=user, options={"goal": 3000, "dice": 6})


def run_worker(env: dict) -> None:
    """The site's worker, once over what is due (it handles signals: a process of its own)."""
    cmd = [sys.executable, "manage.py", "worker", "--batch", "--verbosity", "0"]
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, timeout=120)


def test_a_solo_game_with_hints_then_its_review(ann, open_as, dice, server_env):  # noqa: F811 - the fixture
    game = solo_farkle(ann)
    dice([1, 1, 1, 5, 2, 3], [2, 2, 3, 4, 6, 6], [1, 1, 1, 1, 1, 2])
    page = open_as(ann, DESKTOP)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#roll-button")).to_be_enabled()
    hint(page, re.compile(r"^Expert: roll the dice: nothing to choose yet \(757\.0 points expected"))
    page.click("#roll-button")
    expect(die(page, 6)).to_have_attribute("aria-label", "Die 6: three")
    expect(page.locator("#hint-text")).to_have_text("")  # the old hint went with its state
    hint(page, "Expert: set aside 1 1 1 5 and bank 1050 (1050.0 points expected)")
    snap(page, "hint-bank-1050-1280-light")
    for n in (1, 2, 3):  # the player banks 1000, leaving the 5
        die(page, n).click()
    page.click("#bank-button")
    expect(page.locator("#roll-button")).to_have_text("Roll 6 dice")
    page.click("#roll-button")  # a Farkle
    expect(page.locator("#g-moment.farkle")).to_contain_text("Farkle!")
    page.click("#roll-button")
    expect(die(page, 6)).to_have_attribute("aria-label", "Die 6: two")
    for n in (1, 2, 3, 4, 5):
        die(page, n).click()
    page.click("#bank-button")
    expect(page.locator("#g-end")).to_be_visible()
    expect(page.locator("#hint-button")).to_be_disabled()

    page.goto(f"/games/{game.pk}/replay/")
    expect(page.locator("#coach-pending")).to_contain_text("being prepared")
    snap(page, "replay-pending-1280-light")
    run_worker(server_env)  # the worker, down until now, reviews the game
    page.reload()
    expect(page.locator("#coach-review [data-coach='accuracy']")).to_have_text(re.compile(r"^\d+\.\d%$"))
    expect(page.locator("#coach-review [data-coach='total']")).to_have_text("50.0")
    badge = page.locator("#replay-log li[data-step='2'] .coach-badge")
    expect(badge).to_have_text("\u221250.0")  # a minus sign
    expect(page.locator("#replay-log li[data-step='5'] .coach-badge")).to_have_text("✓")
    page.locator("#replay-log li[data-step='2']").click()
    expect(page.locator("#replay-coach")).to_have_text(
        "Coach, on 1 1 1 5 2 3: ann chose to set aside 1 1 1 and bank 1000. "
        "Expert: set aside 1 1 1 5 and bank 1050 (\u221250.0 expected points)."
    )
    page.locator("#replay-log li[data-step='3']").click()
    expect(page.locator("#replay-coach")).to_have_text("Coach: no decision at this step.")
    # The costliest decision as the player counts it: their first turn, after its first roll.
    worst = page.locator("#coach-review .coach-worst li")
    expect(worst).to_have_text(
        "Turn 1, roll 1: set aside 1 1 1 and bank 1000. Expert: set aside 1 1 1 5 and bank 1050"
        " (\u221250.0 expected points)"
    )
    expect(page.locator("#coach-review")).to_contain_text("It is not taken from anyone's score")
    page.locator("#coach-review button[data-goto-step='2']").click()
    expect(page.locator("#replay-position")).to_have_text("Step 2 of 5")
    wait_for_disconnects()

    for scheme in ("light", "dark"):
        for device, options in DEVICES.items():
            replay = open_as(ann, options, scheme)
            replay.goto(f"/games/{game.pk}/replay/")
            replay.locator("#replay-log li[data-step='2']").click()
            expect(replay.locator("#replay-coach")).to_contain_text("(\u221250.0 expected points)")
            snap(replay, f"replay-review-{device}-{scheme}")
            stats = open_as(ann, options, scheme)
            stats.goto("/players/ann/stats/?kind=farkle&goal=3000")
            expect(stats.locator("#coach-accuracy svg .dot")).to_have_count(1)
            stats.locator("#coach-accuracy details summary").click()
            expect(stats.locator("#accuracy-table tbody tr")).to_have_count(1)
            # Chart.js grows its charts in: the picture waits for them.
            stats.wait_for_function("document.getElementById('histogram-chart').clientHeight > 100")
            stats.wait_for_timeout(1200)
            snap(stats, f"stats-accuracy-{device}-{scheme}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_hint_on_a_phone(ann, open_as, dice, scheme):  # noqa: F811 - the fixture
    game = solo_farkle(ann)
    dice([5, 5, 5, 2, 3, 4])
    page = open_as(ann, PHONE, scheme)
    page.goto(f"/games/{game.pk}/")
    page.locator("#roll-button").tap()
    expect(die(page, 1)).to_have_attribute("aria-label", "Die 1: five")
    page.locator("#hint-button").tap()
    expect(page.locator("#hint-text")).to_have_text(
        "Expert: set aside 5 5 5 and bank 500 (500.0 points expected)"
    )
    snap(page, f"hint-phone-{scheme}")
    desktop = open_as(ann, DESKTOP, scheme)
    desktop.goto(f"/games/{game.pk}/")
    desktop.click("#hint-button")
    expect(desktop.locator("#hint-text")).to_contain_text("Expert: set aside 5 5 5")
    snap(desktop, f"hint-1280-{scheme}")
    wait_for_disconnects()


def test_a_final_round_decision_reviewed_by_the_chance_of_winning(
    ann,
    bob,
    open_as,  # noqa: F811 - the fixture
    server_env,
    scripted_dice,
):
    """Farkle to 3000: ann banks the goal, bob banks 600 in the final round, where only 3000 wins. The
    review weighs that bank by the chance of winning it gave away, and says so."""
    from tests.coach.test_review import final_round_game

    game = off_loop(lambda: final_round_game(ann, bob, scripted_dice))
    run_worker(server_env)
    for scheme in ("light", "dark"):
        for device, options in DEVICES.items():
            page = open_as(bob, options, scheme)
            page.goto(f"/games/{game.pk}/replay/")
            worst = page.locator("#coach-review .coach-seat[data-player='bob'] .coach-worst li")
            expect(worst).to_contain_text(
                re.compile(r"bank 600\. Expert: .*\(\u2212\d+\.\d percentage points of winning chance\)")
            )
            expect(page.locator("#coach-review")).to_contain_text("counts instead by the chance of winning")
            page.locator("#replay-log li[data-step='4']").click()
            expect(page.locator("#replay-coach")).to_have_text(
                re.compile(
                    r"^Coach, on [1-6 ]+: bob chose to set aside 1 5 5 5 and bank 600\. .*winning chance\)\.$"
                )
            )
            badge = page.locator("#replay-log li[data-step='4'] .coach-badge")
            expect(badge).to_have_attribute(
                "title", re.compile("percentage points of winning chance given away")
            )
            snap(page, f"replay-win-measure-{device}-{scheme}")
    wait_for_disconnects()
