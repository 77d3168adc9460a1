"""A finished public game's link, opened by a visitor without an account: its replay, every roll checked
against the revealed seed in the visitor's own browser, a word of what the page is and the way in. At
1280x800 and as a 390x844 touch phone, light and dark, English and German, without an axe violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from chat import services as chat
from games.models import Game
from games.tables import services as tables
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, _overflow, _shot, open_as  # noqa: F401 (the fixture)
from tests.e2e.axe import axe_violations
from tests.factories import GameFactory

pytestmark = pytest.mark.browser

WORDS = {
    "en": {
        "note": "A finished game of Farkle",
        "sign_up": "Sign up to play it yourself",
        "ok": "rolls matches",
    },
    "de": {
        "note": "Eine beendete Partie Farkle",
        "sign_up": "Registrieren und selbst spielen",
        "ok": "Würfe",
    },
}


def _finished(ann, bob) -> Game:
    def make():
        game = GameFactory(creator=ann, players=[bob], moved=True, options={"goal": 3000})
        chat.post_to_game(game_id=game.pk, user=bob, text="for the players only")
        tables.game_apply_action(game_id=game.pk, user=bob, client_id="gone", action={"type": "resign"})
        return game

    return off_loop(make)


@pytest.mark.parametrize(
    ("device", "scheme", "language"), [("desktop", "light", "en"), ("phone", "dark", "de")]
)
def test_a_visitor_opens_a_finished_games_link_and_reads_its_replay(
    open_as,  # noqa: F811
    make_user,
    device,
    scheme,
    language,
):
    game = _finished(make_user("ann"), make_user("bob"))
    page = open_as(None, DESKTOP if device == "desktop" else PHONE, scheme, locale=language)
    page.goto(f"/games/{game.pk}/")
    page.wait_for_url(f"**/games/{game.pk}/replay/")
    words = WORDS[language]
    expect(page.locator("#visitor-note")).to_contain_text(words["note"])
    expect(page.locator("#visitor-note").get_by_role("link", name=words["sign_up"])).to_be_visible()
    check = page.locator("#fair-check")
    expect(check).to_have_attribute("data-result", "ok")
    expect(check).to_contain_text(words["ok"])
    expect(page.locator("body")).not_to_contain_text("for the players only")
    expect(page.locator("#report-game")).to_have_count(0)
    assert not _overflow(page) and axe_violations(page) == []
    _shot(page, f"public-replay-{device}-{language}-{scheme}")


@pytest.mark.parametrize(("device", "scheme"), [("desktop", "dark"), ("phone", "light")])
def test_a_visitor_reads_a_players_profile_and_the_rating_list(open_as, make_user, device, scheme):  # noqa: F811
    game = _finished(make_user("ann"), make_user("bob"))
    page = open_as(None, DESKTOP if device == "desktop" else PHONE, scheme)
    page.goto("/players/ann/")
    expect(page.locator("#visitor-note")).to_contain_text("Sign up to challenge ann")
    expect(page.locator(f"a[href='/games/{game.pk}/replay/']").first).to_be_attached()
    expect(page.locator("#challenge-form")).to_have_count(0)
    assert not _overflow(page) and axe_violations(page) == []
    _shot(page, f"public-profile-{device}-{scheme}")
    page.goto("/ratings/?kind=farkle")
    expect(page.locator("h1")).to_be_visible()
    assert not _overflow(page) and axe_violations(page) == []
    _shot(page, f"public-ratings-{device}-{scheme}")
