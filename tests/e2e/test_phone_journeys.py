"""Phone journeys: a whole turn of each game on a 390x844 touch phone, by tapping only.

Every tap is a touch (locator.tap: no mouse click, no key). When a box is tapped the first time the
page shows what it would score and where it lands, and the dice, the roll button and that box must all
be on screen together, uncovered: the bar of dice and buttons sticks to the bottom of the window while
the card scrolls above it. A second tap, or the Score button, scores. The same holds at 1280x800 with
Triple Yahtzee 99's lowest box, under a bar stuck to the top of the window.

Screenshots of each game in play (a box tapped) at both sizes go to artifacts/screenshots/phone/.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from games.rules import painted_dicez as pd
from games.rules import triple_quintzee as tq
from games.rules import triple_yahtzee_99 as ty
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import cell, die, score_box, score_of
from tests.e2e import ui
from tests.e2e.axe import check_axe

PHONE = {"width": 390, "height": 844, "touch": True}
PHONE_SHOTS = SHOTS / "phone"

# True when the element lies wholly inside the window and is what a finger would touch at its centre
# (not hidden under the sticky bar or anything else).
ON_SCREEN = """el => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.top < 0 || r.left < 0) return false;
  if (r.bottom > innerHeight || r.right > innerWidth) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return el === hit || el.contains(hit);
}"""


def on_screen(target: Locator) -> bool:
    return target.evaluate(ON_SCREEN)


def assert_together(page: Page, *targets: Locator) -> None:
    """Every die, the roll button and the targets are on screen at once, none of them covered."""
    dice = page.locator("#g-dice .g-die")
    everything = [dice.nth(i) for i in range(dice.count())] + [page.locator("#roll-button"), *targets]
    off = [t for t in everything if not on_screen(t)]
    assert not off, f"not on screen together: {off}"


def swipe_to(target: Locator) -> Locator:
    """The player scrolls the card until the box is mid-window (Playwright's touchscreen only taps, so
    the swipe is a scrollIntoView); without it, a tap scrolls just enough to reach the box's centre."""
    target.evaluate("e => e.scrollIntoView({block: 'center'})")
    return target


def every_box_reachable(page: Page, boxes, columns) -> None:
    """Scrolled to any box of the card, the player still has the dice and the roll button in sight."""
    for column in columns:
        for box in boxes:
            assert_together(page, swipe_to(cell(page, box, column)))


def no_sideways_scroll(page: Page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"


def shot(page: Page, name: str) -> None:
    """The window as the player sees it (not the full page: the bar sticks to the window), checked by
    axe first."""
    check_axe(page, f"the phone page shown in {name}")
    PHONE_SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(PHONE_SHOTS / f"{name}.png"))


def solo_table(visit, kind: str, who: str, **size) -> Page:
    page = visit(who, **size)
    ui.sign_up(page, who)
    page.goto("/games/")
    ui.fill_lobby(page, kind, seats=1)
    expect(page.locator("#g-turn")).to_have_text("Your turn")
    expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")
    return page


def tap_roll(page: Page, used: int) -> None:
    page.locator("#roll-button").tap()
    expect(page.locator("#roll-count")).to_have_text(f"{used} of 3 rolls used")


def quiet_zeros(page: Page) -> None:
    """Boxes that would score nothing show nothing (no italic 0 in every empty box)."""
    zeros = page.locator("#g-board td.preview.zero .cell-value")
    assert zeros.count() > 0
    hidden = zeros.evaluate_all("els => els.filter(e => getComputedStyle(e).visibility === 'hidden').length")
    assert hidden == zeros.count()


