"""The rules pages: they render for anyone, and every number they show comes from the engine."""

from __future__ import annotations

import html
import itertools

import pytest
from django.urls import reverse

from games import catalogue, rulebook, rules

# base.html reads request.user; the pages themselves never query the database.
pytestmark = pytest.mark.django_db

SLUGS = ["triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee", "farkle"]
CARD_GAMES = ["triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee"]


def test_every_game_has_a_page_of_its_own():
    assert list(rules.ENGINES) == SLUGS


def page(client, slug: str):
    response = client.get(reverse("games:rules", args=[slug]))
    assert response.status_code == 200
    return response, html.unescape(response.content.decode())


def die_examples(data):
    """Every example with dice anywhere in the examples data (they all carry a ``shown`` key)."""
    if isinstance(data, dict):
        if "shown" in data:
            yield data
        for value in data.values():
            yield from die_examples(value)
    elif isinstance(data, list):
        for value in data:
            yield from die_examples(value)


def num(value) -> str:
    return f'<td class="num">{value}</td>'


def by_box(examples, box, dice=None):
    found = [e for e in examples if e["box"] == box and (dice is None or e["dice"] == dice)]
    assert found, f"no example for {box} {dice}"
    return found[0]


# --- every page --------------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_page_renders_for_an_anonymous_visitor(client, slug):
    response, text = page(client, slug)
    assert f"games/rules/{slug}.html" in [t.name for t in response.templates]
    kind = catalogue.kind(slug)
    assert f'<h1 id="rules-title">{kind.name}: how to play</h1>' in text
    assert f'href="{reverse("games:lobby")}?kind={slug}"' in response.content.decode()
    assert f"Play {kind.name}" in text
    assert "How this site decides" in text


@pytest.mark.parametrize("slug", SLUGS)
def test_headings_go_in_order(client, slug):
    _, text = page(client, slug)
    main = text[text.index("<main") :]
    levels = [
        int(main[i + 2]) for i in range(len(main) - 2) if main.startswith("<h", i) and main[i + 2].isdigit()
    ]
    assert levels[0] == 1
    assert levels.count(1) == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels)), levels


@pytest.mark.parametrize("slug", SLUGS)
def test_every_example_has_labelled_dice(client, slug):
    _, text = page(client, slug)
    for e in die_examples(rulebook.examples(slug)):
        if e["dice"]:
            assert f'aria-label="{e["aria"]}"' in text


def test_unknown_slug_is_404(client):
    assert client.get("/games/snakes-and-ladders/rules/").status_code == 404


def test_examples_are_computed_once_per_slug():
    assert rulebook.examples("farkle") is rulebook.examples("farkle")
    with pytest.raises(KeyError):
        rulebook.examples("snakes-and-ladders")


# --- the numbers come from the engine ----------------------------------------------------------------


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_card_game_examples_match_engine_score(client, slug):
    engine = rules.get(slug)
    ex = rulebook.examples(slug)
    checked = 0
    for e in die_examples(ex):
        if e["box"]:
            # Quintzee's Joker: the box's value as a Joker (engine.score is the value without it).
            score = engine.joker_score if e.get("joker") else engine.score
            assert e["value"] == score(e["box"], e["dice"]), e
            checked += 1
    assert checked >= 30
    # The scorecard (the page's first table) shows every box with its engine value.
    _, text = page(client, slug)
    start = text.index("<table")
    card = text[start : text.index("</table>", start)]
    for e in ex["card"]:
        row = card[card.index(f'<th scope="row">{e["label"]}</th>') :]
        shown = "X" if e["box"].startswith("waste") else e["value"]
        assert num(shown) in row[: row.index("</tr>")], e["box"]


def test_farkle_examples_match_engine_score(client):
    engine = rules.get("farkle")
    ex = rulebook.examples("farkle")
    for e in ex["table"] + ex["rulings"] + ex["sets"]:
        assert e["value"] == engine.score(e["dice"])
    for e in ex["rolls"]:
        assert e["farkle"] == (not engine.has_score(e["dice"]))
    for story in (ex["minimum"], ex["hot_lost"], ex["hot_kept"], ex["laps"]["rows"]):
        for row in story:
            kept = row["kept"]
            assert kept["value"] == (engine.score(kept["dice"]) if kept["dice"] else 0)
            if row["rolled"]:
                assert row["rolled"]["farkle"] == (not engine.has_score(row["rolled"]["dice"]))
    _, text = page(client, "farkle")
    for e in ex["table"] + ex["rulings"]:
        assert num(e["value"]) in text


