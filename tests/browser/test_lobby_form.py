"""The lobby's forms show the fields that apply to the choice made, and "Play solo now" lands on the
form that starts a solo game; at 1280x800 and as a phone, English and German."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, _shot, open_as  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser

ONLY_WITH_OTHERS = ("id_computers", "id_strength", "id_pace", "id_group", "id_absence_limit")


@pytest.mark.parametrize(
    ("language", "device", "scheme"), [("en", "desktop", "light"), ("de", "phone", "dark")]
)
def test_the_new_game_form_shows_what_applies(open_as, make_user, language, device, scheme):  # noqa: F811
    ann = make_user("ann", language=language)
    page = open_as(ann, DESKTOP if device == "desktop" else PHONE, scheme)
    page.goto("/games/")
    form = page.locator("#new-game-form")
    expect(form.locator("#id_absence_limit")).to_be_visible()
    form.locator("#id_pace").select_option("days-1")
    expect(form.locator("#id_absence_limit")).to_be_hidden()  # over days the turn limit is the days
    form.locator("#id_pace").select_option("live")
    expect(form.locator("#id_absence_limit")).to_be_visible()
    form.locator("#id_seats").fill("1")
    for field_id in ONLY_WITH_OTHERS:
        expect(form.locator(f"#{field_id}")).to_be_hidden()
    expect(form.locator("#id_goal")).to_be_hidden()  # Triple Quintzee has no goal
    form.locator("#id_kind").select_option("farkle")
    expect(form.locator("#id_goal")).to_be_visible()
    _shot(page, f"lobby-solo-fields-{language}-{device}-{scheme}")
    form.locator("#id_goal").select_option("5000")
    form.get_by_role("button").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game = off_loop(lambda: Game.objects.filter(creator=ann).latest("pk"))
    assert (game.max_seats, game.options["goal"], game.group_id) == (1, 5000, None)


@pytest.mark.parametrize(("language", "device"), [("en", "phone"), ("de", "desktop")])
def test_the_quick_game_against_the_computer_has_the_farkle_goal(open_as, make_user, language, device):  # noqa: F811
    ann = make_user("ann", language=language)
    page = open_as(ann, DESKTOP if device == "desktop" else PHONE)
    page.goto("/games/")
    form = page.locator("#computer-form")
    expect(form.locator("#computer-goal")).to_be_hidden()
    form.locator("#computer-kind").select_option("farkle")
    form.locator("#computer-goal").select_option("3000")
    form.get_by_role("button").click()
    expect(page.locator("h1")).to_contain_text("Farkle (3000)")
    game = off_loop(lambda: Game.objects.filter(creator=ann).latest("pk"))
    assert (game.max_seats, game.options["goal"]) == (2, 3000)


@pytest.mark.parametrize(("language", "heading"), [("en", "Play solo"), ("de", None)])
def test_play_solo_now_lands_on_the_solo_form(open_as, make_user, language, heading):  # noqa: F811
    ann = make_user("ann", language=language)
    page = open_as(ann, PHONE)
    page.goto("/games/?seats=1")  # where "Play solo now" leads (tests/games/test_site_pages.py)
    first = page.locator("h1")
    expect(first).to_have_count(1)
    if heading:
        expect(first).to_have_text(heading)
    # A form of its own for a solo table: one seat, none of what needs others.
    expect(page.locator("#solo-form input[name=seats]")).to_have_value("1")
    for name in ("computers", "strength", "pace", "group", "absence_limit"):
        expect(page.locator(f"#solo-form [name={name}]")).to_have_count(0)
    # The solo form is the first card on the page.
    box = page.locator("#solo-form").bounding_box()
    assert box["y"] < page.locator("#computer-form").bounding_box()["y"]
    assert box["y"] < page.locator("#new-game-form").bounding_box()["y"]


@pytest.mark.parametrize(
    ("language", "device", "scheme"), [("en", "desktop", "light"), ("de", "phone", "dark")]
)
def test_a_second_tab_with_the_used_commitment_is_told_and_shown_a_new_one(
    open_as,  # noqa: F811
    make_user,
    language,
    device,
    scheme,
):
    """Two tabs of the lobby show one commitment; the first creates the game with it. The second is
    refused with the reason and a new commitment (the page again, 409), and its form sent again
    creates a game with the commitment that page showed."""
    ann = make_user("ann", language=language)
    first = open_as(ann, DESKTOP if device == "desktop" else PHONE, scheme)
    second = first.context.new_page()
    first.goto("/games/")
    second.goto("/games/")
    committed = first.locator("#fair-next code").inner_text()
    assert second.locator("#fair-next code").inner_text() == committed
    first.locator("#new-game-form").get_by_role("button").click()
    expect(first).to_have_url(re.compile(r"/games/\d+/$"))
    with second.expect_navigation() as refused:
        second.locator("#new-game-form").get_by_role("button").click()
    assert refused.value.status == 409
    error = "has been used by another game of yours" if language == "en" else "schon von einem anderen deiner"
    expect(second.locator(".messages")).to_contain_text(error)
    expect(second.get_by_text(error)).to_have_count(1)
    fresh = second.locator("#fair-next code").inner_text()
    assert fresh != committed
    _shot(second, f"lobby-commitment-used-{language}-{device}-{scheme}")
    second.locator("#new-game-form").get_by_role("button").click()
    expect(second).to_have_url(re.compile(r"/games/\d+/$"))
    games = off_loop(lambda: sorted(g.seed_commitment for g in Game.objects.filter(creator=ann)))
    assert games == sorted([committed, fresh])