def test_triple_quintzee_turn_by_tapping(visit, dice, snap):
    page = solo_table(visit, "Triple Quintzee", "tina", **PHONE)
    dice([2, 3, 4, 5, 5], [6])
    tap_roll(page, 1)
    for n in (1, 2, 3, 4):
        die(page, n).tap()
    expect(die(page, 4)).to_have_attribute("aria-pressed", "true")
    tap_roll(page, 2)
    expect(die(page, 5)).to_have_attribute("aria-label", "Die 5: six")
    quiet_zeros(page)
    every_box_reachable(page, tq.BOXES, (1, 2, 3))

    # Large Straight, column 1: the right-most rule puts the 40 in column 3, worth 40 x 3.
    box = swipe_to(cell(page, "large_straight", 1))
    expect(box).to_have_attribute(
        "aria-label", "Large Straight, column 1, empty, would score 40 \u00d7 3 = 120 in column 3"
    )
    box.tap()
    expect(box).to_have_class(re.compile(r"\bselected\b"))
    expect(cell(page, "large_straight", 3)).to_have_class(re.compile(r"\blands-here\b"))
    expect(page.locator("#g-hint")).to_contain_text("scores 40 in column 3 (right-most rule) \u00d7 3 = 120")
    expect(page.locator("#g-hint")).to_contain_text("Tap it again or press Score")
    expect(page.locator("#score-button")).to_have_text("Score 120")
    expect(score_of(page, "tina")).to_have_text("0")  # one tap scores nothing yet
    assert_together(page, box, page.locator("#score-button"))
    no_sideways_scroll(page)
    check_axe(page, "Triple Quintzee, a box tapped once, phone")
    snap(page, "box-tapped")
    shot(page, "triple-quintzee-390")

    box.tap()
    expect(cell(page, "large_straight", 3)).to_have_text("40")
    expect(score_of(page, "tina")).to_have_text("120")
    expect(page.locator("#score-button")).to_have_count(0)

    # The phone header's menu, opened over the game.
    expect(ui.main_nav(page).get_by_role("link", name="Play")).to_be_visible()
    check_axe(page, "Triple Quintzee, the menu open, phone")


def test_triple_yahtzee_99_lowest_box_by_tapping(visit, dice, snap):
    page = solo_table(visit, "Triple Yahtzee 99", "tess", **PHONE)
    dice([6, 6, 6, 5, 4])
    tap_roll(page, 1)
    # Straight after the roll, before any scrolling: the bar is at the foot of the window.
    assert_together(page)
    shot(page, "triple-yahtzee-99-390-rolled")
    expect(page.locator("#g-board table")).to_have_class(re.compile(r"\bcols-3\b"))
    no_sideways_scroll(page)
    # The card fits the phone: nothing of it is scrolled or cut off sideways.
    fits = "e => e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().right <= innerWidth"
    for width in (360, 390):
        page.set_viewport_size({"width": width, "height": 844})
        assert page.locator("#g-board .card-scroll").evaluate(fits), f"the card is cut at {width} px"

    # A box that would score 0 shows it only once tapped, and scoring it takes the same two taps.
    ones = cell(page, "ones", 1)
    ones.tap()
    expect(ones.locator(".cell-value")).to_be_visible()
    expect(ones).to_have_text("0")
    expect(page.locator("#score-button")).to_have_text("Score 0")
    page.locator("#score-cancel").tap()
    expect(page.locator("#score-button")).to_have_count(0)
    expect(ones.locator(".cell-value")).to_be_hidden()

    every_box_reachable(page, ty.BOXES, (1, 2, 3))

    # 2nd Chance, the lowest scoring box, column 3 (x3): 27 x 3.
    box = swipe_to(cell(page, "second_chance", 3))
    box.tap()
    expect(page.locator("#g-hint")).to_contain_text("2nd Chance, column 3: scores 27 \u00d7 3 = 81")
    expect(page.locator("#score-button")).to_have_text("Score 81")
    assert_together(page, box, page.locator("#score-button"))
    check_axe(page, "Triple Yahtzee 99, the lowest box tapped once, phone")
    snap(page, "lowest-box-tapped")
    shot(page, "triple-yahtzee-99-390")

    page.locator("#score-button").tap()
    expect(box).to_have_text("27")
    expect(score_of(page, "tess")).to_have_text("81")


