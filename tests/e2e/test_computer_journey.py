"""Journeys: playing against the computer. A visitor signs up from the home page's "Play against the
computer", plays Farkle against the expert at 1280x800, and sees each of its rolls arrive at a person's
pace, played by the site's worker (`manage.py worker`, a real process); the worker is killed in the
middle of the game: the page says why the computer waits, and play resumes by itself once a worker
starts again. Another visitor plays Triple Quintzee against the easy computer on a 390x844 touch phone.

The person's dice come from the test's script (the `dice` fixture, read by the server); the computer's
from the worker's real dice. Screenshots in the light and dark theme go to
artifacts/screenshots/computers/."""

from __future__ import annotations

import re
import signal

import pytest
from playwright.sync_api import Page, expect

from tests.browser.fixtures import SHOTS
from tests.browser.helpers import cell, die
from tests.e2e import ui
from tests.e2e.axe import check_axe
from tests.e2e.test_turn_mail_journey import Worker

SHOTS_DIR = SHOTS / "computers"
NOTICE = "The computer players are waiting for the background worker, which is not running."
# A computer's whole turn, at about a second per action and a busy machine.
COMPUTER_TURN_MS = 90_000


def shot(page: Page, name: str, *, dark: bool = True) -> None:
    """The window as the player sees it, in the light theme and then the dark one, each checked by axe."""
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.emulate_media(color_scheme="light")
    check_axe(page, f"{name}, light")
    page.screenshot(path=str(SHOTS_DIR / f"{name}-light.png"))
    if dark:
        page.emulate_media(color_scheme="dark")
        check_axe(page, f"{name}, dark")
        page.screenshot(path=str(SHOTS_DIR / f"{name}-dark.png"))
        page.emulate_media(color_scheme="light")


@pytest.fixture
def worker(server_env):
    """The site's worker, with production's fair dice for the computers."""
    process = Worker({**server_env, "DICE_SOURCE": "fair"})
    process.start()
    yield process
    process.stop()


