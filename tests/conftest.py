"""Shared fixtures: players and signed-in clients."""

from __future__ import annotations

import inspect
import os
import time
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.core.management.base import CommandError
from django.db import connections
from django.test import TransactionTestCase
from django.utils import translation

from games.live import game_threads, move_async
from tests.dice_script import write_script
from tests.factories import PASSWORD, UserFactory
from tests.protocol import check_server_frame

# The real-browser fixtures (daphne, Chromium, scripted dice, screenshots) of tests/browser/ and the
# end-to-end journeys in tests/e2e/; a redis-server of a test's own (tests/reliability/own_redis.py).
pytest_plugins = ["tests.browser.fixtures", "tests.reliability.own_redis"]

# SQLSTATEs of a TRUNCATE that lost to a server's transaction: deadlock, lock not available.
_LOCK_CONFLICTS = {"40P01", "55P03"}
_flush = TransactionTestCase._fixture_teardown


def _lock_conflict(exc: BaseException | None) -> bool:
    while exc is not None:
        if getattr(exc, "sqlstate", None) in _LOCK_CONFLICTS:
            return True
        exc = exc.__cause__
    return False


def _others_in_transaction() -> int:
    """Sessions of another process (a daphne, a worker) inside a transaction on the test database."""
    connection = connections["default"]
    if connection.vendor != "postgresql":
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
            " AND state IN ('active', 'idle in transaction')"
        )
        return cursor.fetchone()[0]


def _flush_after_the_servers(self):
    """The flush of a transactional test, once the servers it ran (daphne, worker) are done writing.

    Their last writes (a socket closing, a sweep) can come while the test ends; on PostgreSQL they and
    the flush's TRUNCATE of every table may deadlock, and PostgreSQL then cancels one of them. The
    flush waits for their transactions to end and, when it is the one cancelled, runs again: the
    other transaction has ended by then."""
    deadline = time.monotonic() + 10
    while _others_in_transaction() and time.monotonic() < deadline:
        time.sleep(0.05)
    for attempt in range(5):
        try:
            return _flush(self)
        except CommandError as exc:
            if attempt == 4 or not _lock_conflict(exc.__cause__):
                raise
            time.sleep(0.2 * (attempt + 1))


TransactionTestCase._fixture_teardown = _flush_after_the_servers


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    """The test database, and at its end no connection of ours left open on it: the websockets'
    database threads close theirs before it is dropped."""
    yield
    game_threads.shutdown()


@pytest.fixture
async def _close_move_pool():
    """A test's event loop closes the pool of moves it opened (games.live.move_async)."""
    yield
    await move_async.close_pool()


# Tests that wait for time to pass on servers that live for the whole run: last, so that the rest of
# the suite runs meanwhile (tests/reliability/test_topology.py's idle socket, IDLE_SECONDS).
LAST = ("tests/reliability/test_topology.py::test_an_idle_websocket_outlives_every_idle_timer",)


# .ci/run runs the suite twice, each test in the pass where it means most (TEST_PASS; unset, as in a
# plain `make test`, runs every test). "embedded" (SQLite, in-memory layer) runs all but the browser
# tests; "real" (PostgreSQL, Redis: production's path) runs the browser tests and every test that can
# touch a backend, and leaves out the tests that touch none (rules, engines, computers' arithmetic),
# which mean the same on both and ran in the first pass.
TEST_PASSES = ("embedded", "real")
DB_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}
# A module that names one of these may reach a backend without a database fixture.
BACKEND_WORDS = ("redis", "channel_layer", "channels.layers", "database", "postgres", "connection")
_backend_modules: dict[str, bool] = {}


def _touches_a_backend(item) -> bool:
    if item.get_closest_marker("django_db") or item.get_closest_marker("postgres"):
        return True
    if DB_FIXTURES & set(item.fixturenames):
        return True
    path = str(item.fspath)
    if path not in _backend_modules:
        text = Path(path).read_text(encoding="utf-8").lower()
        _backend_modules[path] = any(word in text for word in BACKEND_WORDS)
    return _backend_modules[path]


def _in_this_pass(item, test_pass: str) -> bool:
    if test_pass == "embedded":
        return not item.get_closest_marker("browser")
    return bool(item.get_closest_marker("browser")) or _touches_a_backend(item)


