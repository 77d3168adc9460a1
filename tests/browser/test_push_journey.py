"""The push journey: ann, on a phone, turns push messages on for this device and leaves the
site; bob moves in their game over days; the local push service (web-push-testing) receives one
encrypted message for ann, which decrypts to the game's link; delivered to ann's service worker, it is
shown as a notification, and its page is the game, which opens for her.

Headless Chromium cannot reach a push service offline (its own is Google's), so the browser's
pushManager answers with the local service's subscription, which the test made with the site's key: the
same object a browser would give the page. Everything after it is real: the settings page's script
posts it, the worker's task encrypts, signs and posts the message, the service checks the signature
and decrypts it, and DevTools delivers it to the page's service worker as a push service would."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Connection, Game
from games.tables import services
from notices import vapid
from notices.models import PushSubscription
from tests.browser.fixtures import SHOTS, Daphne
from tests.browser.helpers import off_loop, sign_in, wait_for_disconnects
from tests.browser.test_installable import deliver_push, shown_notification, until_controlled
from tests.browser.test_site_ui import PHONE
from tests.push.test_push_transport import (  # noqa: F401 (push_service: the fixture)
    browser_subscribes,
    end_turn,
    push_service,
    received,
)

pytestmark = [pytest.mark.browser, pytest.mark.node]

BROWSER_PUSH = """
(() => {
  // The local push service's subscription, kept for the browser's session as a browser keeps its own.
  const made = %s;
  const KEY = "dicehall-test-push-subscription";
  const wrap = (s) => ({
    endpoint: s.endpoint, expirationTime: null, options: { userVisibleOnly: true },
    toJSON: () => ({ endpoint: s.endpoint, expirationTime: null, keys: s.keys }),
    unsubscribe: async () => { localStorage.removeItem(KEY); return true; },
    getKey: () => null,
  });
  PushManager.prototype.subscribe = async function () {
    localStorage.setItem(KEY, "1");
    return wrap(made);
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem(KEY) ? wrap(made) : null;
  };
})();
"""


def test_a_turn_reaches_a_phone_with_every_page_closed_as_a_push_message(
    browser,
    server_env,
    push_service,  # noqa: F811
    transactional_db,
    make_user,
    settings,
):
    keys = vapid.generate()
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = keys.private, keys.public
    ann = make_user("ann", email="ann@example.com")
    bob = make_user("bob", email="bob@example.com")
    game = off_loop(
        services.game_create, creator=bob, kind="triple-quintzee", seats=2, pace="days", absence_limit=86_400
    )
    off_loop(services.game_join, game_id=game.pk, user=ann)
    made = browser_subscribes(push_service, keys.public)
    env = {**server_env, "VAPID_PRIVATE_KEY": keys.private, "VAPID_PUBLIC_KEY": keys.public}
    site = Daphne({**env, "PUSH_TEST_SERVICE": push_service}, log_name="daphne-push.log")
    settings.SITE_URL = site.url
    # The worker (this process) posts to it as the site took it: the test settings' one exception.
    settings.PUSH_TEST_SERVICE = push_service
    context = browser.new_context(base_url=site.url, **PHONE)
    try:
        context.grant_permissions(["notifications"], origin=site.url)
        context.add_init_script(BROWSER_PUSH % json.dumps(made))
        sign_in(context, ann, site.url)

        # ann turns push messages on for this phone, on the notifications page.
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto("/notices/settings/")
        until_controlled(page)
        page.get_by_role("button", name="Send push messages to this device").click()
        expect(page.locator(".push-this-device")).to_be_visible()  # the page reloaded with it listed
        (device,) = PushSubscription.objects.filter(user=ann)
        assert device.endpoint == made["endpoint"] and device.turn

        # She closes the page.
        page.close()
        # Five minutes on (whatever her closing page last wrote, it is older than that), bob starts
        # the game and moves: the turn is hers, and she is on no page of the site.
        with time_machine.travel(timezone.now() + timedelta(minutes=5), tick=True):
            Connection.objects.create(game=game, user=bob, channel_name="bob.tab", seen_at=timezone.now())
            off_loop(services.game_start, game_id=game.pk, user=bob)
            off_loop(end_turn, Game.objects.get(pk=game.pk), bob)
            call_command("worker", batch=True, verbosity=0)  # its tasks broadcast nothing

        # The push service received one message for her phone, and it decrypts to the game's link.
        game.refresh_from_db()
        (text,) = received(push_service, made["clientHash"])
        message = json.loads(text)
        assert message["url"] == f"{site.url}/games/{game.pk}/"
        assert message["title"] == f"Your turn in Triple Quintzee #{game.pk}"

        # Her phone's service worker is handed the message, as the push service hands it.
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto("/notices/")
        until_controlled(page)
        deliver_push(page, text)
        shown = shown_notification(page)
        assert shown == message

        # Its page is the game, and it opens at her turn.
        page.goto(shown["url"])
        expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")
        expect(page.locator("#roll-button")).to_be_enabled()
        page.close()
        wait_for_disconnects()
    finally:
        context.close()
        site.stop()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_browser_whose_push_service_fails_is_told_so_plainly(
    browser, server_env, transactional_db, make_user, settings, scheme
):
    """Headless Chromium offline cannot reach its own push service: the real subscribe fails, and the
    page used to show the browser's words ("Push messages could not be turned on: Registration failed -
    permission denied")."""
    keys = vapid.generate()
    ann = make_user("ann")
    site = Daphne({**server_env, "VAPID_PRIVATE_KEY": keys.private, "VAPID_PUBLIC_KEY": keys.public})
    context = browser.new_context(base_url=site.url, color_scheme=scheme, **PHONE)
    try:
        context.grant_permissions(["notifications"], origin=site.url)
        sign_in(context, ann, site.url)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto("/notices/settings/")
        until_controlled(page)
        page.get_by_role("button", name="Send push messages to this device").click()
        status = page.locator("#push-status")
        expect(status).to_have_text(
            "This browser could not reach its push service, so push messages are not on. "
            "Try again later, or in another browser."
        )
        assert not PushSubscription.objects.filter(user=ann).exists()
        page.locator("#push").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"push-service-failed-390-{scheme}.png"), full_page=True)
    finally:
        context.close()
        site.stop()