def sign_up_to_play_the_computer(page: Page, username: str) -> None:
    """From the home page, signed out: "Play against the computer", the sign-up form, the lobby."""
    page.goto("/")
    page.get_by_role("link", name="Play against the computer").click()
    expect(page.get_by_role("heading", name="Create your account")).to_be_visible()
    page.get_by_label("Username:", exact=True).fill(username)
    page.get_by_label("Password:", exact=True).fill(ui.PASSWORD)
    page.get_by_label("Password confirmation:", exact=True).fill(ui.PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Play now against the computer")).to_be_visible()


def play_now(page: Page, game: str, strength: str) -> None:
    page.get_by_label("What to play", exact=True).select_option(label=game)
    page.get_by_label("Strength of the computer", exact=True).select_option(label=strength)
    page.get_by_role("button", name="Play now").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")


def players_panel(page: Page, computer: str, strength: str) -> None:
    row = page.locator(f"#g-players li[data-player='{computer}']")
    expect(row.locator(".tag.computer")).to_have_text(f"computer · {strength}")
    expect(row.locator(".dot")).to_have_attribute("title", "computer player")


def wait_for_my_turn(page: Page) -> None:
    expect(page.locator("#g-turn")).to_have_text("Your turn", timeout=COMPUTER_TURN_MS)


def bank_three_ones(page: Page, dice) -> None:
    """A Farkle turn: six dice, three ones set aside, 1000 banked."""
    wait_for_my_turn(page)
    dice([1, 1, 1, 2, 3, 4])
    page.get_by_role("button", name="Roll 6 dice").click()
    for n in (1, 2, 3):
        die(page, n).click()
    page.get_by_role("button", name="Bank 1000").click()
    # The computer's turn: its first action waits about a second after the bank, so the page shows it.
    expect(page.locator("#g-turn")).to_have_text(re.compile(r"^computer-\w+-1's turn"))


def assert_each_action_its_own_line(page: Page, computer: str) -> None:
    """The computer's turn reached the log one action per line: a first roll, then what came of it
    on lines of their own, the last ending the turn (a bank, or a Farkle). The computer's dice are
    real, so a Farkle on its first roll (about 2.3 % of turns) is a turn of one action and one line."""
    lines = page.locator("#g-log li", has_text=computer).all_inner_texts()
    assert lines, "the computer's turn left no line in the log"
    assert f"{computer} rolled" in lines[0]
    assert "banked" in lines[-1] or "Farkle!" in lines[-1], lines
    if len(lines) == 1:
        assert "Farkle!" in lines[0], lines  # a bank always takes a line after the roll
    assert all(line.count(f"{computer} rolled") <= 1 for line in lines), lines


def test_a_visitor_plays_farkle_against_the_expert_computer(visit, dice, worker):
    ann = visit("ann", width=1280, height=800)
    sign_up_to_play_the_computer(ann, "ann")
    check_axe(ann, "lobby, play now against the computer")
    shot(ann, "farkle-1280-lobby")
    play_now(ann, "Farkle (10000)", "Expert")
    computer = "computer-expert-1"
    expect(ann.locator("#g-turn")).to_have_text("Your turn")
    players_panel(ann, computer, "expert")

    # ann banks; the computer's turn follows on her screen, one roll at a time.
    bank_three_ones(ann, dice)
    expect(ann.locator("#g-turn")).to_have_text(f"{computer}'s turn")
    expect(ann.locator("#g-log")).to_contain_text(f"{computer} rolled", timeout=COMPUTER_TURN_MS)
    check_axe(ann, "Farkle, the computer's turn")
    shot(ann, "farkle-1280-computer-rolls")
    wait_for_my_turn(ann)
    assert_each_action_its_own_line(ann, computer)
    bank_three_ones(ann, dice)
    wait_for_my_turn(ann)

    # The worker is killed while ann plays: the computer's turn waits, and the page says why.
    worker.stop(signal.SIGKILL)
    bank_three_ones(ann, dice)
    expect(ann.locator("#g-worker")).to_have_text(NOTICE, timeout=30_000)
    expect(ann.locator("#g-turn")).to_have_text(f"{computer}'s turn")
    check_axe(ann, "Farkle, waiting for the worker")
    shot(ann, "farkle-1280-worker-down")
    seq = ann.locator("#game-root").get_attribute("data-seq")

    # A worker starts again: the computer plays on by itself and the notice goes.
    worker.start()
    expect(ann.locator("#game-root")).not_to_have_attribute("data-seq", seq, timeout=30_000)
    expect(ann.locator("#g-worker")).to_be_hidden()
    wait_for_my_turn(ann)
    bank_three_ones(ann, dice)
    wait_for_my_turn(ann)
    shot(ann, "farkle-1280-several-turns")

    # ann resigns: the game is over and kept, with the computer in its replay.
    ann.get_by_role("button", name="Resign").click()
    ann.get_by_role("button", name="Yes, resign").click()
    expect(ann.locator("#replay-link")).to_be_visible()
    ann.locator("#replay-link").click()
    expect(ann.locator("main")).to_contain_text("computer · expert")
    check_axe(ann, "replay of a game against the computer")
    shot(ann, "farkle-1280-replay")


PHONE = {"width": 390, "height": 844, "touch": True}


def tap_turn(page: Page, dice, roll: list[int], box: str) -> None:
    """A card-game turn by tapping: the roll, then the box in column 1 tapped twice."""
    wait_for_my_turn(page)
    dice(roll)
    page.locator("#roll-button").tap()
    expect(page.locator("#roll-count")).to_have_text("1 of 3 rolls used")
    target = cell(page, box, 1)
    target.evaluate("e => e.scrollIntoView({block: 'center'})")
    target.tap()
    target.tap()
    expect(target).not_to_have_text("")


def test_a_visitor_plays_a_card_game_against_the_easy_computer_on_a_phone(visit, dice, worker):
    bea = visit("bea", **PHONE)
    sign_up_to_play_the_computer(bea, "bea")
    shot(bea, "quintzee-390-lobby", dark=False)
    play_now(bea, "Triple Quintzee", "Easy")
    computer = "computer-easy-1"
    players_panel(bea, computer, "easy")
    check_axe(bea, "Triple Quintzee against the computer, phone")
    for roll, box in (([1, 1, 1, 2, 3], "ones"), ([2, 2, 2, 3, 4], "twos"), ([3, 3, 3, 1, 2], "threes")):
        tap_turn(bea, dice, roll, box)
        # The computer's roll and score arrive on the phone as they are played.
        expect(bea.locator("#g-turn")).to_have_text(f"{computer}'s turn")
        if box == "ones":
            expect(bea.locator("#g-log")).to_contain_text(f"{computer} rolled", timeout=COMPUTER_TURN_MS)
            shot(bea, "quintzee-390-computer-rolls")
        wait_for_my_turn(bea)
    log = bea.locator("#g-log li", has_text=computer)
    assert log.count() >= 6  # three turns of the computer: each a roll and a score at least
    bea.locator("#g-log").evaluate("e => e.scrollIntoView({block: 'center'})")
    shot(bea, "quintzee-390-three-turns")


def test_the_host_seats_computers_in_the_waiting_room_beside_a_friend(visit, dice, worker):
    ann, bob = visit("ann", width=1280, height=800), visit("bob", **PHONE)
    ui.sign_up(ann, "ann")
    ui.sign_up(bob, "bob")
    ui.new_game(ann, "Triple Quintzee", 4)
    ui.join_from_link(bob, ui.invite_link(ann))
    ann.reload()
    seats = ann.locator("#seat-list li")
    expect(seats).to_have_text(["ann host", "bob"])
    for strength in ("Expert", "Easy"):
        ann.get_by_label("Add a computer player", exact=True).select_option(label=strength)
        ann.get_by_role("button", name="Add", exact=True).click()
    expert, easy = "computer-expert-1 computer · expert", "computer-easy-1 computer · easy"
    expect(seats).to_have_text(["ann host", "bob", f"{expert} remove", f"{easy} remove"])
    # The table is full: no more computers to add. bob's page follows live, without the host's buttons.
    expect(ann.locator("#add-computer")).to_be_hidden()
    expect(bob.locator("#seat-list li")).to_have_text(["ann host", "bob", expert, easy])
    check_axe(ann, "waiting room with computers, host")
    shot(ann, "waiting-room-1280")
    shot(bob, "waiting-room-390")
    ann.get_by_role("button", name="Remove computer-expert-1").click()
    expect(seats).to_have_text(["ann host", "bob", f"{easy} remove"])
    expect(bob.locator("#seat-list li")).to_have_count(3)
    expect(ann.locator("#add-computer")).to_be_visible()
    # A table need not be full to start: three of four seats play.
    ann.get_by_role("button", name="Start the game").click()
    for page in (ann, bob):
        expect(page.locator("#g-turn")).to_be_visible()
        expect(page.locator("#waiting-room")).to_have_count(0)

    # ann and bob play their turns; the computer plays its own and both see it.
    dice([2, 2, 2, 3, 4])
    ui.roll_and_score(ann, "twos", 1)
    tap_turn(bob, dice, [1, 1, 1, 2, 3], "ones")
    for page in (ann, bob):
        expect(page.locator("#g-log")).to_contain_text("computer-easy-1 scored", timeout=COMPUTER_TURN_MS)
    expect(ann.locator("#g-turn")).to_have_text("Your turn")
    shot(ann, "three-players-1280")
