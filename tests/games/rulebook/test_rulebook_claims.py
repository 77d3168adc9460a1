"""What the worked examples say in words holds for the engine: values, products, sections and legends."""

from __future__ import annotations

import re

import pytest

from games import rulebook, rules
from games.rules import farkle, painted_dicez, quintzee, triple_quintzee, triple_yahtzee_99
from tests.games.test_rules_pages import die_examples

SLUGS = list(rulebook.BUILDERS)
CARD_GAMES = [slug for slug in SLUGS if slug != farkle.slug]
# A note that ends by naming the example's value: "...: 0.", "..., 0.", "so 0.", "exactly 25.", "gets 40."
STATED_VALUE = re.compile(r"(?::|,|\bso|\bexactly|\bgets|\bflat) (\d+)\.$")
# A note that works out what the total gained: "50 x 3" or "25 x 3 = 75".
PRODUCT = re.compile(r"(\d+) x (\d+)(?: = (\d+))?")


def all_examples():
    return [e for slug in SLUGS for e in die_examples(rulebook.examples(slug))]


def test_every_value_a_note_states_is_the_engines():
    checked = 0
    for e in all_examples():
        # str(): a note may be a lazy translation (Farkle's), read here in English.
        stated = STATED_VALUE.search(str(e["note"]))
        if stated:
            assert int(stated[1]) == e["value"], e
            checked += 1
    assert checked >= 20


def test_every_product_a_note_works_out_is_what_the_total_gained():
    checked = 0
    for e in all_examples():
        for value, column, result in PRODUCT.findall(str(e["note"])):
            assert int(value) * int(column) == e["gain"], e
            if result:
                assert int(result) == e["gain"], e
            checked += 1
    assert checked >= 10


def test_farkle_rulings_are_worth_what_rulings_md_states():
    for e in rulebook.examples("farkle")["rulings"]:
        assert e["value"] == e["stated"] == farkle.score(e["dice"]), e


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_the_card_lists_every_box_once_with_the_engines_label(slug):
    engine = rules.get(slug)
    card = rulebook.examples(slug)["card"]
    assert [e["box"] for e in card] == list(engine.LABELS)
    assert all(e["label"] == engine.LABELS[e["box"]] for e in card)


@pytest.mark.parametrize(
    ("slug", "sections"),
    [
        (triple_quintzee.slug, (triple_quintzee.TOP, triple_quintzee.BOTTOM)),
        (triple_yahtzee_99.slug, (triple_yahtzee_99.UPPER, triple_yahtzee_99.LOWER)),
        (painted_dicez.slug, (painted_dicez.UPPER, painted_dicez.CENTER, painted_dicez.LOWER)),
        (quintzee.slug, (quintzee.TOP, quintzee.BOTTOM)),
    ],
)
def test_the_cards_sections_start_where_the_engines_do(slug, sections):
    card = rulebook.examples(slug)["card"]
    assert [e["box"] for e in card if e["section"]] == [section[0] for section in sections]


def test_only_waste_boxes_are_marked_instead_of_valued():
    for slug in CARD_GAMES:
        marked = {e["box"] for e in rulebook.examples(slug)["card"] if e["mark"]}
        assert marked == (set(triple_yahtzee_99.WASTE) if slug == triple_yahtzee_99.slug else set())


def test_painted_dice_carry_the_engines_colour_letter():
    data = rulebook.examples(painted_dicez.slug)
    assert [(d["colour"], d["letter"]) for d in data["letters"]] == list(painted_dicez.COLOUR_LETTERS.items())
    for e in die_examples(data):
        for (_, colour), shown in zip(e["dice"], e["shown"], strict=True):
            assert shown["letter"] == painted_dicez.COLOUR_LETTERS[colour]


def test_farkle_options_are_the_engines():
    data = rulebook.examples("farkle")
    assert data["goals"] == list(farkle.GOALS)
    assert data["dice_counts"] == list(farkle.DICE_COUNTS)
    assert data["bank_minimum"] == farkle.BANK_MINIMUM
    # Every goal and dice count the page offers is one the engine accepts; the first is its default.
    for goal in data["goals"]:
        assert farkle.new_game(["a"], {"goal": goal})["goal"] == goal
    for n in data["dice_counts"]:
        assert farkle.new_game(["a"], {"dice": n})["dice_count"] == n
    assert farkle.new_game(["a"])["goal"] == data["default_goal"]


def test_each_farkle_turn_starts_from_nothing():
    """Bob's turn in the last lap counts his own points, not Ann's banked ones."""
    rows = rulebook.examples("farkle")["laps"]["rows"]
    assert [(r["player"], r["turn"], r["banked"]) for r in rows] == [
        ("ann", 0, 0),
        ("ann", 10000, 10000),
        ("bob", 0, 0),
        ("bob", 600, 600),
    ]