# --- hand-checked values from RULINGS.md ------------------------------------------------------------


def test_triple_quintzee_hand_checked(client):
    ex = rulebook.examples("triple-quintzee")
    fh = ex["right_most"]
    assert fh["dice"] == [2, 2, 2, 5, 5]
    assert (fh["value"], fh["column"], fh["gain"]) == (25, 3, 75)
    assert [e["gain"] for e in ex["right_most_more"]] == [0, 50]
    assert by_box(ex["examples"], "three_of_a_kind", [3, 3, 3, 3, 3])["value"] == 15
    assert by_box(ex["examples"], "large_straight", [4, 4, 4, 4, 4])["value"] == 0
    assert by_box(ex["examples"], "small_straight", [3, 4, 5, 6, 6])["value"] == 30
    assert by_box(ex["examples"], "large_straight", [1, 2, 3, 4, 5])["value"] == 40
    top = ex["top_bonus"]
    assert (top["subtotal"], top["bonus"], top["total"]) == (63, 35, 196)
    assert ex["on_track"]["number"] == (2 - 3) + (20 - 15) + (12 - 18)
    # 150 + 100 + 50 for the Quintzee boxes, then (20 + 100) x 2, a 0, then (25 + 100) x 3.
    assert [e["gain"] for e in ex["quintzee_bonus"]] == [150, 100, 50, 240, 0, 375]

    _, text = page(client, "triple-quintzee")
    assert num(75) in text
    assert 'aria-label="dice 2 2 2 5 5"' in text
    assert "2 \N{MULTIPLICATION SIGN} (63 + 35) = <strong>196</strong>" in text
    assert "<strong>-2</strong>" in text
    assert num(240) in text and num(375) in text


def test_quintzee_hand_checked(client):
    ex = rulebook.examples("quintzee")
    assert by_box(ex["examples"], "full_house", [3, 3, 3, 3, 3])["value"] == 0
    assert by_box(ex["examples"], "three_of_a_kind", [3, 3, 3, 3, 3])["value"] == 15
    top = ex["top_bonus"]
    assert (top["subtotal"], top["bonus"], top["total"]) == (63, 35, 98)
    turns = ex["bonus_turns"]
    # 50; five 4s in Fours 20 + 100; as a Joker in Full House 25 + 100; five 2s, no Joker, 0 + 100.
    assert [(e["box"], e["value"], e["gain"], e["joker"]) for e in turns] == [
        ("quintzee", 50, 50, False),
        ("fours", 20, 120, False),
        ("full_house", 25, 125, True),
        ("large_straight", 0, 100, False),
    ]
    assert [e["running"] for e in turns] == [50, 170, 295, 395]

    _, text = page(client, "quintzee")
    assert "Top subtotal 63, so the bonus of 35 is added: <strong>98</strong>" in text
    assert "it scores 25 as a Full House, 30 as a Small Straight and 40 as a Large Straight" in " ".join(
        text.split()
    )
    assert num(125) in text and num(395) in text


def test_triple_yahtzee_99_hand_checked(client):
    ex = rulebook.examples("triple-yahtzee-99")
    pairs = {tuple(e["dice"]): e["value"] for e in ex["two_pairs"]}
    assert pairs[(4, 4, 4, 4, 2)] == 16
    assert pairs[(3, 3, 3, 6, 6)] == 18
    assert pairs[(2, 2, 3, 4, 5)] == 0
    houses = {tuple(e["dice"]): e["value"] for e in ex["full_house"]}
    assert houses[(2, 2, 2, 3, 3)] == 25
    assert houses[(6, 6, 6, 5, 5)] == 28
    assert houses[(6, 6, 6, 6, 6)] == 30
    faces = {e["face"]: (e["yahtzee"], e["bonus"], e["small"], e["large"]) for e in ex["by_face"]}
    assert faces == {
        1: (50, 100, 30, 40),
        2: (50, 100, 30, 40),
        3: (50, 100, 30, 40),
        4: (60, 120, 35, 40),
        5: (60, 120, 35, 50),
        6: (75, 150, 40, 50),
    }
    assert [(t["subtotal"], t["bonus"]) for t in ex["tiers"]] == [(62, 0), (63, 35), (70, 50), (76, 70)]
    assert ex["yahtzee_bonus_refused_early"] is True
    assert [e["gain"] for e in ex["yahtzee_bonus"]] == [50, 100, 150, 150, 240]
    assert ex["waste"]["gain"] == 0
    up = ex["upgrade"]
    assert up["raw"] == 269
    multipliers = {o["title"]: [c["multiplier"] for c in o["columns"]] for o in up["orders"]}
    assert multipliers == {
        "Left to right": [2, 3, 5],  # columns 1, 2, 3
        "Column 3 first": [3, 2, 3],  # columns 3, 1, 2: only column 3 misses out
        "Column 2 first": [2, 2, 3],  # columns 2, 1, 3: column 2 blocks itself and column 3
    }
    assert [o["total"] for o in up["orders"]] == [269 * 10, 269 * 8, 269 * 7]

    _, text = page(client, "triple-yahtzee-99")
    for total in (2690, 2152, 1883):
        assert num(total) in text
    assert num(28) in text and num(150) in text


