"""games/display.py: the score sheets the browser draws every card game from agree with the engines."""

from __future__ import annotations

import pytest

from games import display, rules
from games.rules import cardgame

CARD_GAMES = [slug for slug in rules.ENGINES if slug != "farkle"]


def box_rows(sheet: dict) -> list[dict]:
    return [row for row in sheet["rows"] if "box" in row]


def test_every_game_has_a_view_and_only_the_card_games_a_sheet():
    assert set(display.VIEWS) == set(rules.ENGINES)
    assert display.view_of("farkle") == "farkle" and display.sheet_of("farkle") is None
    for slug in CARD_GAMES:
        assert display.view_of(slug) == "cards"


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_a_sheet_lists_every_box_of_its_engine_in_card_order(slug):
    engine = rules.get(slug)
    sheet = display.sheet_of(slug)
    assert [row["box"] for row in box_rows(sheet)] == list(engine.BOXES)
    assert (sheet["dice"], sheet["rolls"]) == (cardgame.DICE, cardgame.MAX_ROLLS)


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_a_sheet_prints_the_engines_labels_but_for_the_waste_rows(slug):
    engine = rules.get(slug)
    for row in box_rows(display.sheet_of(slug)):
        if row.get("waste"):
            assert row["label"] == "Waste-A-Turn"
        else:
            assert row["label"] == engine.LABELS[row["box"]]


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_every_sum_row_reads_a_figure_the_engine_keeps(slug):
    state = rules.get(slug).new_game(["ann"])
    card = state["cards"]["ann"]
    sheet = display.sheet_of(slug)
    column = card if sheet["columns"] == 1 else card["columns"][0]
    assert sheet["columns"] == (1 if "boxes" in card else len(card["columns"]))
    for row in sheet["rows"]:
        if "field" in row:
            assert row["field"] in column, row


def test_only_the_triple_games_say_why_a_score_moves():
    moved = {
        (slug, row["box"]): row["moves"]
        for slug in CARD_GAMES
        for row in box_rows(display.sheet_of(slug))
        if "moves" in row
    }
    quintzee = rules.get("triple-quintzee")
    assert {box for slug, box in moved if slug == "triple-quintzee"} == set(quintzee.RIGHT_MOST)
    assert [box for slug, box in moved if slug == "triple-yahtzee-99"] == ["yahtzee_bonus"]
    assert not any(slug == "painted-dicez" for slug, _ in moved)
