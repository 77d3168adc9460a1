"""Beside another member's line of a group's chat, on the page and when it arrives live: mute its writer
(for oneself, at every table and in every group) and report the line; none beside one's own. At 1280x800
and as a 390x844 touch phone, light and dark, English and German, without an axe violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from chat import services as chat
from groups import services as groups
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, _overflow, _shot, open_as  # noqa: F401 (the fixture)
from tests.e2e.axe import axe_violations

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"mute": "Mute dave", "report": "Report dave's message"},
    "de": {"mute": "dave stummschalten", "report": "Nachricht von dave melden"},
}


@pytest.mark.parametrize(
    ("device", "scheme", "language"), [("desktop", "light", "en"), ("phone", "dark", "de")]
)
def test_a_members_line_has_mute_and_report_beside_it_live_and_muting_hides_them(
    open_as,  # noqa: F811
    make_user,
    device,
    scheme,
    language,
):
    dave, eve = make_user("dave"), make_user("eve", language=language)
    group = off_loop(groups.group_create, creator=dave, name="Dice nights")
    off_loop(groups.group_add_member, group_id=group.pk, user=dave, username="eve")
    off_loop(chat.post_to_group, group_id=group.pk, user=eve, text="hello all")
    off_loop(chat.post_to_group, group_id=group.pk, user=dave, text="on the page")
    page = open_as(eve, DESKTOP if device == "desktop" else PHONE, scheme)
    page.goto(f"/groups/{group.pk}/")
    words = WORDS[language]
    lines = page.locator("#group-chat li")
    own, on_page = lines.nth(0), lines.nth(1)
    expect(on_page).to_contain_text("on the page")
    expect(own.get_by_role("button", name=words["mute"])).to_have_count(0)
    expect(own.locator("a[href*='/safety/']")).to_have_count(0)
    expect(on_page.get_by_role("button", name=words["mute"])).to_be_visible()
    # The header's socket answered its handshake (notices.js marks #notices): the next line arrives live.
    expect(page.locator("#notices[data-count]")).to_have_count(1)
    off_loop(chat.post_to_group, group_id=group.pk, user=dave, text="rude words")
    live = page.locator("#group-chat li", has_text="rude words")
    expect(live).to_be_visible()
    expect(live.get_by_role("button", name=words["mute"])).to_be_visible()
    report = live.get_by_role("link", name=words["report"])
    back = f"next=%2Fgroups%2F{group.pk}%2F"
    expect(report).to_have_attribute("href", f"/safety/report/dave/?message={_last_id(group)}&{back}")
    expect(on_page.get_by_role("link", name=words["report"])).to_have_attribute(
        "href", f"/safety/report/dave/?message={_last_id(group) - 1}&{back}"
    )
    assert not _overflow(page) and axe_violations(page) == []
    _shot(page, f"group-chat-tools-{device}-{language}-{scheme}")
    live.get_by_role("button", name=words["mute"]).click()
    page.wait_for_url(f"**/groups/{group.pk}/#chat")
    expect(page.locator("#group-chat")).not_to_contain_text("rude words")
    expect(page.locator("#group-chat")).not_to_contain_text("on the page")
    expect(page.locator("#group-chat")).to_contain_text("hello all")


def _last_id(group) -> int:
    from chat.models import Message

    return off_loop(lambda: Message.objects.filter(group=group).latest("pk").pk)