def test_painted_dicez_hand_checked(client):
    ex = rulebook.examples("painted-dicez")
    houses = {e["box"]: e["value"] for e in ex["houses"]}
    assert houses == {"painted_house": 0, "flush": 50, "four_of_a_color": 20, "full_house": 0}
    kinds = {e["box"]: e["value"] for e in ex["kinds"]}
    assert kinds == {"full_house": 0, "dicez": 50, "rainbow": 40, "four_of_a_kind": 25}
    assert [e["value"] for e in ex["rainbow"]] == [40, 40]
    colours = {e["box"]: e["value"] for e in ex["colours"]}
    assert colours == {"blues": 9, "greens": 7, "reds": 6, "sixes": 12, "pinks": 0}
    for bonus in (ex["upper_bonus"], ex["colour_bonus"]):
        assert (bonus["subtotal"], bonus["bonus"], bonus["total"]) == (63, 35, 98)

    _, text = page(client, "painted-dicez")
    # Colour is shown twice: as a class (the background) and as a letter.
    assert '<span class="die die-blue">4<span class="die-letter">B</span></span>' in text
    assert 'aria-label="dice 4 blue, 4 blue, 4 blue, 2 blue, 6 blue"' in text
    for letter, colour in (("B", "blue"), ("R", "red"), ("P", "pink"), ("G", "green"), ("Y", "yellow")):
        assert f"{letter} = {colour}" in text


def test_farkle_hand_checked(client):
    ex = rulebook.examples("farkle")
    stated = {
        (1, 1, 1, 4, 4): 2000,
        (2, 2, 2, 5, 5): 400,
        (5, 5): 100,
        (2, 2, 2, 3, 3, 3): 1000,
        (2, 3, 4, 5, 6, 5): 550,
        (1, 1, 1, 1, 1): 10000,
        (2, 3): 0,
    }
    assert {tuple(e["dice"]): e["value"] for e in ex["rulings"]} == stated
    table = {e["name"]: e["value"] for e in ex["table"]}
    assert table["Single 1"] == 100
    assert table["Single 5"] == 50
    assert table["Three 1s"] == 1000
    assert table["Six 1s"] == 20000
    assert table["Three pairs"] == 1000
    assert table["Straight 1 to 6"] == 1000
    assert table["Straight 2 to 6"] == 500

    minimum = ex["minimum"]
    assert [r["can_bank"] for r in minimum] == [None, False, False, True]
    assert [r["turn"] for r in minimum] == [0, 100, 200, 400]
    assert minimum[-1]["banked"] == 400

    assert ex["hot_bank_refused"] is True
    assert ex["hot_turn"] == 1200
    assert ex["hot_lost"][-1]["rolled"]["farkle"] is True
    assert ex["hot_lost_points"] == 1200
    assert ex["hot_lost_total"] == 0
    assert ex["hot_kept"][-1]["banked"] == 1250

    laps = ex["laps"]
    assert laps["scores"] == {"ann": 10000, "bob": 600}
    assert laps["over_after_one_lap"] is True
    assert ex["goals"] == [10000, 5000, 3000]
    assert ex["dice_counts"] == [6, 5]

    _, text = page(client, "farkle")
    for value in stated.values():
        assert num(value) in text
    assert "<strong>Farkle!</strong> 1200 lost" in text
    assert num(1250) in text
    assert "10000, 5000 or 3000" in text