def test_painted_dicez_colour_box_by_tapping(visit, dice, snap):
    page = solo_table(visit, "Painted DiceZ", "pia", **PHONE)
    dice([[6, "red"], [6, "red"], [4, "red"], [3, "red"], [1, "green"]])
    tap_roll(page, 1)
    quiet_zeros(page)
    every_box_reachable(page, pd.BOXES, (0,))
    box = swipe_to(cell(page, "reds", 0))
    expect(box).to_have_attribute("aria-label", "Reds, empty, would score 19")
    box.tap()
    expect(page.locator("#g-hint")).to_contain_text("Reds: scores 19. Tap it again")
    assert_together(page, box, page.locator("#score-button"))
    no_sideways_scroll(page)
    check_axe(page, "Painted DiceZ, a colour box tapped once, phone")
    snap(page, "colour-box-tapped")
    shot(page, "painted-dicez-390")

    box.tap()
    expect(box).to_have_text("19")
    expect(score_of(page, "pia")).to_have_text("19")


def test_farkle_turn_by_tapping_to_the_bank(visit, dice, snap):
    page = solo_table(visit, "Farkle (10000)", "finn", **PHONE)
    dice([1, 5, 5, 5, 2, 3])
    page.locator("#roll-button").tap()
    expect(die(page, 6)).to_have_attribute("aria-label", "Die 6: three")
    for n in (1, 2, 3, 4):
        die(page, n).tap()
    expect(page.locator("#selection-value")).to_have_text("Selected: 600")
    bank = page.locator("#bank-button")
    expect(bank).to_have_text("Bank 600")
    assert_together(page, bank)
    no_sideways_scroll(page)
    check_axe(page, "Farkle, dice set aside, ready to bank, phone")
    snap(page, "ready-to-bank")
    shot(page, "farkle-390")

    bank.tap()
    expect(score_of(page, "finn")).to_have_text("600")
    expect(page.locator("#g-log")).to_contain_text("banked 600")


def test_triple_yahtzee_99_dice_and_lowest_box_together_on_a_laptop(visit, dice, snap):
    page = solo_table(visit, "Triple Yahtzee 99", "lara", width=1280, height=800)
    dice([6, 6, 6, 5, 4])
    page.locator("#roll-button").click()
    expect(page.locator("#roll-count")).to_have_text("1 of 3 rolls used")
    every_box_reachable(page, ty.BOXES, (1,))
    box = swipe_to(cell(page, "second_chance", 3))
    box.hover()
    expect(page.locator("#g-hint")).to_contain_text("2nd Chance, column 3: scores 27 \u00d7 3 = 81")
    assert_together(page, box)
    snap(page, "lowest-box-pointed")
    shot(page, "triple-yahtzee-99-1280")
    # A click after the hover's preview marks the box; the Score button scores it.
    box.click()
    page.locator("#score-button").click()
    expect(score_of(page, "lara")).to_have_text("81")


LAPTOP_TURNS = {
    # kind: (dice of the roll, the box tapped (box, column) or None for Farkle's dice, its Score label)
    "Triple Quintzee": ([3, 3, 3, 2, 2], ("full_house", 2), "Score 75"),
    "Painted DiceZ": (
        [[5, "blue"], [5, "blue"], [2, "red"], [6, "blue"], [1, "pink"]],
        ("blues", 0),
        "Score 16",
    ),
    "Farkle (10000)": ([1, 1, 1, 5, 2, 3], None, "Bank 1050"),
}


@pytest.mark.parametrize("kind", LAPTOP_TURNS)
def test_a_touch_laptop_at_1280_taps_the_same_way(visit, dice, kind):
    """A touch screen at 1280x800: the first tap previews, the Score (or Bank) button is beside the dice."""
    page = solo_table(visit, kind, "tom", width=1280, height=800, touch=True)
    roll, box, label = LAPTOP_TURNS[kind]
    dice(roll)
    page.locator("#roll-button").tap()
    expect(die(page, 1)).to_have_attribute("aria-label", re.compile(r"^Die 1: \w+"))
    if box is None:
        for n in (1, 2, 3, 4):
            die(page, n).tap()
        button = page.locator("#bank-button")
    else:
        target = swipe_to(cell(page, *box))
        target.tap()
        expect(target).to_have_class(re.compile(r"\bselected\b"))
        button = page.locator("#score-button")
        assert_together(page, target)
    expect(button).to_have_text(label)
    assert_together(page, button)
    shot(page, f"{kind.split(' (')[0].lower().replace(' ', '-')}-1280")
    button.tap()
    expect(score_of(page, "tom")).to_have_text(label.split()[-1])


