"""What a game says aloud (static/js/game/announce.js): the lines of the page's polite live region, read
as text and in order, in English and in German, for a whole turn of one's own and one of an opponent's
in each of the five games; Farkle's end with its places; and a reconnect's catch-up said in one sentence
rather than replayed."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import cell, die
from tests.browser.test_game_ui import play, start_game  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser


def said(page: Page):
    """The live region's lines, oldest first."""
    return page.locator("#g-announce p")


def hears(page: Page, lines: list[str]) -> None:
    """The page has said exactly ``lines``, in this order (waits for the last of them)."""
    expect(said(page)).to_have_text(lines)


# One's own moves are said as "You ...", everyone else's by name; whose turn it is follows a move that
# passes it.
FARKLE = {
    "en": {
        "ann": [
            "It is your turn.",
            "You rolled 1 5 2 3 6 6.",
            "You set aside 1 5 for 150 (turn: 150) and rolled 5 5 5 2.",
            "You set aside 5 5 5 for 500 and banked 650 (total: 650). It is bob's turn.",
            "bob rolled 2 3 4 6 2 3. Farkle! It is your turn.",
            "bob resigned. The game is over: ann wins after 2 laps. Final scores: 1. ann, 650; 2. bob, 0.",
        ],
        "bob": [
            "It is ann's turn.",
            "ann rolled 1 5 2 3 6 6.",
            "ann set aside 1 5 for 150 (turn: 150) and rolled 5 5 5 2.",
            "ann set aside 5 5 5 for 500 and banked 650 (total: 650). It is your turn.",
            "You rolled 2 3 4 6 2 3. Farkle! It is ann's turn.",
            "You resigned. The game is over: ann wins after 2 laps. Final scores: 1. ann, 650; 2. bob, 0.",
        ],
        "confirm": "Yes, resign",
    },
    "de": {
        "ann": [
            "Du bist dran.",
            "Du hast 1 5 2 3 6 6 gewürfelt.",
            "Du hast 1 5 für 150 rausgelegt (Zug: 150) und 5 5 5 2 gewürfelt.",
            "Du hast 5 5 5 für 500 rausgelegt und 650 aufgeschrieben (gesamt: 650). bob ist dran.",
            "bob würfelte 2 3 4 6 2 3. Null-Runde! Du bist dran.",
            "bob hat aufgegeben. Das Spiel ist aus: ann gewinnt nach 2 Runden."
            " Endstand: 1. ann, 650; 2. bob, 0.",
        ],
        "bob": [
            "ann ist dran.",
            "ann würfelte 1 5 2 3 6 6.",
            "ann legte 1 5 für 150 raus (Zug: 150) und würfelte 5 5 5 2.",
            "ann legte 5 5 5 für 500 raus und schrieb 650 auf (gesamt: 650). Du bist dran.",
            "Du hast 2 3 4 6 2 3 gewürfelt. Null-Runde! ann ist dran.",
            "Du hast aufgegeben. Das Spiel ist aus: ann gewinnt nach 2 Runden."
            " Endstand: 1. ann, 650; 2. bob, 0.",
        ],
        "confirm": "Ja, aufgeben",
    },
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_farkle_turns_and_the_end_are_said_in_order(make_user, play, dice, language):  # noqa: F811
    words = FARKLE[language]
    ann, bob = make_user("ann", language=language), make_user("bob", language=language)
    game = start_game("farkle", ann, bob)
    dice([1, 5, 2, 3, 6, 6], [5, 5, 5, 2], [2, 3, 4, 6, 2, 3])
    p1, p2 = play(ann, game), play(bob, game)
    hears(p1, words["ann"][:1])
    hears(p2, words["bob"][:1])

    # ann's whole turn: a roll, two scoring dice set aside with a roll, three fives banked.
    p1.click("#roll-button")
    hears(p1, words["ann"][:2])
    die(p1, 1).click()
    die(p1, 2).click()
    p1.click("#roll-button")
    hears(p1, words["ann"][:3])
    for n in (1, 2, 3):
        die(p1, n).click()
    p1.click("#bank-button")
    hears(p1, words["ann"][:4])
    hears(p2, words["bob"][:4])

    # bob's turn: a Farkle at once, and the turn passes back.
    p2.click("#roll-button")
    hears(p2, words["bob"][:5])
    hears(p1, words["ann"][:5])

    # bob resigns: the end and the places, once each.
    p2.click("#resign-button")
    p2.get_by_role("button", name=words["confirm"]).click()
    hears(p2, words["bob"])
    hears(p1, words["ann"])
    # The snapshot the page asks for at the end says nothing again.
    p1.wait_for_timeout(500)
    hears(p1, words["ann"])


CARDS = {
    "en": {
        "ann": [
            "It is your turn.",
            "You rolled 2, 3, 2, 5, 5.",
            "You held 4 dice and rolled again: 2, 2, 2, 5, 5 (roll 2 of 3).",
            "You scored 25 in Full House, column 3."
            " It goes to column 3, the right-most empty Full House box. It is bob's turn.",
            "bob rolled 6, 6, 6, 6, 6.",
            "bob scored 50 in Quintzee, column 3."
            " It goes to column 3, the right-most empty Quintzee box. It is your turn.",
        ],
        "bob": [
            "It is ann's turn.",
            "ann rolled 2, 3, 2, 5, 5.",
            "ann held 4 dice and rolled again: 2, 2, 2, 5, 5 (roll 2 of 3).",
            "ann scored 25 in Full House, column 3."
            " It goes to column 3, the right-most empty Full House box. It is your turn.",
            "You rolled 6, 6, 6, 6, 6.",
            "You scored 50 in Quintzee, column 3."
            " It goes to column 3, the right-most empty Quintzee box. It is ann's turn.",
        ],
    },
    "de": {
        "ann": [
            "Du bist dran.",
            "Du hast 2, 3, 2, 5, 5 gewürfelt.",
            "Du hast 4 Würfel festgehalten und noch einmal gewürfelt: 2, 2, 2, 5, 5 (Wurf 2 von 3).",
            "Du hast 25 bei Full House eingetragen, Spalte 3."
            " Es kommt in Spalte 3, das am weitesten rechts liegende freie Feld Full House. bob ist dran.",
            "bob würfelte 6, 6, 6, 6, 6.",
            "bob trug 50 bei Quintzee ein, Spalte 3."
            " Es kommt in Spalte 3, das am weitesten rechts liegende freie Feld Quintzee. Du bist dran.",
        ],
        "bob": [
            "ann ist dran.",
            "ann würfelte 2, 3, 2, 5, 5.",
            "ann hielt 4 Würfel fest und würfelte noch einmal: 2, 2, 2, 5, 5 (Wurf 2 von 3).",
            "ann trug 25 bei Full House ein, Spalte 3."
            " Es kommt in Spalte 3, das am weitesten rechts liegende freie Feld Full House. Du bist dran.",
            "Du hast 6, 6, 6, 6, 6 gewürfelt.",
            "Du hast 50 bei Quintzee eingetragen, Spalte 3."
            " Es kommt in Spalte 3, das am weitesten rechts liegende freie Feld Quintzee. ann ist dran.",
        ],
    },
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_card_game_turns_are_said_in_order(make_user, play, dice, language):  # noqa: F811
    words = CARDS[language]
    ann, bob = make_user("ann", language=language), make_user("bob", language=language)
    game = start_game("triple-quintzee", ann, bob)
    dice([2, 3, 2, 5, 5], [2], [6, 6, 6, 6, 6])
    p1, p2 = play(ann, game), play(bob, game)
    hears(p1, words["ann"][:1])
    hears(p2, words["bob"][:1])

    # ann's whole turn: a roll, four dice held and one rolled again, a Full House scored.
    p1.click("#roll-button")
    hears(p1, words["ann"][:2])
    for n in (1, 3, 4, 5):
        die(p1, n).click()
    p1.click("#roll-button")
    hears(p1, words["ann"][:3])
    cell(p1, "full_house", 1).click()
    p1.locator("#score-button").click()
    hears(p1, words["ann"][:4])
    hears(p2, words["bob"][:4])

    # bob's turn: a Quintzee at the first roll, scored at once.
    p2.click("#roll-button")
    hears(p2, words["bob"][:5])
    cell(p2, "quintzee", 2).click()
    p2.locator("#score-button").click()
    hears(p2, words["bob"])
    hears(p1, words["ann"])


CATCH_UP = {
    "en": "Caught up: 2 moves while you were away. It is your turn.",
    "de": "Wieder auf dem Laufenden: 2 Züge, während du weg warst. Du bist dran.",
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_reconnect_says_what_was_missed_in_one_sentence(make_user, play, dice, language):  # noqa: F811
    ann, bob = make_user("ann", language=language), make_user("bob", language=language)
    game = start_game("farkle", ann, bob)
    dice([5, 5, 5, 2, 3, 4], [1, 1, 1, 2, 3, 4])
    p1, p2 = play(ann, game), play(bob, game)
    play.allow(r"WebSocket connection to .* failed")  # ann's network is down on purpose
    p1.click("#roll-button")
    for n in (1, 2, 3):
        die(p1, n).click()
    p1.click("#bank-button")
    expect(said(p1)).to_have_count(3)
    before = said(p1).all_inner_texts()

    p1.context.set_offline(True)
    expect(p1.locator("#game-root")).not_to_have_attribute("data-conn", "open")
    p2.click("#roll-button")
    expect(said(p2)).to_have_count(4)
    for n in (1, 2, 3):
        die(p2, n).click()
    p2.click("#bank-button")
    expect(said(p2)).to_have_count(5)

    p1.context.set_offline(False)
    expect(p1.locator("#game-root")).to_have_attribute("data-conn", "open")
    hears(p1, [*before, CATCH_UP[language]])
    # The sync that follows the reconnect brings the same moves for the log: nothing is said again.
    p1.wait_for_timeout(500)
    hears(p1, [*before, CATCH_UP[language]])


TURN = {
    "en": {"you": "It is your turn.", "ann": "It is ann's turn.", "bob": "It is bob's turn."},
    "de": {"you": "Du bist dran.", "ann": "ann ist dran.", "bob": "bob ist dran."},
}

# The other card games: the dice of ann's two rolls and bob's one, the boxes they score, and each move as
# another reader hears it (by name) and as its player hears it ("You ..."), in each language.
OTHER_CARD_GAMES = {
    "quintzee": {
        "dice": ([2, 3, 2, 5, 5], [2], [6, 6, 6, 6, 6]),
        "hold": (1, 3, 4, 5),
        "boxes": (("full_house", 0), ("quintzee", 0)),
        "en": {
            "theirs": (
                "ann rolled 2, 3, 2, 5, 5.",
                "ann held 4 dice and rolled again: 2, 2, 2, 5, 5 (roll 2 of 3).",
                "ann scored 25 in Full House.",
                "bob rolled 6, 6, 6, 6, 6.",
                "bob scored 50 in Quintzee.",
            ),
            "yours": (
                "You rolled 2, 3, 2, 5, 5.",
                "You held 4 dice and rolled again: 2, 2, 2, 5, 5 (roll 2 of 3).",
                "You scored 25 in Full House.",
                "You rolled 6, 6, 6, 6, 6.",
                "You scored 50 in Quintzee.",
            ),
        },
        "de": {
            "theirs": (
                "ann würfelte 2, 3, 2, 5, 5.",
                "ann hielt 4 Würfel fest und würfelte noch einmal: 2, 2, 2, 5, 5 (Wurf 2 von 3).",
                "ann trug 25 bei Full House ein.",
                "bob würfelte 6, 6, 6, 6, 6.",
                "bob trug 50 bei Quintzee ein.",
            ),
            "yours": (
                "Du hast 2, 3, 2, 5, 5 gewürfelt.",
                "Du hast 4 Würfel festgehalten und noch einmal gewürfelt: 2, 2, 2, 5, 5 (Wurf 2 von 3).",
                "Du hast 25 bei Full House eingetragen.",
                "Du hast 6, 6, 6, 6, 6 gewürfelt.",
                "Du hast 50 bei Quintzee eingetragen.",
            ),
        },
    },
    "triple-yahtzee-99": {
        "dice": ([3, 3, 3, 4, 1], [4], [6, 6, 6, 6, 6]),
        "hold": (1, 2, 3, 4),
        "boxes": (("three_of_a_kind", 1), ("yahtzee", 2)),
        "en": {
            "theirs": (
                "ann rolled 3, 3, 3, 4, 1.",
                "ann held 4 dice and rolled again: 3, 3, 3, 4, 4 (roll 2 of 3).",
                "ann scored 17 in 3 of a Kind, column 1.",
                "bob rolled 6, 6, 6, 6, 6.",
                "bob scored 75 in Yahtzee, column 2.",
            ),
            "yours": (
                "You rolled 3, 3, 3, 4, 1.",
                "You held 4 dice and rolled again: 3, 3, 3, 4, 4 (roll 2 of 3).",
                "You scored 17 in 3 of a Kind, column 1.",
                "You rolled 6, 6, 6, 6, 6.",
                "You scored 75 in Yahtzee, column 2.",
            ),
        },
        "de": {
            "theirs": (
                "ann würfelte 3, 3, 3, 4, 1.",
                "ann hielt 4 Würfel fest und würfelte noch einmal: 3, 3, 3, 4, 4 (Wurf 2 von 3).",
                "ann trug 17 bei Dreierpasch ein, Spalte 1.",
                "bob würfelte 6, 6, 6, 6, 6.",
                "bob trug 75 bei Yahtzee ein, Spalte 2.",
            ),
            "yours": (
                "Du hast 3, 3, 3, 4, 1 gewürfelt.",
                "Du hast 4 Würfel festgehalten und noch einmal gewürfelt: 3, 3, 3, 4, 4 (Wurf 2 von 3).",
                "Du hast 17 bei Dreierpasch eingetragen, Spalte 1.",
                "Du hast 6, 6, 6, 6, 6 gewürfelt.",
                "Du hast 75 bei Yahtzee eingetragen, Spalte 2.",
            ),
        },
    },
    "painted-dicez": {
        "dice": (
            [[1, "blue"], [2, "red"], [3, "pink"], [4, "green"], [6, "green"]],
            [[5, "yellow"]],
            [[6, "red"]] * 5,
        ),
        "hold": (1, 2, 3, 4),
        "boxes": (("rainbow", 0), ("reds", 0)),
        "en": {
            "theirs": (
                "ann rolled blue 1, red 2, pink 3, green 4, green 6.",
                "ann held 4 dice and rolled again: blue 1, red 2, pink 3, green 4, yellow 5 (roll 2 of 3).",
                "ann scored 40 in Rainbow.",
                "bob rolled red 6, red 6, red 6, red 6, red 6.",
                "bob scored 30 in Reds.",
            ),
            "yours": (
                "You rolled blue 1, red 2, pink 3, green 4, green 6.",
                "You held 4 dice and rolled again: blue 1, red 2, pink 3, green 4, yellow 5 (roll 2 of 3).",
                "You scored 40 in Rainbow.",
                "You rolled red 6, red 6, red 6, red 6, red 6.",
                "You scored 30 in Reds.",
            ),
        },
        "de": {
            "theirs": (
                "ann würfelte blau 1, rot 2, rosa 3, grün 4, grün 6.",
                "ann hielt 4 Würfel fest und würfelte noch einmal: blau 1, rot 2, rosa 3, grün 4, gelb 5"
                " (Wurf 2 von 3).",
                "ann trug 40 bei Regenbogen ein.",
                "bob würfelte rot 6, rot 6, rot 6, rot 6, rot 6.",
                "bob trug 30 bei Rote ein.",
            ),
            "yours": (
                "Du hast blau 1, rot 2, rosa 3, grün 4, grün 6 gewürfelt.",
                "Du hast 4 Würfel festgehalten und noch einmal gewürfelt:"
                " blau 1, rot 2, rosa 3, grün 4, gelb 5 (Wurf 2 von 3).",
                "Du hast 40 bei Regenbogen eingetragen.",
                "Du hast rot 6, rot 6, rot 6, rot 6, rot 6 gewürfelt.",
                "Du hast 30 bei Rote eingetragen.",
            ),
        },
    },
}


def _heard(reader: str, theirs: tuple, yours: tuple, turn: dict) -> list[str]:
    """ann's turn (three moves) and bob's (two) as ``reader`` hears them."""
    ann = yours if reader == "ann" else theirs
    bob = yours if reader == "bob" else theirs
    whose = {p: turn["you"] if p == reader else turn[p] for p in ("ann", "bob")}
    return [whose["ann"], ann[0], ann[1], f"{ann[2]} {whose['bob']}", bob[3], f"{bob[4]} {whose['ann']}"]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("kind", list(OTHER_CARD_GAMES))
def test_the_other_card_games_are_said_in_order(make_user, play, dice, kind, language):  # noqa: F811
    game_words = OTHER_CARD_GAMES[kind]
    words = game_words[language]
    ann, bob = make_user("ann", language=language), make_user("bob", language=language)
    game = start_game(kind, ann, bob)
    dice(*game_words["dice"])
    p1, p2 = play(ann, game), play(bob, game)
    lines = {
        reader: _heard(reader, words["theirs"], words["yours"], TURN[language]) for reader in ("ann", "bob")
    }
    first, second = game_words["boxes"]

    p1.click("#roll-button")
    hears(p1, lines["ann"][:2])
    for n in game_words["hold"]:
        die(p1, n).click()
    p1.click("#roll-button")
    hears(p1, lines["ann"][:3])
    cell(p1, *first).click()
    p1.locator("#score-button").click()
    hears(p2, lines["bob"][:4])

    p2.click("#roll-button")
    hears(p2, lines["bob"][:5])
    cell(p2, *second).click()
    p2.locator("#score-button").click()
    hears(p2, lines["bob"])
    hears(p1, lines["ann"])
