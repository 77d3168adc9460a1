"""Helpers shared by the browser tests (tests/browser/) and the end-to-end journeys (tests/e2e/): reading
the game screen, watching pages for errors, screenshots at several widths, and calling services from a
test while Playwright's event loop runs."""

from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection
from django.test import Client
from playwright.sync_api import Page

from tests.protocol import check_server_frame

# Chromium's console error for anything the Content-Security-Policy refused ("Executing inline script
# violates the following Content Security Policy directive ...", formerly "Refused to ...").
CSP_CONSOLE = re.compile(r"Content Security Policy|Content-Security-Policy")
# Every document of a watched page reports each violation of the policy to the test, with the directive
# and what it refused: the console's sentence alone does not say where the refused script or style was.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile || event.documentURI}:${event.lineNumber}`;
  window.__cspViolation(`${event.effectiveDirective} refused ${event.blockedURI || "?"} at ${where}`);
}, true);
"""


class ConsoleWatch:
    """Collects page errors, console errors, Content-Security-Policy violations and game-socket frames
    that break the protocol (docs/protocol.schema.json) of the pages it watches; `check()` fails on any.
    `allow()` never excuses a violation of the policy."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.allowed: list[re.Pattern] = []
        self.violations: list[str] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def watch(self, page: Page, who: str) -> Page:
        page.on("pageerror", lambda exc: self.problems.append(f"{who}: page error: {exc}"))

        def console(msg):
            if msg.type != "error":
                return
            if CSP_CONSOLE.search(msg.text):
                self.problems.append(f"{who}: CSP violation (console): {msg.text}")
            elif not any(p.search(msg.text) for p in self.allowed):
                self.problems.append(f"{who}: console error: {msg.text}")

        page.on("console", console)

        def violation(_source, text: str) -> None:
            self.violations.append(f"{who}: {text}")
            self.problems.append(f"{who}: CSP violation: {text}")

        page.expose_binding("__cspViolation", violation)
        page.add_init_script(CSP_LISTENER)

        def websocket(ws):
            if "/ws/games/" not in ws.url:
                return

            def frame(payload):
                try:
                    check_server_frame(payload)
                except AssertionError as exc:
                    self.problems.append(f"{who}: frame from {ws.url}: {exc}")

            ws.on("framereceived", frame)

        page.on("websocket", websocket)
        return page

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems)


def wait_for_disconnects(timeout: float = 8.0) -> None:
    """Let the server finish forgetting the closed sockets before the test database is flushed: on
    PostgreSQL its writes and the flush's TRUNCATE can deadlock. A server that was killed never
    forgets its sockets, so a count that has not changed for three seconds is as good as zero (half a
    second was too short on a loaded machine: a page's disconnect could still be on its way)."""
    from games.models import Connection

    deadline = time.monotonic() + timeout
    last, steady = None, 0
    while time.monotonic() < deadline:
        count = Connection.objects.count()
        steady = steady + 1 if count == last else 0
        if count == 0 or steady >= 30:
            return
        last = count
        time.sleep(0.1)


def off_loop(fn, *args, **kwargs):
    """Run a service in a worker thread: its after-commit broadcast uses async_to_sync, which refuses to
    run in this thread, where Playwright's event loop lives."""

    def call():
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(call).result()


def die(page: Page, n: int):
    """Die n (1-based) on the table."""
    return page.locator(f"#g-dice [data-key='{n}']")


def cell(page: Page, box: str, column: int = 0):
    """A box of the card on show (column 0 for Painted DiceZ's single column)."""
    return page.locator(f"#g-board td[data-box='{box}'][data-col='{column}']")


def score_box(page: Page, box: str, column: int = 0) -> None:
    """Score a box with the mouse as every player does by default: a click marks it, the Score button
    scores it (accounts.User.quick_scoring)."""
    cell(page, box, column).click()
    page.locator("#score-button").click()


def score_of(page: Page, player: str):
    """A player's score in the players panel."""
    return page.locator(f"#g-players li[data-player='{player}'] .score")


def screens(page: Page, shot, name: str) -> None:
    """Screenshots at 1280 and 390 px wide, checking that the page never scrolls sideways (down to 360)."""
    for width in (1280, 390, 360):
        page.set_viewport_size({"width": width, "height": 900})
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{name} at {width} px overflows by {overflow} px"
        if width != 360:
            shot(page, f"{name}-{width}")
    page.set_viewport_size({"width": 1280, "height": 900})


# Each device in each theme, and each language on both: four pages that cover every pair.
LOOKS = [
    ("desktop", "light", "en"),
    ("desktop", "dark", "de"),
    ("phone", "light", "de"),
    ("phone", "dark", "en"),
]


def sign_in(context, user, server: str) -> None:
    """Give a browser context ``user``'s session, as if they had signed in on ``server``."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": server}])
