"""The installable app in Chromium: the manifest and the service worker pass Chromium's own
installability checks (DevTools' Page.getInstallabilityErrors, what its install prompt asks), and
when the server is down a page asked for shows the offline page the worker kept. At 1280x800 and as a
390x844 touch phone, light and dark; screenshots under artifacts/screenshots/site/."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.fixtures import Daphne
from tests.browser.helpers import sign_in
from tests.browser.test_site_ui import (  # noqa: F401 (open_as: the fixture)
    DARK_BG,
    DESKTOP,
    LIGHT_BG,
    PHONE,
    _background,
    _overflow,
    _shot,
    open_as,
)
from tests.e2e.axe import axe_violations

pytestmark = pytest.mark.browser

CONTROLLED = (
    "async () => { await navigator.serviceWorker.ready; return !!navigator.serviceWorker.controller; }"
)


def until_controlled(page) -> None:
    """Wait until the worker is active and controls the page (it claims the pages open at its start)."""
    page.wait_for_function(
        "() => navigator.serviceWorker.ready.then(() => !!navigator.serviceWorker.controller)"
    )


def test_chromium_finds_the_site_installable(browser, chromium_path, server, make_user, tmp_path):
    """In a profile of its own: Chromium never offers to install a site from an incognito window, and
    a new context of the tests' browser is one."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile",
        executable_path=chromium_path,
        headless=True,
        args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
        base_url=server,
        **DESKTOP,
    )
    try:
        sign_in(context, make_user("ann"), server)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto("/")
        until_controlled(page)
        devtools = context.new_cdp_session(page)
        manifest = devtools.send("Page.getAppManifest")
        assert manifest["errors"] == [], manifest["errors"]
        assert manifest["url"].endswith("/manifest.webmanifest")
        errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
    finally:
        context.close()


@pytest.mark.parametrize(
    ("device", "scheme"), [("desktop", "light"), ("desktop", "dark"), ("phone", "light"), ("phone", "dark")]
)
def test_with_the_server_down_a_page_shows_the_offline_page(
    browser, server_env, transactional_db, make_user, device, scheme
):
    ann = make_user("ann")
    site = Daphne(server_env, log_name="daphne-offline.log")
    context = browser.new_context(
        base_url=site.url, color_scheme=scheme, **(DESKTOP if device == "desktop" else PHONE)
    )
    try:
        sign_in(context, ann, site.url)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto("/games/mine/")
        expect(page.get_by_role("heading", level=1)).to_have_text("Your games")  # signed in
        until_controlled(page)
        site.stop()  # the server process is gone: nothing answers on its port

        page.goto("/games/mine/")
        expect(page.get_by_role("heading", level=1)).to_have_text("DiceHall cannot be reached")
        assert page.url.endswith("/games/mine/")  # "Try again" asks for this very page
        expect(page.get_by_role("link", name="Try again")).to_have_attribute("href", "")
        # Its style sheet came from the worker's cache: the page is laid out, not bare HTML.
        assert _background(page) == (LIGHT_BG if scheme == "light" else DARK_BG)
        assert _overflow(page) <= 0
        assert axe_violations(page) == []
        _shot(page, f"offline-{device}-{scheme}")
    finally:
        context.close()
        if site.proc.poll() is None:
            site.stop()


NOTIFICATION = """async () => {
    const [notification] = await (await navigator.serviceWorker.ready).getNotifications();
    return notification ? {
        title: notification.title, body: notification.body, tag: notification.tag, url: notification.data.url,
    } : null;
}"""


WORKERS = """async () => (await navigator.serviceWorker.getRegistrations()).map((r) => [
    r.scope, r.active?.state, r.installing?.state, r.waiting?.state, Notification.permission,
])"""


def deliver_push(page, data: str) -> None:
    """Hand ``data`` to the page's service worker as a push service would (DevTools)."""
    devtools = page.context.new_cdp_session(page)
    registrations: list[dict] = []
    devtools.on("ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"]))
    devtools.send("ServiceWorker.enable")
    for _ in range(100):
        if registrations:
            break
        page.wait_for_timeout(100)
    registration = next(r for r in registrations if not r["isDeleted"])
    devtools.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": page.evaluate("location.origin"),
            "registrationId": registration["registrationId"],
            "data": data,
        },
    )


def shown_notification(page) -> dict:
    """The notification the page's service worker shows (waited for, up to 10 s)."""
    for _ in range(100):
        shown = page.evaluate(NOTIFICATION)
        if shown:
            return shown
        page.wait_for_timeout(100)
    raise AssertionError(f"no notification was shown ({page.evaluate(WORKERS)})")


def test_a_push_message_delivered_to_the_worker_is_shown_as_a_notification(open_as, make_user):  # noqa: F811
    """DevTools delivers a push message to the page's service worker as the browser's push service
    would; the worker shows it, with the page a click opens."""
    page = open_as(make_user("ann"), PHONE)
    page.context.grant_permissions(["notifications"])
    page.goto("/")
    until_controlled(page)
    message = {"title": "Your turn", "body": "bob played: Farkle #7", "url": "/games/7/", "tag": "turn-7-12"}
    deliver_push(page, json.dumps(message))
    assert shown_notification(page) == message
