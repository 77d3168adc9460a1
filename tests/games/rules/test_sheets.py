"""The score sheets the card engines declare (SHEET), which the browser draws every card game from, agree
with the engines' boxes, labels and cards."""

from __future__ import annotations

import pytest

from games import rules
from games.rules import cardgame

CARD_GAMES = [slug for slug, engine in rules.ENGINES.items() if engine.view == "cards"]


def box_rows(sheet: dict) -> list[dict]:
    return [row for row in sheet["rows"] if "box" in row]


def test_every_game_has_a_view_and_only_the_card_games_a_sheet():
    farkle = rules.get("farkle")
    assert farkle.view == "farkle" and farkle.SHEET is None
    for slug in CARD_GAMES:
        assert rules.get(slug).SHEET is not None


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_a_sheet_lists_every_box_of_its_engine_in_card_order(slug):
    engine = rules.get(slug)
    sheet = rules.get(slug).SHEET
    assert [row["box"] for row in box_rows(sheet)] == list(engine.BOXES)
    assert (sheet["dice"], sheet["rolls"]) == (cardgame.DICE, cardgame.MAX_ROLLS)


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_a_sheet_prints_the_engines_labels_but_for_the_waste_rows(slug):
    engine = rules.get(slug)
    for row in box_rows(rules.get(slug).SHEET):
        if row.get("waste"):
            assert row["label"] == "Waste-A-Turn"
        else:
            assert row["label"] == engine.LABELS[row["box"]]


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_every_sum_row_reads_a_figure_the_engine_keeps(slug):
    state = rules.get(slug).new_game(["ann"])
    card = state["cards"]["ann"]
    sheet = rules.get(slug).SHEET
    column = card if sheet["columns"] == 1 else card["columns"][0]
    assert sheet["columns"] == (1 if "boxes" in card else len(card["columns"]))
    for row in sheet["rows"]:
        if "field" in row:
            assert row["field"] in column, row


def test_only_the_triple_games_say_why_a_score_moves():
    moved = {
        (slug, row["box"]): row["moves"]
        for slug in CARD_GAMES
        for row in box_rows(rules.get(slug).SHEET)
        if "moves" in row
    }
    quintzee = rules.get("triple-quintzee")
    assert {box for slug, box in moved if slug == "triple-quintzee"} == set(quintzee.RIGHT_MOST)
    assert [box for slug, box in moved if slug == "triple-yahtzee-99"] == ["yahtzee_bonus"]
    assert not any(slug == "painted-dicez" for slug, _ in moved)
