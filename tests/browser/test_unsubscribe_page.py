"""The turn e-mails' unsubscribe link, followed by a signed-out reader: the page
asks in the player's own language and changes nothing; its button stops the e-mails. At 1280x800 and as
a 390x844 touch phone, light and dark, without an axe violation. Screenshots under
artifacts/screenshots/site/ (git-ignored)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from notices.models import Preferences, preferences_of
from notices.services import unsubscribe_token
from tests.browser.helpers import LOOKS, off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, _overflow, _shot, open_as  # noqa: F401 (the fixture)
from tests.e2e.axe import axe_violations

pytestmark = pytest.mark.browser

WORDS = {
    "en": ("Stop the turn e-mails?", "Stop the turn e-mails", "No more turn e-mails"),
    "de": ("E-Mails zum Zug abbestellen?", "E-Mails zum Zug abbestellen", "Keine E-Mails zum Zug mehr"),
}


def _wants_mail(user) -> bool:
    return off_loop(lambda: preferences_of(user).email_turns)


@pytest.mark.parametrize(("device", "scheme", "language"), LOOKS)
def test_the_link_asks_and_the_button_stops_the_mails(open_as, make_user, device, scheme, language):  # noqa: F811
    # bob chose German on his profile; his browser says English: the page follows the player.
    bob = make_user("bob", email="bob@example.com", language="" if language == "en" else "de")
    asks, button, done = WORDS[language]
    address = f"/notices/unsubscribe/{unsubscribe_token(bob)}/"
    page = open_as(None, DESKTOP if device == "desktop" else PHONE, scheme, locale="en-US")
    open_as.allow(r"status of 400 \(Bad Request\)")  # the changed link below, on purpose

    # A changed link says so, on a visit and on a press alike (in the browser's language: it names
    # nobody), and stops nothing.
    broken = address[:-3] + "xx/"
    assert page.goto(broken).status == 400
    expect(page.get_by_role("heading", level=1)).to_have_text("This link does not work")
    assert page.request.post(broken).status == 400
    if device == "phone":
        _shot(page, f"unsubscribe-broken-{device}-{scheme}")

    page.goto(address)
    expect(page.get_by_role("heading", level=1)).to_have_text(asks)
    expect(page.locator("html")).to_have_attribute("lang", language)
    # Following the link, as a mail scanner does, changes nothing.
    assert not off_loop(Preferences.objects.filter(user=bob).exists)
    assert axe_violations(page) == []
    assert _overflow(page) <= 0
    _shot(page, f"unsubscribe-asks-{device}-{language}-{scheme}")

    page.get_by_role("button", name=button).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(done)
    assert not _wants_mail(bob)
    assert axe_violations(page) == []
    _shot(page, f"unsubscribe-done-{device}-{language}-{scheme}")
