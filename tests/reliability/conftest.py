"""Fixtures for the reliability tests: daphne subprocesses on the test database, real websocket clients.

A test that needs a real server asks for ``daphne`` (a factory: ``daphne(**env)`` starts one more
server process and returns it) together with ``transactional_db``, so that what the test creates is
committed and the server sees it. Servers are killed when the test ends. ``real_backends`` marks the
tests that only mean something on PostgreSQL and Redis (CI's second run); elsewhere they are skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.protocol import check_server_frame

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"

ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))
ON_REDIS = bool(os.environ.get("REDIS_URL"))

real_backends = [
    pytest.mark.postgres,
    pytest.mark.slow_subprocess,
    pytest.mark.skipif(
        not (ON_POSTGRES and ON_REDIS),
        reason="needs PostgreSQL and Redis: set DATABASE_URL=postgres://... and REDIS_URL=redis://... "
        "(CI's second run does)",
    ),
]


def requires_real_backends(test):
    for mark in real_backends:
        test = mark(test)
    return test


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def database_url() -> str:
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def session_cookie(user) -> str:
    """A real session for the user (in the test database), as a Cookie header value."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def form_page(server, path: str, cookie: str) -> tuple[str, str, str]:
    """A page of the server as the cookie's player sees it: its HTML, its CSRF form token and the
    cookie header that goes with the token."""
    request = urllib.request.Request(f"{server.url}{path}", headers={"Cookie": cookie})  # noqa: S310 - ours
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310 - the test's own server
        html = response.read().decode()
        csrf = next(
            part.split(";", 1)[0]
            for part in response.headers.get_all("Set-Cookie") or []
            if part.startswith("csrftoken=")
        )
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    return html, token, f"{cookie}; {csrf}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def post_form(server, path: str, cookie: str, fields: dict) -> tuple[int, str]:
    """POST the form's fields as a browser of the site would (its Origin); the answer's status and body,
    a redirect not followed."""
    request = urllib.request.Request(  # noqa: S310 - the test's own server
        f"{server.url}{path}",
        data=urllib.parse.urlencode(fields).encode(),
        headers={"Cookie": cookie, "Origin": server.url},
    )
    try:
        with urllib.request.build_opener(_NoRedirect).open(request, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


class Daphne:
    """One daphne process serving config.asgi:application on the test database."""

    def __init__(self, env: dict, name: str, port: int | None = None, flags: tuple[str, ...] = ()):
        self.env = env
        self.port = port or free_port()
        self.name = name
        self.flags = flags  # daphne's own options, beside the address
        self.proc: subprocess.Popen | None = None
        self.log_path = ARTIFACTS / f"daphne-{name}.log"
        self.started_in = 0.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, game_id: int) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/games/{game_id}/"

    def _argv(self) -> list[str]:
        address = ["-b", "127.0.0.1", "-p", str(self.port)]
        return [sys.executable, "-m", "daphne", *address, *self.flags, "config.asgi:application"]

    def start(self, timeout: float = 30) -> float:
        """Start the process and wait until /healthz answers 200; return the seconds that took."""
        ARTIFACTS.mkdir(exist_ok=True)
        log = self.log_path.open("a")
        began = time.monotonic()
        self.proc = subprocess.Popen(
            self._argv(),
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = began + timeout
        while True:
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/healthz", timeout=2) as response,  # noqa: S310
            ):
                if response.status == 200:
                    break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"daphne {self.name} did not come up; see {self.log_path}:\n{self.log_tail()}")
            time.sleep(0.1)
        self.started_in = time.monotonic() - began
        return self.started_in

    def kill(self) -> None:
        """SIGKILL: no clean-up of any kind, as when a machine dies."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log_tail(self, n: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""


@pytest.fixture
def daphne(django_db_setup, django_db_blocker, request):
    """Factory: daphne(name=..., flags=(daphne's options), **env) starts a server on the test database;
    all are killed at the end."""
    with django_db_blocker.unblock():
        db_url = database_url()
    servers: list[Daphne] = []

    def start(
        name: str = "server", port: int | None = None, flags: tuple[str, ...] = (), **env: str
    ) -> Daphne:
        full = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": db_url,
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DICE_SOURCE": "fair",
            "RATE_LIMIT_KEY_PREFIX": settings.RATE_LIMIT_KEY_PREFIX,
            "PYTHONUNBUFFERED": "1",
            "LOG_LEVEL": "WARNING",
            # As docker-compose runs it (idle pooled connections kept 60 s; config/settings/base.py).
            "CONN_MAX_AGE": "60",
        }
        full.update({k: str(v) for k, v in env.items()})
        if full.get("REDIS_URL") == "":
            del full["REDIS_URL"]
        server = Daphne(full, f"{request.node.name}-{name}"[:120], port, flags)
        if server.log_path.exists():
            server.log_path.unlink()
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.stop()


# --- a real websocket client ---------------------------------------------------------------------


class Socket:
    """A websocket to one game through a real server, with a session cookie and an allowed Origin."""

    def __init__(self, server: Daphne, game_id: int, cookie: str, name: str = ""):
        self.server = server
        self.game_id = game_id
        self.cookie = cookie
        self.name = name
        self.ws = None
        self.inbox: list[dict] = []

    async def open(self, wait: float = 10) -> dict:
        from websockets.asyncio.client import connect

        self.ws = await connect(
            self.server.ws_url(self.game_id),
            origin=self.server.url,
            additional_headers={"Cookie": self.cookie},
            open_timeout=wait,
            max_size=None,
            ping_interval=None,
            # wss through the test's nginx trusts its self-signed certificate (tests/reliability/topology.py).
            **({"ssl": self.server.ssl_context} if hasattr(self.server, "ssl_context") else {}),
        )
        return await self.next("snapshot", wait)

    async def send(self, message: dict) -> None:
        await self.ws.send(json.dumps(message))

    async def recv(self, wait: float = 10) -> dict:
        """The next frame, checked against docs/protocol.schema.json (tests/protocol.py)."""
        message = check_server_frame(await asyncio.wait_for(self.ws.recv(), wait))
        self.inbox.append(message)
        return message

    async def next(self, kind: str, wait: float = 10) -> dict:
        deadline = time.monotonic() + wait
        while True:
            message = await self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] == kind:
                return message

    async def reply_to(self, client_id: str, wait: float = 10) -> dict:
        """The ack or error answering the action with this id."""
        deadline = time.monotonic() + wait
        while True:
            message = await self.recv(max(0.01, deadline - time.monotonic()))
            if message["type"] in ("ack", "error") and message.get("id") == client_id:
                return message

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Each test starts with no rate-limit or sign-in counts (in-process cache only; a shared Redis is
    never cleared: there every run has its own key prefix and user ids are not reused)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    from infra import ratelimit

    cache = caches[settings.RATE_LIMIT_CACHE]
    if isinstance(cache, LocMemCache):
        cache.clear()
    ratelimit._broken_until = 0.0
    yield
    ratelimit._broken_until = 0.0
