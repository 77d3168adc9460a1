"""The dice template tags draw plain and painted dice with the markup the pages and their CSS expect."""

from __future__ import annotations

from django.template import Context, Template

from games.rulebook.shared import example, shown_die


def render(source: str, **context) -> str:
    return Template("{% load dice %}" + source).render(Context(context))


def test_a_row_of_plain_dice():
    html = render("{% dice e %}", e=example([2, 5], 0))
    assert html == (
        '<span class="dice" role="img" aria-label="dice 2 5">'
        '<span class="die">2</span><span class="die">5</span></span>'
    )


def test_a_row_of_painted_dice_shows_colour_as_class_and_letter():
    html = render("{% dice e %}", e=example([[4, "blue"], [1, "yellow"]], 0))
    assert html == (
        '<span class="dice" role="img" aria-label="dice 4 blue, 1 yellow">'
        '<span class="die die-blue">4<span class="die-letter">B</span></span>'
        '<span class="die die-yellow">1<span class="die-letter">Y</span></span></span>'
    )


def test_one_die_may_be_hidden_from_screen_readers():
    assert render("{% die d %}", d=shown_die(3)) == '<span class="die">3</span>'
    assert render("{% die d hidden=True %}", d=shown_die([6, "red"])) == (
        '<span class="die die-red" aria-hidden="true">6<span class="die-letter">R</span></span>'
    )


def test_the_accessible_name_is_escaped():
    row = {"shown": [shown_die(1)], "aria": 'dice "1"'}
    assert 'aria-label="dice &quot;1&quot;"' in render("{% dice e %}", e=row)
