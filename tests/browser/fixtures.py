"""Real-browser fixtures: daphne serving the test database in a subprocess, and Debian's Chromium.

A pytest plugin (registered by tests/conftest.py) shared by the browser tests (tests/browser/) and the
end-to-end journeys (tests/e2e/). The server is a real daphne process (websockets included) on a free
port, reading the same test database as the test (tests here use transactional_db, so what they create
is committed and visible). Dice come from a script file the test fills, so that games go exactly where
the test wants.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection

from tests.browser.helpers import sign_in

ROOT = Path(__file__).resolve().parents[2]
BROWSER_DIRS = ("tests/browser/", "tests/e2e/")
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
SHOTS = ROOT / "artifacts" / "screenshots"


@pytest.fixture(autouse=True)
def _orm_beside_playwright(request, monkeypatch):
    """Playwright's sync API runs an asyncio loop in the test thread while the browser is open; the ORM
    calls of these tests and fixtures are still plain synchronous code, so Django's async-safety guard
    stands down for the browser tests (and only for them)."""
    if request.node.get_closest_marker("browser"):
        monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if any(d in Path(item.fspath).as_posix() for d in BROWSER_DIRS):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium_path():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI") or os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install chromium)")
        pytest.skip(f"{CHROMIUM} is not installed; `apt-get install chromium` to run browser tests")
    return CHROMIUM


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture(scope="session")
def dice_script(tmp_path_factory):
    path = tmp_path_factory.mktemp("dice") / "script.json"
    path.write_text("[]")
    return path


@pytest.fixture(scope="session")
def server_env(django_db_setup, django_db_blocker, dice_script):
    """The environment of the browser tests' server processes (the site, and a worker a test starts)."""
    with django_db_blocker.unblock():
        database_url = _database_url()
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url,
        "DICE_SOURCE": "scripted",
        "DICE_SCRIPT_PATH": str(dice_script),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "PYTHONUNBUFFERED": "1",
        # A turn of a game over days is mailed a second after it passes to a player away from the site.
        "TURN_MAIL_DAYS_AFTER": "1",
        # The served process's garbage collector as in production (infra/gc_tuning.py): start-up
        # objects frozen (the test settings leave the test process's alone).
        "SERVER_GC_TUNING": "1",
    }


class Daphne:
    """A daphne process serving the test database on a free port (``url``), until ``stop()``."""

    def __init__(self, env: dict, log_name: str = "daphne-browser.log") -> None:
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        artifacts = ROOT / "artifacts"
        artifacts.mkdir(exist_ok=True)
        # Each xdist worker runs its own server: one log each, or they overwrite one another's.
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        if worker:
            log_name = log_name.replace(".log", f"-{worker}.log")
        self.log = open(artifacts / log_name, "w")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT,
            env={**env, "SITE_URL": self.url},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response:  # noqa: S310 - ours
                    if response.status == 200:
                        break
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.proc.kill()
                pytest.fail(f"daphne did not come up on {self.url}")
            time.sleep(0.2)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        if self.log:
            self.log.close()
            self.log = None


@pytest.fixture(scope="session")
def server(server_env):
    """A daphne process serving the test database; yields its base URL."""
    daphne = Daphne(server_env)
    yield daphne.url
    daphne.stop()


@pytest.fixture
def dice(dice_script):
    """Queue rolls for the server: dice([1, 2, 3, 4, 5], [6, 6]) ...; the script is emptied after the test."""
    from tests.dice_script import write_script

    dice_script.write_text("[]")

    def push(*rolls):
        write_script(dice_script, [list(r) for r in rolls])

    yield push
    dice_script.write_text("[]")


# Module scope, not session: while Playwright is open its event loop counts as running in this thread,
# and every test collected after the browser tests would then hit Django's async-safety guard.
@pytest.fixture(scope="module")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=chromium_path,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield b
        b.close()


@pytest.fixture
def login_as(browser, server, transactional_db):
    """A new browser context signed in as the user (session cookie made with Django's test client)."""

    contexts = []

    def make(user, width: int = 1280, height: int = 900, touch: bool = False):
        """`touch`: a phone's browser (touch screen, mobile viewport)."""
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=server, has_touch=touch, is_mobile=touch
        )
        sign_in(context, user, server)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def shot():
    """Save a screenshot under artifacts/screenshots/ (git-ignored) and return its path."""
    SHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


def pytest_sessionstart(session):
    (ROOT / "artifacts").mkdir(exist_ok=True)
    if shutil.which("chromium") is None and not Path(CHROMIUM).exists():
        return
