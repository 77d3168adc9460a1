"""Deleting one's account in a real browser: the profile's links, the page that says what goes and what
stays, a wrong password refused beside its field, then the account gone and the visitor signed out; at
1280x800 and on a 390x844 touch phone, light and dark, without an axe violation or sideways scrolling.
Screenshots: artifacts/screenshots/account/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from tests.browser.fixtures import SHOTS
from tests.browser.helpers import off_loop
from tests.browser.test_site_ui import DESKTOP, PHONE, open_as  # noqa: F401 - open_as is a fixture
from tests.e2e.axe import axe_violations
from tests.factories import PASSWORD

SHOTS_DIR = SHOTS / "account"


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


@pytest.mark.parametrize(
    ("device", "scheme"), [(DESKTOP, "light"), (DESKTOP, "dark"), (PHONE, "light"), (PHONE, "dark")]
)
def test_a_player_deletes_their_account_from_the_profile(open_as, make_user, device, scheme):  # noqa: F811
    ann = make_user("ann", email="ann@example.com")
    open_as.allow(r"status of 400")  # the browser logs the refused password's answer (Bad Request)
    page = open_as(ann, device, scheme)
    name = f"{'phone' if device is PHONE else 'desktop'}-{scheme}"
    page.goto("/accounts/profile/")
    page.get_by_role("link", name="Delete your account").click()
    expect(page.get_by_role("heading", name="Delete your account")).to_be_visible()
    expect(page.get_by_role("link", name="Download your data first")).to_have_attribute(
        "href", "/accounts/data.json"
    )
    assert not axe_violations(page) and no_sideways_scroll(page)
    SHOTS_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS_DIR / f"delete-{name}.png"), full_page=True)
    page.get_by_label("Your password").fill("not my password")
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_text("That is not your password.")).to_be_visible()
    assert not axe_violations(page)
    page.screenshot(path=str(SHOTS_DIR / f"delete-refused-{name}.png"), full_page=True)
    page.get_by_label("Your password").fill(PASSWORD)
    page.get_by_role("button", name="Delete my account").click()
    expect(page.get_by_text("Your account is deleted.")).to_be_visible()
    page.screenshot(path=str(SHOTS_DIR / f"deleted-{name}.png"), full_page=True)
    gone = off_loop(User.objects.get, pk=ann.pk)
    assert gone.username.startswith("deleted-") and gone.email == ""
