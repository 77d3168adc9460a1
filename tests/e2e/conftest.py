"""Fixtures of the end-to-end journeys: fresh visitors in their own browser contexts (no cookie, no user
made by the test: they sign up through the site) and numbered screenshots per journey.

The server, Chromium and scripted dice are the browser tests' fixtures (tests/browser/fixtures.py,
registered by tests/conftest.py): `server`, `browser`, `dice`.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.fixtures import SHOTS
from tests.browser.helpers import ConsoleWatch, off_loop, wait_for_disconnects
from tests.e2e.axe import check_axe

E2E_SHOTS = SHOTS / "e2e"


@pytest.fixture(autouse=True)
def _patient_expect():
    """A journey waits for what the page shows; on a loaded two-core machine that may take more than
    Playwright's default 5 s, so its assertions wait up to 15 s (and never longer than needed)."""
    expect.set_options(timeout=15_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture
def visit(browser, server, transactional_db):
    """visit("ann") opens a new browser context (a new visitor: nothing signed in) on the server.

    Every page of every visitor is watched: a page error or console error fails the test, except for
    the patterns given to visit.allow(...)."""
    watch = ConsoleWatch()
    contexts = []

    def tab(context, who: str) -> Page:
        page = watch.watch(context.new_page(), who)
        page.set_default_timeout(15_000)
        return page

    def open_visitor(
        who: str,
        width: int = 1280,
        height: int = 900,
        touch: bool = False,
        scheme: str = "light",
        signed_in=None,
        locale: str = "en-US",
    ) -> Page:
        """`touch`: a phone's browser (touch screen, mobile viewport), for journeys played by tapping;
        `scheme`: the device's colour scheme; `signed_in`: another visitor's page whose cookies it takes;
        `locale`: the browser's language (its Accept-Language)."""
        context = browser.new_context(
            viewport={"width": width, "height": height},
            base_url=server,
            has_touch=touch,
            is_mobile=touch,
            color_scheme=scheme,
            locale=locale,
            storage_state=signed_in.context.storage_state() if signed_in else None,
        )
        contexts.append(context)
        return tab(context, who)

    open_visitor.allow = watch.allow
    # A second tab of the same visitor (same cookies): visit.tab(page, "ann").
    open_visitor.tab = lambda page, who: tab(page.context, who)
    try:
        yield open_visitor
        watch.check()
    finally:
        for context in contexts:
            context.close()
        wait_for_disconnects()


@pytest.fixture
def snap(request):
    """snap(page, "name") saves artifacts/screenshots/e2e/<journey>/<nn>-<name>.png (full page), after
    axe has checked the page as shown: every state a journey keeps a picture of is checked."""
    folder = E2E_SHOTS / re.sub(r"^test_", "", request.node.name)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    counter = itertools.count(1)

    def take(page: Page, name: str) -> Path:
        path = folder / f"{next(counter):02d}-{name}.png"
        check_axe(page, f"the page shown in {path.name}")
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def served(dice_script, settings):
    """served(game_path, [(username, action), ...]): moves made by the game core's own service
    (games.tables.services.game_apply_action), one transaction each, with the same scripted dice as the
    served site; a journey uses it to reach the moment it is about, then clicks what a player clicks
    there. The rules of each of those turns are the engine's and the conformance tests' to prove.

    The open pages leave the game while the services play (or their sockets would draw every move) and
    come back to it afterwards: they load the position the services made, whichever channel layer is in
    use (the in-memory one does not reach the server process)."""
    settings.DICE_SOURCE = "scripted"
    settings.DICE_SCRIPT_PATH = str(dice_script)
    numbers = itertools.count(1)  # a move's client id is its idempotency key: never the same twice

    def apply(game_path: str, moves, *pages: Page) -> None:
        from django.contrib.auth import get_user_model

        from games.tables import services

        game_id = int(re.search(r"/games/(\d+)/", game_path)[1])

        def play():
            users = {
                u.username: u for u in get_user_model().objects.filter(username__in={m[0] for m in moves})
            }
            for username, action in moves:
                services.game_apply_action(
                    game_id=game_id, user=users[username], client_id=f"served-{next(numbers)}", action=action
                )

        for page in pages:
            page.goto("about:blank")
        off_loop(play)
        for page in pages:
            page.goto(game_path)
            expect(page.locator("#game-root")).to_have_attribute("data-conn", "open")

    return apply