@pytest.hookimpl(trylast=True)  # after pytest-django's own ordering
def pytest_collection_modifyitems(config, items):
    test_pass = os.environ.get("TEST_PASS", "")
    if test_pass and test_pass not in TEST_PASSES:
        raise pytest.UsageError(f"TEST_PASS is {test_pass!r}: one of {', '.join(TEST_PASSES)}, or unset")
    if test_pass:
        deselected = [item for item in items if not _in_this_pass(item, test_pass)]
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            items[:] = [item for item in items if _in_this_pass(item, test_pass)]
    # Only coroutine tests have the event loop a pool belongs to (a sync test may run its own loop).
    for item in items:
        if inspect.iscoroutinefunction(getattr(item, "function", None)):
            item.fixturenames.append("_close_move_pool")
    items.sort(key=lambda item: item.nodeid in LAST)


@pytest.fixture(autouse=True)
def _language_left_as_found():
    """A page request of a German-speaking player activates German in the test's thread
    (accounts.middleware, Django's LocaleMiddleware), which a served process does afresh for every
    request; in the test process it outlived the test, and a later test in the same worker (which
    file follows which is pytest-xdist's choice) spoke German: tests/i18n/test_german_coach.py followed
    by tests/games/rulebook/test_rulebook_shared.py failed. Each test ends with the default language."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_limits():
    """No counts of an earlier test (in-process cache only: on Redis every run has its own key prefix
    and user ids are not reused). Every test's: on SQLite the ids of a test's players are those of the
    tests before it, so a test's chat or reports counted against the next one's players."""
    from django.conf import settings
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    cache = caches[settings.RATE_LIMIT_CACHE]
    if isinstance(cache, LocMemCache):
        cache.clear()


@pytest.fixture(autouse=True)
def _cache_left_empty():
    """What a test put in the default cache (a group page's lists: groups.selectors.leaderboards) is not
    found by the next: its keys name rows by ids and times, which another test's database can repeat."""
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _validate_received_frames(monkeypatch):
    """Every frame a test receives from a game socket or the notices socket in-process follows
    docs/protocol.schema.json (the notices socket's: its notices_message).

    The hook is WebsocketCommunicator.receive_output, which receive_from and receive_json_from go
    through and which some tests read directly (the raw ASGI messages): each websocket.send it hands
    over is parsed and validated, or the test fails with the schema's complaint. What a test sends is
    never checked (many frames are malformed on purpose); the server's answers to them must still
    follow the protocol. The real websocket clients (tests/reliability/conftest.py's Socket, the
    browser tests' pages) validate what they receive themselves.
    """
    receive_output = WebsocketCommunicator.receive_output

    async def validated_receive_output(self, *args, **kwargs):
        output = await receive_output(self, *args, **kwargs)
        path = self.scope.get("path", "")
        sockets = {"/ws/notices/": "notices", "/ws/queue/": "queue"}
        socket = "game" if path.startswith("/ws/games/") else sockets.get(path)
        if output.get("type") == "websocket.send" and socket is not None:
            check_server_frame(output["text"] if "text" in output else output.get("bytes"), socket)
        return output

    monkeypatch.setattr(WebsocketCommunicator, "receive_output", validated_receive_output)


@pytest.fixture
def make_user(db):
    """tests.factories.UserFactory with the name first: make_user("ann"), make_user(email=...),
    make_user("robot", computer="expert")."""

    def make(username: str | None = None, password: str = PASSWORD, **extra):
        if username:
            extra["username"] = username
        return UserFactory(password=password, **extra)

    return make


# The two players most tests seat.
@pytest.fixture
def ann(db):
    return UserFactory(username="ann")


@pytest.fixture
def bob(db):
    return UserFactory(username="bob")


@pytest.fixture
def user(ann):
    return ann


@pytest.fixture
def user_client(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def scripted_dice(settings, tmp_path):
    """Select the scripted dice source; call the fixture's value with rolls to queue them."""
    path = tmp_path / "dice.json"
    path.write_text("[]")
    settings.DICE_SOURCE = "scripted"
    settings.DICE_SCRIPT_PATH = str(path)

    def push(*rolls):
        write_script(path, [list(r) for r in rolls])

    push.path = path
    return push
