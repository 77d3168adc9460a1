"""What the journeys do on the site, the way a person does it: forms, links and buttons by their labels.

Each function starts from wherever the visitor is, goes through the site's own links and forms, and
returns once the page shows that it worked.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from tests.browser.helpers import score_box

PASSWORD = "six-dice-and-a-cup"


def main_nav(page: Page) -> Locator:
    """The site's menu, opened first where it is folded under the phone header's Menu button."""
    nav = page.get_by_role("navigation", name="Main")
    button = nav.get_by_role("button", name="Menu")
    if button.is_visible() and button.get_attribute("aria-expanded") == "false":
        # The button works once the deferred menu.js has run, which DOMContentLoaded waits for.
        page.wait_for_load_state("domcontentloaded")
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")
    return nav


def sign_up(page: Page, username: str, email: str = "") -> None:
    """From the home page: the Sign up button, the form, and the welcome message."""
    page.goto("/")
    page.get_by_role("link", name="Create an account").click()
    expect(page.get_by_role("heading", name="Create your account")).to_be_visible()
    page.get_by_label("Username:", exact=True).fill(username)
    if email:
        page.get_by_label("Email:", exact=True).fill(email)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation:", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator(".messages")).to_contain_text(f"Welcome, {username}!")
    expect(main_nav(page).get_by_role("link", name="Your profile")).to_have_text(username)


def log_out(page: Page) -> None:
    main_nav(page).get_by_role("button", name="Log out").click()
    expect(page.locator(".nav-user")).not_to_contain_text("Log out")  # the next page, signed out
    expect(main_nav(page).get_by_role("link", name="Log in")).to_be_visible()


def log_in(page: Page, username: str) -> None:
    page.goto("/")
    main_nav(page).get_by_role("link", name="Log in").click()
    page.get_by_label("Username:", exact=True).fill(username)
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(main_nav(page).get_by_role("link", name="Your profile")).to_have_text(username)


def create_group(page: Page, name: str, description: str = "") -> str:
    """Groups in the menu, then the Create a group form; returns the group page's path."""
    main_nav(page).get_by_role("link", name="Groups").click()
    page.get_by_label("Name:", exact=True).fill(name)
    if description:
        page.get_by_label("Description:", exact=True).fill(description)
    page.get_by_role("button", name="Create group").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(name)
    expect(page.locator(".messages")).to_contain_text(f"Group “{name}” created")
    return re.sub(r"^https?://[^/]+", "", page.url)


def add_member(page: Page, username: str) -> None:
    """On the group page, as its creator."""
    page.get_by_label("Add a player by username:", exact=True).fill(username)
    page.get_by_role("button", name="Add member").click()
    expect(page.locator(".messages")).to_contain_text(f"{username} was added.")
    expect(page.locator(".member-list")).to_contain_text(username)


def fill_lobby(
    page: Page,
    kind: str,
    seats: int,
    goal: str | None = None,
    group: str | None = None,
    named: str | None = None,
    pace: str | None = None,
) -> str:
    """On the lobby's New game form: choose, create, and land in the game's page; returns its path.
    ``named``: the game's name on its page when its options make it differ from ``kind`` ("Farkle (3000)")."""
    expect(page.get_by_role("heading", name="New game")).to_be_visible()
    page.get_by_label("Game:", exact=True).select_option(label=kind)
    page.get_by_label("Seats:", exact=True).fill(str(seats))
    if goal:
        page.get_by_label("Farkle goal:", exact=True).select_option(label=goal)
    if group:
        expect(page.get_by_label("Group (optional):", exact=True).locator("option:checked")).to_have_text(
            group
        )
    if pace:
        page.get_by_label("Pace:", exact=True).select_option(label=pace)
    page.get_by_role("button", name="Create game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text(named or kind)
    return re.sub(r"^https?://[^/]+", "", page.url)


def new_game(page: Page, kind: str, seats: int, goal: str | None = None, pace: str | None = None) -> str:
    """Play in the menu, then the lobby form."""
    main_nav(page).get_by_role("link", name="Play").click()
    return fill_lobby(page, kind, seats, goal, pace=pace)


def invite_link(page: Page) -> str:
    """The link the host sends to friends, as the waiting room shows it."""
    expect(page.locator("#waiting-heading")).to_contain_text("Waiting for players")
    link = page.get_by_label("Invite link").input_value()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/games/\d+/", link), link
    return link


def join_from_link(page: Page, link: str) -> None:
    page.goto(link)
    page.get_by_role("button", name="Join this game").click()
    expect(page.locator(".messages")).to_contain_text("You have a seat. Wait for the start.")


def start(host: Page, *others: Page, seats: int) -> None:
    """The host starts the game once every seat is taken; every page follows into the game."""
    expect(host.locator("#waiting-heading")).to_have_text(f"Waiting for players ({seats}/{seats})")
    host.get_by_role("button", name="Start the game").click()
    for page in (host, *others):
        expect(page.locator("#g-turn")).to_be_visible()
        expect(page.locator("#waiting-room")).to_have_count(0)
        expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")


# --- the card games ------------------------------------------------------------------------------


def roll_and_score(page: Page, box: str, column: int) -> None:
    """One turn of a card game: Space rolls once, then a click on the box (column 0 for Painted DiceZ).

    Waits until the page shows that the turn is this player's and nothing has been rolled yet, and then
    for the roll to be on the table before choosing the box."""
    expect(page.locator("#g-turn")).to_contain_text("Your turn")
    expect(page.locator("#roll-count")).to_have_text("Not rolled yet")
    page.keyboard.press("Space")
    expect(page.locator("#roll-count")).to_have_text("1 of 3 rolls used")
    score_box(page, box, column)
