"""Journey in German: two German browsers sign up and play Farkle; bob switches to English
mid-game from the menu, and from then on each page says the same moves in its own language, the log
included; the replay does the same for each reader."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.fixtures import SHOTS
from tests.browser.helpers import die, score_of
from tests.e2e import ui
from tests.e2e.axe import check_axe

GERMAN = "de-DE"


def sign_up_in_german(page: Page, username: str) -> None:
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.get_by_role("link", name="Konto erstellen").click()
    expect(page.get_by_role("heading", name="Konto erstellen")).to_be_visible()
    page.get_by_label("Benutzername:", exact=True).fill(username)
    page.get_by_label("Passwort:", exact=True).fill(ui.PASSWORD)
    page.get_by_label("Passwort bestätigen:", exact=True).fill(ui.PASSWORD)
    page.get_by_role("button", name="Registrieren").click()
    expect(page.locator(".messages")).to_contain_text(f"Willkommen, {username}!")


def menu(page: Page):
    nav = page.get_by_role("navigation", name="Hauptmenü")
    button = nav.locator(".menu-button")
    if button.is_visible() and button.get_attribute("aria-expanded") == "false":
        page.wait_for_load_state("domcontentloaded")  # menu.js (deferred) has run
        button.click()
    return nav


def game_shots(page: Page, name: str, full: bool = True) -> None:
    """A screenshot of the site in German (artifacts/screenshots/german/)."""
    folder = SHOTS / "german"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=full)


def watch_die(page: Page, n: int, word: str) -> None:
    expect(die(page, n)).to_have_attribute("aria-label", re.compile(rf"^(Würfel|Die) {n}: {word}\b"))


def test_farkle_in_german_with_one_player_switching_to_english(visit, dice, snap):
    ann, bob = visit("ann", locale=GERMAN), visit("bob", locale=GERMAN)
    sign_up_in_german(ann, "ann")
    sign_up_in_german(bob, "bob")

    game_shots(ann, "01-home-signed-in")
    menu(ann).get_by_role("link", name="Spielen").click()
    expect(ann.get_by_role("heading", name="Neues Spiel")).to_be_visible()
    ann.get_by_label("Spiel:", exact=True).select_option(label="Farkle (10000)")
    ann.get_by_label("Plätze:", exact=True).fill("2")
    ann.get_by_label("Farkle-Ziel:", exact=True).select_option(label="3000")
    ann.get_by_role("button", name="Spiel erstellen").click()
    # The goal as the game's name writes it: the same digits in every language.
    expect(ann.locator(".game-head")).to_contain_text("Farkle (3000)")
    expect(ann.locator(".game-head")).to_contain_text("Ziel 3000 · 6 Würfel")
    expect(ann.locator("#waiting-heading")).to_have_text("Warten auf Mitspieler (1/2)")
    link = ann.get_by_label("Einladungslink").input_value()
    bob.goto(link)
    bob.get_by_role("button", name="Mitspielen").click()
    expect(bob.locator(".messages")).to_contain_text("Du hast einen Platz. Warte auf den Start.")
    expect(ann.locator("#waiting-heading")).to_have_text("Warten auf Mitspieler (2/2)")
    ann.get_by_role("button", name="Spiel starten").click()
    for page in (ann, bob):
        expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")

    dice(
        [1, 5, 2, 3, 6, 6],  # ann: 1 and 5 (150), banking refused under 300
        [5, 5, 5, 2],  # ann: three fives, banks 650
        [1, 2, 3, 4, 6, 6],  # bob (now in English): keeps the 1 ...
        [2, 3, 4, 6, 2],  # ... and Farkles: 100 lost
    )

    # ann in German: a refusal in German, the log in German on both pages.
    expect(ann.locator("#g-turn")).to_have_text("Du bist dran")
    expect(bob.locator("#g-turn")).to_have_text("ann ist dran")
    ann.get_by_role("button", name="6 Würfel würfeln").click()
    watch_die(bob, 1, "eins")
    die(ann, 1).click()
    die(ann, 2).click()
    expect(ann.locator("#selection-value")).to_have_text("Gewählt: 150")
    ann.keyboard.press("b")
    expect(ann.get_by_role("alert")).to_have_text(
        "Zum Aufschreiben brauchst du mindestens 300 Punkte; dieser Zug hat 150."
    )
    snap(ann, "german-refusal")
    ann.get_by_role("button", name="Rauslegen, 4 Würfel würfeln").click()
    watch_die(bob, 1, "fünf")
    for n in (1, 2, 3):
        die(ann, n).click()
    expect(ann.locator("#turn-points")).to_have_text("Zug: 150 + 500 = 650")
    ann.get_by_role("button", name="650 aufschreiben").click()
    expect(score_of(bob, "ann")).to_have_text("650")
    banked_de = "ann legte 5 5 5 für 500 raus und schrieb 650 auf (gesamt: 650)."
    for page in (ann, bob):
        expect(page.locator("#g-log")).to_contain_text(banked_de)
    check_axe(bob, "Farkle in German")

    # bob switches to English at the foot of the page: it reloads in English, the log with it.
    bob.locator(".site-footer").get_by_role("button", name="English").click()
    expect(bob.locator("html")).to_have_attribute("lang", "en")
    expect(bob.locator("#game-root")).to_have_attribute("data-conn", "open")
    expect(bob.locator("#g-turn")).to_have_text("Your turn")
    expect(bob.locator("#g-log")).to_contain_text("ann set aside 5 5 5 for 500 and banked 650 (total: 650).")
    expect(bob.locator("#g-log")).not_to_contain_text(banked_de)

    bob.get_by_role("button", name="Roll 6 dice").click()
    watch_die(ann, 1, "eins")
    die(bob, 1).click()
    bob.get_by_role("button", name="Set aside, roll 5 dice").click()
    expect(bob.locator("#g-moment.farkle")).to_contain_text("You rolled no scoring dice: 100 points lost.")
    expect(ann.locator("#g-moment.farkle")).to_contain_text(
        "bob hat keine zählenden Würfel geworfen: 100 Punkte verloren."
    )
    # The same broadcast, each log in its reader's language.
    expect(bob.locator("#g-log")).to_contain_text(
        "bob set aside 1 for 100 (turn: 100) and rolled 2 3 4 6 2. Farkle! 100 points lost."
    )
    expect(ann.locator("#g-log")).to_contain_text(
        "bob legte 1 für 100 raus (Zug: 100) und würfelte 2 3 4 6 2. Null-Runde! 100 Punkte verloren."
    )
    expect(ann.locator("#g-turn")).to_have_text("Du bist dran")
    expect(bob.locator("#g-turn")).to_have_text("ann's turn")
    expect(ann.locator("#g-log li[data-seq]")).to_have_count(5)
    expect(bob.locator("#g-log li[data-seq]")).to_have_count(5)
    snap(ann, "log-in-german")
    snap(bob, "log-in-english")
    game_path = re.sub(r"^https?://[^/]+", "", ann.url)
    ann.set_viewport_size({"width": 1280, "height": 800})
    game_shots(ann, "02-farkle-1280")

    # The same in German on a phone, dark: the game, the menu with its language switch, the lobby.
    phone = visit("ann-phone", width=390, height=844, touch=True, scheme="dark", locale=GERMAN, signed_in=ann)
    phone.goto(game_path)
    expect(phone.locator("#g-log")).to_contain_text("Null-Runde! 100 Punkte verloren.")
    game_shots(phone, "03-farkle-phone-dark")
    expect(menu(phone).get_by_role("button", name="English")).to_be_visible()
    game_shots(phone, "04-menu-phone-dark", full=False)
    menu(phone).get_by_role("link", name="Spielen").click()
    game_shots(phone, "05-lobby-phone-dark")
    # Farkle's rules, the German game's own words ("Null-Runde", "aufschreiben").
    menu(phone).get_by_role("link", name="Farkle (10000)").click()
    expect(phone.get_by_role("heading", level=1)).to_have_text("Farkle (10000): so wird gespielt")
    check_axe(phone, "Farkle's rules in German, phone")
    game_shots(phone, "06-farkle-rules-phone-dark")
    ann.goto("/games/farkle/rules/")
    expect(ann.get_by_role("heading", name="Heiße Würfel: bestätigen")).to_be_visible()
    game_shots(ann, "07-farkle-rules-1280")

    # The choice is kept on bob's account: a new page of his is English though his browser asks German.
    bob.goto("/")
    expect(bob.locator("html")).to_have_attribute("lang", "en")
    ann.goto("/")
    expect(ann.locator("html")).to_have_attribute("lang", "de")
    expect(ann.get_by_role("heading", level=1).first).to_have_text("Du bist am Zug")