def test_your_card_stays_in_sight_and_refusals_go_away(visit, dice, snap):
    """ann on a laptop, bob on his phone. After scoring, ann's card stays on show until bob's first
    roll; at 1280 px bob's card sits beside it (and hers beside his once he plays). A refused move's
    message goes with the next move, or by itself after a few seconds."""
    ann, bob = visit("ann", width=1280, height=800), visit("bob", **PHONE)
    ui.sign_up(ann, "ann")
    ui.sign_up(bob, "bob")
    ui.new_game(ann, "Triple Quintzee", seats=2)
    ui.join_from_link(bob, ui.invite_link(ann))
    ui.start(ann, bob, seats=2)
    dice([2, 3, 4, 5, 6], [6, 6, 6, 6, 1], [1, 1, 1, 1, 2], [3, 3, 3, 2, 2], [4, 4, 5, 5, 6])

    ann.locator("#roll-button").click()
    expect(ann.locator("#roll-count")).to_have_text("1 of 3 rolls used")
    score_box(ann, "large_straight", 1)  # a click marks the box, the Score button scores it
    expect(score_of(bob, "ann")).to_have_text("120")

    # Her own card, with the box she filled, until bob rolls; his card beside it.
    expect(ann.locator("#g-board button[data-player='ann']")).to_have_attribute("aria-pressed", "true")
    expect(cell(ann, "large_straight", 3)).to_have_text("40")
    beside = ann.locator("#g-beside section[data-player='bob']")
    expect(beside).to_be_visible()
    expect(beside.locator("td[data-box='chance'][data-col='1']")).to_be_visible()
    # bob's phone has no room: his own card alone, the others one tap away.
    expect(bob.locator("#g-beside")).to_be_hidden()
    expect(bob.locator("#g-board button[data-player='bob']")).to_have_text(re.compile(r"^Your card"))
    shot(bob, "triple-quintzee-390-two-players")

    ann.keyboard.press("Space")
    expect(ann.get_by_role("alert")).to_have_text("It is not your turn.")
    bob.locator("#roll-button").tap()
    expect(ann.get_by_role("alert")).to_have_text("")
    expect(ann.locator("#g-board button[data-player='bob']")).to_have_attribute("aria-pressed", "true")
    mine = ann.locator("#g-beside section[data-player='ann']")
    expect(mine).to_contain_text("Your card")
    expect(mine.locator("td[data-box='large_straight'][data-col='3']")).to_have_text("40")
    snap(ann, "bob-to-play-ann-card-beside")

    # bob changes his mind: the second box tapped is the one the Score button scores.
    cell(bob, "four_of_a_kind", 1).tap()
    expect(bob.locator("#score-button")).to_have_text("Score 25")
    cell(bob, "chance", 2).tap()
    expect(cell(bob, "four_of_a_kind", 1)).not_to_have_class(re.compile(r"\bselected\b"))
    expect(bob.locator("#score-button")).to_have_text("Score 50")
    bob.locator("#score-button").tap()
    expect(score_of(ann, "bob")).to_have_text("50")
    expect(cell(bob, "chance", 2)).to_have_text("25")

    # With nothing happening, a refusal still goes after a few seconds.
    bob.locator("#g-board button[data-player='ann']").tap()
    expect(ann.locator("#g-turn")).to_contain_text("Your turn")
    bob_alert = bob.get_by_role("alert")
    ann.locator("#roll-button").click()
    expect(ann.locator("#roll-count")).to_have_text("1 of 3 rolls used")
    for used in (2, 3):
        ann.keyboard.press("Space")
        expect(ann.locator("#roll-count")).to_have_text(f"{used} of 3 rolls used")
    ann.keyboard.press("Space")
    expect(ann.get_by_role("alert")).not_to_have_text("")
    expect(ann.get_by_role("alert")).to_have_text("", timeout=10_000)
    expect(bob_alert).to_have_text("")
