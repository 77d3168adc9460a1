"""Leaving a group, removing a member and deleting a group ask first, in the reader's language, at
1280x800 and as a 390x844 touch phone; a question answered "no" changes nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from groups import services as groups
from groups.models import Membership
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, _shot, open_as  # noqa: F401 (the fixture)

pytestmark = pytest.mark.browser

QUESTIONS = {
    "en": {
        "leave": "Leave the group Dave's table?",
        "remove": "Remove bob from Dave's table?",
        "delete": "Delete this group? Its games and everyone's statistics are kept.",
    },
    "de": {
        "leave": "Die Gruppe „Dave's table“ verlassen?",
        "remove": "bob aus „Dave's table“ entfernen?",
        "delete": "Diese Gruppe löschen? Ihre Partien und die Statistiken aller bleiben erhalten.",
    },
}
BUTTONS = {
    "en": {"leave": "Leave group", "remove": "Remove bob", "delete": "Delete group"},
    "de": {"leave": "Gruppe verlassen", "remove": "bob entfernen", "delete": "Gruppe löschen"},
}


def _answer(page, yes: bool) -> list[str]:
    """The questions the page asks from now on, each answered `yes` or no."""
    asked: list[str] = []

    def on_dialog(dialog):
        asked.append(dialog.message)
        dialog.accept() if yes else dialog.dismiss()

    page.on("dialog", on_dialog)
    return asked


@pytest.mark.parametrize(("language", "device"), [("en", "desktop"), ("de", "phone")])
def test_leaving_removing_and_deleting_ask_first(open_as, make_user, language, device):  # noqa: F811
    size = DESKTOP if device == "desktop" else PHONE
    dave = make_user("dave", language=language)
    bob = make_user("bob", language=language)
    group = off_loop(groups.group_create, creator=dave, name="Dave's table")
    off_loop(groups.group_add_member, group_id=group.pk, user=dave, username="bob")
    words, buttons = QUESTIONS[language], BUTTONS[language]

    member = open_as(bob, size)
    asked = _answer(member, yes=False)
    member.goto(f"/groups/{group.pk}/")
    member.get_by_role("button", name=buttons["leave"]).click()
    expect(member.get_by_role("button", name=buttons["leave"])).to_be_visible()
    assert asked == [words["leave"]]
    assert off_loop(Membership.objects.filter(group=group, user=bob).exists)

    creator = open_as(dave, size, "dark")
    asked = _answer(creator, yes=False)
    creator.goto(f"/groups/{group.pk}/")
    creator.get_by_role("button", name=buttons["remove"]).click()
    expect(creator.get_by_role("button", name=buttons["remove"])).to_be_visible()
    assert asked == [words["remove"]]
    assert off_loop(Membership.objects.filter(group=group, user=bob).exists)
    _shot(creator, f"group-remove-asks-{language}-{device}-dark")

    creator.goto(f"/groups/{group.pk}/edit/")
    creator.get_by_role("button", name=buttons["delete"]).click()
    expect(creator.get_by_role("button", name=buttons["delete"])).to_be_visible()
    assert asked == [words["remove"], words["delete"]]

    # Answered yes, the member is removed.
    confirming = open_as(dave, size)
    asked = _answer(confirming, yes=True)
    confirming.goto(f"/groups/{group.pk}/")
    confirming.get_by_role("button", name=buttons["remove"]).click()
    expect(confirming.get_by_role("button", name=buttons["remove"])).to_have_count(0)
    assert asked == [words["remove"]]
    assert not off_loop(Membership.objects.filter(group=group, user=bob).exists)
