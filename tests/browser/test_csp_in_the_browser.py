"""The Content-Security-Policy in Chromium: a script slipped into a page does not run and is
reported, and Django's admin works under the policy with no violation. Every other browser test and
journey fails on a violation too (ConsoleWatch, tests/browser/helpers.py)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Error, Page, expect

from tests.browser.helpers import ConsoleWatch, sign_in


@pytest.fixture
def watched(browser, server, transactional_db):
    """watched(user or None) -> (a page on the server signed in as the user, its ConsoleWatch)."""
    contexts = []

    def make(user) -> tuple[Page, ConsoleWatch]:
        context = browser.new_context(base_url=server)
        contexts.append(context)
        if user is not None:
            sign_in(context, user, server)
        watch = ConsoleWatch()
        page = watch.watch(context.new_page(), user.username if user else "visitor")
        page.set_default_timeout(10_000)
        return page, watch

    yield make
    for context in contexts:
        context.close()


def reported(page: Page, watch: ConsoleWatch, *reports: str, wait: float = 5.0) -> None:
    """Waits until each report has reached the test (the page hands them over asynchronously)."""
    deadline = time.monotonic() + wait
    while not all(any(r in v for v in watch.violations) for r in reports) and time.monotonic() < deadline:
        page.wait_for_timeout(50)


def test_an_injected_inline_script_is_refused_and_reported(watched, make_user):
    page, watch = watched(make_user("ann"))
    response = page.goto("/games/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe" not in policy
    expect(page.locator("h1").first).to_be_visible()
    assert not watch.problems, watch.problems  # the page itself keeps to the policy

    # What a cross-site scripting hole would add to a page: an inline script. (Playwright's own
    # evaluate() is exempt from the policy, as DevTools is, so eval is checked in the header only.)
    with pytest.raises(Error, match="Content Security Policy"):
        page.add_script_tag(content="window.injected = true;")
    assert page.evaluate("window.injected") is None
    reported(page, watch, "script-src-elem refused inline")
    assert any("script-src-elem refused inline" in v for v in watch.violations), watch.violations
    assert any("CSP violation (console)" in p for p in watch.problems), watch.problems


def test_the_admin_works_under_the_policy(watched, make_user):
    """Signed in through the admin's own form (form-action 'self' after its redirect), the players'
    list and search, a player's page with the two-box group and permission pickers (SelectFilter2),
    the new player's page, and not one violation or console error."""
    root = make_user("root", is_staff=True, is_superuser=True)
    make_user("bob")
    page, watch = watched(None)
    # The admin's pages link no icon, so Chromium asks for /favicon.ico, which the site does not have:
    # that 404, and no other, is expected.
    missing = []
    page.on("response", lambda r: r.status == 404 and missing.append(r.url))
    watch.allow(r"Failed to load resource: the server responded with a status of 404")
    page.goto("/admin/")
    page.fill("#id_username", "root")
    page.fill("#id_password", "correct-horse-battery")
    page.click("input[type=submit]")
    expect(page.locator("#site-name")).to_be_visible()
    page.click("a[href='/admin/accounts/user/']")
    page.fill("#searchbar", "bob")
    page.press("#searchbar", "Enter")
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    page.click("#result_list a:text-is('bob')")
    # SelectFilter2 draws its two boxes from the plain select: the admin's scripts ran.
    expect(page.locator("#id_user_permissions_from")).to_be_visible()
    page.click("#id_user_permissions_add_all")
    assert page.locator("#id_user_permissions_to option").count() > 0
    page.goto("/admin/accounts/user/add/")
    expect(page.locator("#id_username")).to_be_visible()
    page.goto(f"/admin/accounts/user/{root.pk}/password/")
    expect(page.locator("#id_password1")).to_be_visible()
    page.wait_for_timeout(300)  # lets any late report arrive
    watch.check()
    assert {url.rsplit("/", 1)[1] for url in missing} <= {"favicon.ico"}, missing
