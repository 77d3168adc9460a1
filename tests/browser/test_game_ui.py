"""The game screens in a real browser: two players per game, keyboard play, reloads and recovery."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.models import Game
from games.tables import services
from tests.browser.helpers import (
    ConsoleWatch,
    cell,
    die,
    off_loop,
    score_box,
    score_of,
    screens,
    wait_for_disconnects,
)
from tests.factories import GameFactory

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def play(login_as):
    """Open game pages as players; fail the test on any page error or console error."""
    watch = ConsoleWatch()
    pages: list[Page] = []

    def open_page(user, game, width: int = 1280, height: int = 900, base: str = "") -> Page:
        page = watch.watch(login_as(user, width, height), user.username)
        pages.append(page)
        page.goto(f"{base}/games/{game.pk}/")
        expect(page.locator("#game-root")).to_have_attribute("data-seq", re.compile(r"\d+"))
        return page

    open_page.allow = watch.allow
    yield open_page
    watch.check()
    for page in pages:
        page.context.close()
    wait_for_disconnects()


def start_game(kind, *users, options=None, absence_limit=None):
    return off_loop(
        GameFactory,
        creator=users[0],
        players=users[1:],
        kind=kind,
        options=options,
        absence_limit=absence_limit,
    )


def test_triple_quintzee_two_players(make_user, play, dice, shot):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game("triple-quintzee", ann, bob)
    dice([2, 3, 2, 5, 5], [2], [6, 6, 6, 6, 6])
    p1, p2 = play(ann, game), play(bob, game)
    expect(p1.locator("#g-turn")).to_contain_text("Your turn")
    expect(p2.locator("#g-turn")).to_contain_text("ann's turn")

    p1.click("#roll-button")
    expect(die(p2, 2)).to_have_attribute("aria-label", "Die 2: three")
    expect(p1.locator("#roll-count")).to_have_text("1 of 3 rolls used")
    for n in (1, 3, 4, 5):
        die(p1, n).click()
    expect(die(p1, 1)).to_have_attribute("aria-pressed", "true")
    p1.click("#roll-button")
    expect(die(p2, 2)).to_have_attribute("aria-label", "Die 2: two")
    expect(die(p2, 1)).to_have_attribute("aria-label", "Die 1: two, held")
    expect(p1.locator("#roll-count")).to_have_text("2 of 3 rolls used")

    # The right-most rule, before confirming: pointing at column 1 lights up column 3.
    full_house = cell(p1, "full_house", 1)
    expect(full_house).to_have_attribute(
        "aria-label", "Full House, column 1, empty, would score 25 \u00d7 3 = 75 in column 3"
    )
    full_house.hover()
    expect(cell(p1, "full_house", 3)).to_have_class(re.compile(r"\blands-here\b"))
    expect(p1.locator("#g-hint")).to_contain_text("in column 3 (right-most rule)")
    screens(p1, shot, "triple-quintzee")
    full_house.click()
    p1.locator("#score-button").click()

    expect(score_of(p2, "ann")).to_have_text("75")
    expect(p2.locator("#g-log")).to_contain_text("ann scored 25 in Full House, column 3.")
    expect(p2.locator("#g-turn")).to_contain_text("Your turn")

    p2.click("#roll-button")
    expect(die(p1, 5)).to_have_attribute("aria-label", "Die 5: six")
    score_box(p2, "quintzee", 2)
    expect(score_of(p1, "bob")).to_have_text("150")
    expect(p1.locator("#g-turn")).to_contain_text("Your turn")
    p1.click("#g-board button[data-player='bob']")
    expect(cell(p1, "quintzee", 3)).to_have_text("50")

    bob_dot = p1.locator("#g-players li[data-player='bob'] .dot")
    expect(bob_dot).to_have_class(re.compile(r"\bonline\b"))
    p2.close()
    expect(bob_dot).to_have_class(re.compile(r"\boffline\b"))


def test_triple_yahtzee_99_two_players(make_user, play, dice, shot):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game("triple-yahtzee-99", ann, bob)
    dice([3, 3, 3, 4, 1], [4], [1, 1, 1, 2, 3], [1, 1])
    p1, p2 = play(ann, game), play(bob, game)
    expect(p1.locator("#g-board thead")).to_contain_text("→ \u00d72")

    p1.click("#roll-button")
    expect(die(p2, 5)).to_have_attribute("aria-label", "Die 5: one")
    for n in (1, 2, 3, 4):
        die(p1, n).click()
    p1.click("#roll-button")
    expect(die(p2, 5)).to_have_attribute("aria-label", "Die 5: four")
    expect(cell(p1, "three_of_a_kind", 1)).to_have_attribute(
        "aria-label", "3 of a Kind, column 1, empty, would score 17 \u00d7 1 = 17"
    )
    # Previews count as the card will: times the column's multiplier.
    expect(cell(p1, "full_house", 2)).to_have_text("50")
    cell(p1, "three_of_a_kind", 1).hover()
    expect(p1.locator("#g-hint")).to_contain_text("scores 17 \u00d7 1 = 17")
    screens(p1, shot, "triple-yahtzee-99")
    score_box(p1, "three_of_a_kind", 1)
    expect(score_of(p2, "ann")).to_have_text("17")
    expect(p2.locator("#g-log")).to_contain_text("ann scored 17 in 3 of a Kind, column 1.")

    p2.click("#roll-button")
    for n in (1, 2, 3):
        die(p2, n).click()
    p2.click("#roll-button")
    expect(die(p1, 4)).to_have_attribute("aria-label", "Die 4: one")
    expect(cell(p2, "yahtzee", 2)).to_have_text("100")
    score_box(p2, "yahtzee", 2)
    expect(score_of(p1, "bob")).to_have_text("100")
    p1.click("#g-board button[data-player='ann']")
    # The three-of-a-kind count that decides upgrades: one lower box so far in column 1.
    expect(p1.locator("#g-board tr.count").nth(1).locator("td").first).to_have_text("1/4")


def test_painted_dicez_two_players(make_user, play, dice, shot):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game("painted-dicez", ann, bob)
    first = [[1, "blue"], [2, "red"], [3, "pink"], [4, "green"], [6, "green"]]
    dice(first, [[5, "yellow"]], [[6, "red"]] * 5)
    p1, p2 = play(ann, game), play(bob, game)

    p1.click("#roll-button")
    expect(die(p2, 1)).to_have_attribute("aria-label", "Die 1: one, blue")
    # Colour is never the only cue: every die also carries its colour's letter.
    expect(die(p2, 1)).to_contain_text("B")
    for n in (1, 2, 3, 4):
        die(p1, n).click()
    p1.click("#roll-button")
    expect(die(p2, 5)).to_have_attribute("aria-label", "Die 5: five, yellow")
    expect(die(p2, 5)).to_contain_text("Y")
    expect(cell(p1, "rainbow")).to_have_attribute("aria-label", "Rainbow, empty, would score 40")
    expect(cell(p1, "straight")).to_have_text("40")
    screens(p1, shot, "painted-dicez")
    score_box(p1, "rainbow")
    expect(score_of(p2, "ann")).to_have_text("40")
    expect(p2.locator("#g-log")).to_contain_text("ann scored 40 in Rainbow.")

    p2.click("#roll-button")
    expect(die(p1, 3)).to_have_attribute("aria-label", "Die 3: six, red")
    score_box(p2, "reds")
    expect(score_of(p1, "bob")).to_have_text("30")
    p1.click("#g-board button[data-player='bob']")
    expect(p1.locator("#g-board tr.sum-row", has_text="Color subtotal").locator("td")).to_have_text("30")


def test_farkle_two_players(make_user, play, dice, shot):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game("farkle", ann, bob)
    dice([1, 5, 2, 3, 6, 6], [5, 5, 5, 2], [1, 1, 1, 2, 3, 4], [2, 3, 4, 6, 2, 3])
    p1, p2 = play(ann, game), play(bob, game)
    expect(p1.locator("#roll-button")).to_have_text("Roll 6 dice")
    expect(p1.locator("#bank-button")).to_be_disabled()
    expect(p2.locator("#roll-button")).to_be_disabled()

    p1.click("#roll-button")
    expect(die(p2, 6)).to_have_attribute("aria-label", "Die 6: six")
    die(p1, 1).click()
    expect(p1.locator("#selection-value")).to_have_text("Selected: 100")
    die(p1, 2).click()
    expect(p1.locator("#selection-value")).to_have_text("Selected: 150")
    expect(p1.locator("#bank-button")).to_be_disabled()
    expect(p1.locator("#bank-why")).to_contain_text("needs 300")
    # B asks the server anyway; its refusal is shown as an alert.
    p1.keyboard.press("b")
    expect(p1.get_by_role("alert")).to_have_text("You need at least 300 points to bank; this turn has 150.")

    p1.click("#roll-button")
    expect(die(p2, 1)).to_have_attribute("aria-label", "Die 1: five")
    expect(p1.get_by_role("alert")).to_have_text("")
    for n in (1, 2, 3):
        die(p1, n).click()
    expect(p1.locator("#selection-value")).to_have_text("Selected: 500")
    expect(p1.locator("#turn-points")).to_have_text("Turn: 150 + 500 = 650")
    expect(p2.locator("#g-board .aside-list li")).to_have_count(1)
    screens(p1, shot, "farkle")
    p1.click("#bank-button")
    expect(score_of(p2, "ann")).to_have_text("650")
    expect(p2.locator("#g-log")).to_contain_text("ann set aside 5 5 5 for 500 and banked 650 (total: 650).")

    p2.click("#roll-button")
    for n in (1, 2, 3):
        die(p2, n).click()
    expect(p2.locator("#bank-button")).to_have_text("Bank 1000")
    p2.click("#bank-button")
    expect(score_of(p1, "bob")).to_have_text("1000")
    expect(p1.locator("#lap-counter")).to_have_text("Lap 2")

    p1.click("#roll-button")
    for page in (p1, p2):
        expect(page.locator("#g-moment.farkle")).to_contain_text("Farkle!")
    expect(p2.locator("#g-turn")).to_contain_text("Your turn")
    shot(p2, "farkle-farkled-1280")


def test_keyboard_only_triple_quintzee_turn(make_user, play, dice):
    ann = make_user("ann")
    game = start_game("triple-quintzee", ann)
    dice([1, 1, 4, 1, 6], [1, 2])
    page = play(ann, game)
    keys = page.keyboard

    keys.press("Space")
    expect(die(page, 3)).to_have_attribute("aria-label", "Die 3: four")
    for key in ("1", "2", "4"):
        keys.press(key)
    expect(die(page, 4)).to_have_attribute("aria-label", "Die 4: one, held")
    keys.press("Space")
    expect(page.locator("#roll-count")).to_have_text("2 of 3 rolls used")
    expect(die(page, 5)).to_have_attribute("aria-label", "Die 5: two")

    # The first arrow brings focus to the card (Ones, column 1); then down to 4 of a Kind, column 3.
    for key in ["ArrowDown"] * 8 + ["ArrowRight"] * 2:
        keys.press(key)
    focused = page.locator("#g-board td:focus")
    expect(focused).to_have_attribute(
        "aria-label", "4 of a Kind, column 3, empty, would score 6 \u00d7 3 = 18"
    )
    expect(page.locator("#g-hint")).to_contain_text("scores 6 \u00d7 3 = 18")
    keys.press("Enter")
    expect(score_of(page, "ann")).to_have_text("18")
    expect(cell(page, "four_of_a_kind", 3)).to_have_text("6")
    expect(page.locator("#g-log")).to_contain_text("ann scored 6 in 4 of a Kind, column 3.")


def test_reload_mid_turn_shows_the_same_dice(make_user, play, dice):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game("triple-quintzee", ann, bob)
    dice([6, 2, 6, 3, 5], [6, 4])
    page = play(ann, game)
    page.click("#roll-button")
    die(page, 1).click()
    die(page, 3).click()
    die(page, 5).click()
    page.click("#roll-button")
    expect(page.locator("#roll-count")).to_have_text("2 of 3 rolls used")

    def dice_labels():
        return [die(page, n).get_attribute("aria-label") for n in range(1, 6)]

    expected = ["Die 1: six, held", "Die 2: six", "Die 3: six, held", "Die 4: four", "Die 5: five, held"]
    expect(die(page, 4)).to_have_attribute("aria-label", expected[3])
    assert dice_labels() == expected
    page.reload()
    expect(page.locator("#game-root")).to_have_attribute("data-seq", "2")
    expect(page.locator("#roll-count")).to_have_text("2 of 3 rolls used")
    expect(page.locator("#roll-button")).to_have_text("Roll 3 of 3")
    assert dice_labels() == expected


def test_a_missed_event_is_fetched_with_sync(make_user, play, dice, dice_script, settings):
    settings.DICE_SOURCE = "scripted"
    settings.DICE_SCRIPT_PATH = str(dice_script)
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game("triple-quintzee", ann, bob)
    dice([4, 4, 4, 4, 4], [5, 5, 5, 5, 5])
    p1, p2 = play(ann, game), play(bob, game)
    # Applied from this process: with the in-memory channel layer the pages never hear of seq 1
    # (as when the layer is down); with Redis they do. Either way seq 2 must leave them up to date.
    off_loop(
        services.game_apply_action,
        game_id=game.pk,
        user=ann,
        client_id="from-the-test",
        action={"type": "roll", "hold": []},
    )
    p1.keyboard.press("Space")
    for page in (p1, p2):
        expect(page.locator("#game-root")).to_have_attribute("data-seq", "2")
        expect(die(page, 1)).to_have_attribute("aria-label", "Die 1: five")
        expect(page.locator("#roll-count")).to_have_text("2 of 3 rolls used")
        expect(page.locator("#g-log li[data-seq]")).to_have_count(2)


def test_farkle_selection_value_matches_the_engine(make_user, play):
    """The live selection value is computed in the browser: it must agree with the engine everywhere."""
    from itertools import combinations_with_replacement

    from games.rules import farkle

    ann = make_user("ann")
    page = play(ann, start_game("farkle", ann))
    selections = [list(c) for n in range(1, 7) for c in combinations_with_replacement(range(1, 7), n)]
    got = page.evaluate(
        """async (selections) => {
            const { farkleScore } = await import('/static/js/game/farkle-score.js');
            return selections.map((s) => farkleScore(s));
        }""",
        selections,
    )
    expected = [farkle.score(s) for s in selections]
    wrong = [(s, g, e) for s, g, e in zip(selections, got, expected, strict=True) if g != e]
    assert not wrong, wrong[:10]


def test_waiting_room_follows_joins_and_the_start(make_user, play):
    ann, bob = make_user("ann"), make_user("bob")
    game = off_loop(services.game_create, creator=ann, kind="painted-dicez", seats=2)
    p1, p2 = play(ann, game), play(bob, game)
    expect(p1.locator("#waiting-heading")).to_have_text("Waiting for players (1/2)")

    p2.get_by_role("button", name="Join this game").click()
    expect(p1.locator("#seat-list")).to_contain_text("bob")
    expect(p1.locator("#waiting-heading")).to_have_text("Waiting for players (2/2)")

    expect(p2.locator("#game-root")).to_have_attribute("data-seq", "0")
    p1.click("#start-button")
    expect(p1.locator("#g-turn")).to_contain_text("Your turn")
    # Nobody touched bob's page: the lobby message made it reload into the game.
    expect(p2.locator("#g-turn")).to_contain_text("ann's turn")
    expect(p2.locator("#waiting-room")).to_have_count(0)


def test_resign_game_over_and_play_again(make_user, play, dice, shot):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game("farkle", ann, bob, options={"goal": 3000})
    # Each plays a turn that scores nothing first: a resignation before bob has moved would abort it.
    dice([2, 2, 3, 4, 6, 6], [2, 2, 3, 4, 6, 6], [1, 1, 1, 1, 1, 5], [1, 2, 3, 4, 6, 6])
    p1, p2 = play(ann, game), play(bob, game)
    p1.click("#roll-button")
    expect(p2.locator("#roll-button")).to_be_enabled()
    p2.click("#roll-button")
    expect(p1.locator("#roll-button")).to_be_enabled()
    p1.click("#roll-button")
    for n in range(1, 7):
        die(p1, n).click()
    expect(p1.locator("#selection-value")).to_have_text("Selected: 10050")
    # Every die scores: banking waits until all six have been rolled again.
    expect(p1.locator("#bank-button")).to_be_disabled()
    expect(p1.locator("#bank-why")).to_contain_text("roll them all again")
    expect(p1.locator("#roll-button")).to_have_text("Hot dice! Roll all 6")
    p1.click("#roll-button")
    expect(p2.locator("#g-moment.hot")).to_contain_text("Hot dice!")
    shot(p2, "farkle-hot-dice-1280")
    die(p1, 1).click()
    expect(p1.locator("#bank-button")).to_have_text("Bank 10150")
    p1.click("#bank-button")
    expect(p2.locator(".final-round")).to_contain_text("Final round")

    p2.click("#resign-button")
    expect(p2.locator("#g-actions")).to_contain_text("Resign from this game?")
    p2.click("#resign-confirm")
    expect(p1.locator("#g-end .verdict")).to_have_text("You win with 10150 points after 2 laps!")
    expect(p2.locator("#g-end .verdict")).to_have_text("ann wins with 10150 points after 2 laps!")
    screens(p2, shot, "game-over")
    expect(p2.locator("#replay-link")).to_have_attribute("href", f"/games/{game.pk}/replay/")

    # Play again seats the presser and asks the others: bob's press takes his seat, and it starts.
    p1.click("#play-again")
    expect(p1).not_to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(p1.locator("#waiting-room")).to_be_visible()
    link = p2.locator("#next-game-link")
    expect(link).to_have_attribute("href", re.compile(r"^/games/\d+/$"))
    expect(link.locator("xpath=..")).to_contain_text("ann asks for another game")
    p2.click("#play-again")
    expect(p2).to_have_url(p1.url)
    expect(p2.locator("#g-turn")).to_contain_text("ann's turn")
    expect(p1.locator("#g-turn")).to_contain_text("Your turn")


def test_a_resignation_before_everyone_moved_aborts_the_game(make_user, play, shot):
    """The end panel says the game was aborted, not who won: nothing is rated or counted."""
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game("farkle", ann, bob, options={"goal": 3000})
    p1, p2 = play(ann, game), play(bob, game, 390, 844)
    p2.click("#resign-button")
    p2.click("#resign-confirm")
    for page in (p1, p2):
        expect(page.locator("#g-end-title")).to_have_text("Game aborted")
        expect(page.locator("#g-end .verdict")).to_have_text(
            "The game ended before every player had made a move: it is not rated and counts in no statistics."
        )
        expect(page.locator("#g-end")).not_to_contain_text("wins")
        expect(page.locator("#g-players")).not_to_contain_text("winner")
    shot(p1, "game-aborted-1280-light")
    p2.emulate_media(color_scheme="dark")
    shot(p2, "game-aborted-390-dark")
    assert off_loop(lambda: Game.objects.get(pk=game.pk).status) == Game.Status.ABORTED


def test_skip_the_turn_of_an_absent_player(make_user, play):
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game("farkle", ann, bob, absence_limit=10)
    # ann never opens the game; pretend it began 8 s ago so that the test waits 2 s, not 10.
    earlier = timezone.now() - timedelta(seconds=8)
    Game.objects.filter(pk=game.pk).update(started_at=earlier, turn_started_at=earlier)
    p2 = play(bob, game)
    # The page's clock is held, so that the countdown shows however long the page took to load on a
    # busy machine (it redraws every second); then it is let past the limit.
    p2.clock.set_fixed_time(earlier + timedelta(seconds=5))
    expect(p2.locator("#g-actions")).to_contain_text("ann is not connected. You can skip their turn in 5")
    p2.clock.set_fixed_time(earlier + timedelta(seconds=11))
    # The server judges the absence by its own clock: the limit must really have passed.
    time.sleep(max(0.0, (earlier + timedelta(seconds=10.5) - timezone.now()).total_seconds()))
    p2.get_by_role("button", name="Skip ann's turn").click()
    expect(p2.locator("#g-log")).to_contain_text("bob skipped ann's turn.")
    expect(p2.locator("#g-turn")).to_contain_text("Your turn")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Daphne:
    """A second server on the test database that this test may stop and start again."""

    def __init__(self, dice_script: Path):
        db = connection.settings_dict
        if db["ENGINE"].endswith("sqlite3"):
            url = f"sqlite:///{db['NAME']}"
        else:
            auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
            url = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": url,
            "DICE_SOURCE": "scripted",
            "DICE_SCRIPT_PATH": str(dice_script),
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
        }
        self.proc = None

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(self.port),
            "config.asgi:application",
        ]
        self.proc = subprocess.Popen(
            command, cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:  # noqa: S310
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise AssertionError(f"daphne did not come up on {self.url}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def own_server(server, dice_script):
    daphne = Daphne(dice_script)
    daphne.start()
    yield daphne
    daphne.stop()


def test_recovers_after_a_server_restart(make_user, play, dice, own_server):
    play.allow(r"WebSocket connection to .* failed")
    # Each failed handshake asks the game page why (static/js/game/socket.js); it is down too.
    play.allow(r"Failed to load resource: net::ERR_CONNECTION_REFUSED")
    # The page registers the service worker once it has loaded (static/js/sw-register.js, which ignores
    # a failure); when the server stops before that fetch, Chromium itself logs the failure.
    play.allow(r"An unknown error occurred when fetching the script")
    ann, bob = make_user("ann"), make_user("bob")
    game = start_game("triple-quintzee", ann, bob)
    dice([3, 3, 3, 2, 1])
    p1 = play(ann, game, base=own_server.url)
    p2 = play(bob, game, base=own_server.url)

    own_server.stop()
    for page in (p1, p2):
        expect(page.locator("#g-conn")).to_have_text("Reconnecting…")
    # Pressed while the server is down: the action waits and goes out, under the same id, on reconnect.
    p1.click("#roll-button")
    own_server.start()

    for page in (p1, p2):
        expect(page.locator("#game-root")).to_have_attribute("data-conn", "open", timeout=15_000)
        expect(page.locator("#g-conn")).to_be_hidden()
    expect(die(p2, 1)).to_have_attribute("aria-label", "Die 1: three")
    expect(p1.locator("#roll-count")).to_have_text("1 of 3 rolls used")
    expect(p2.locator("#game-root")).to_have_attribute("data-seq", "1")
    assert Game.objects.get(pk=game.pk).seq == 1


def test_pointing_at_a_box_never_moves_the_card(make_user, play, dice):
    """The hint above the card changes as the pointer moves over it; the card must stay put, or a click
    starts on one box and ends on another (and is lost)."""
    ann = make_user("ann")
    game = start_game("triple-quintzee", ann)
    dice([1, 2, 3, 4, 6])
    page = play(ann, game)
    page.keyboard.press("Space")
    expect(page.locator("#roll-count")).to_have_text("1 of 3 rolls used")
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        target = cell(page, "small_straight", 1)
        page.mouse.move(0, 0)
        expect(page.locator("#g-hint")).to_have_text(
            "Click dice to hold them and roll again, or choose a box on your card."
        )
        target.scroll_into_view_if_needed()
        top = "e => e.getBoundingClientRect().top + window.scrollY"
        before = target.evaluate(top)
        target.hover()
        expect(page.locator("#g-hint")).to_contain_text("in column 3 (right-most rule) \u00d7 3 = 90")
        assert target.evaluate(top) == before, f"the card moved at {width} px"
