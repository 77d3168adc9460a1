"""Rate limits on websocket frames, per connection and per user, and the other shared limits.

Two buckets, each with a limit per socket and a (higher) limit per user over all of the user's sockets:

- ``actions``: ``action`` frames (WS_RATE_ACTIONS_PER_10S, WS_RATE_USER_ACTIONS_PER_10S);
- ``messages``: every frame, actions and garbage included (WS_RATE_MESSAGES_PER_10S,
  WS_RATE_USER_MESSAGES_PER_10S); this is what bounds ``sync`` and ``ping``.

A socket's own count is an exact sliding log in the consumer's memory: a socket lives in one process.
A user's count must be shared by every server process: it is counted by the ``limits`` library
(https://limits.readthedocs.io), moving-window strategy (an exact sliding log: at most the limit in
any 10 s), in the storage named by RATE_LIMIT_STORAGE (settings: Redis when REDIS_URL is set, so that
limits hold across daphne replicas; else ``memory://``, in the process). On the event loop the count
goes through ``limits.aio`` on redis-py's asyncio client; in sync code (``shared_hit``: sign-ups per
address, password resets, chat messages per player) through ``limits``' sync Redis storage. With
``memory://`` both use one in-process storage, called directly (no I/O to wait for).

Refused hits do not count, so a client that waits as told gets through. If the shared storage fails
(Redis down or stalled), the count lets the hit through, logs, and is skipped for BREAK seconds (so a
stalled Redis costs one short socket timeout, not one per frame): an outage must not stop play, and
the per-socket limit still holds. Every shared limit fails open through the same ``failing_open``:
one break for the whole process.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import time
from collections import deque
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext as tr
from limits import RateLimitItemPerSecond
from limits.aio.storage import RedisStorage as AsyncRedisStorage
from limits.aio.strategies import MovingWindowRateLimiter as AsyncMovingWindow
from limits.storage import MemoryStorage, RedisStorage
from limits.strategies import MovingWindowRateLimiter
from redis import asyncio as aioredis

from infra.perloop import per_loop

logger = logging.getLogger(__name__)

PERIOD = 10  # seconds; the settings are named "per 10 s"
BUCKETS = ("actions", "messages")

_last_warning = 0.0
_broken_until = 0.0
BREAK = 5.0  # seconds the shared count is skipped after a storage failure
REDIS_TIMEOUT = 1.0  # seconds a frame waits at most for its shared count
# One asyncio Redis client per event loop (daphne has one), for every frame's shared count. A small
# blocking pool: a burst of frames waits for a connection instead of opening hundreds.
ASYNC_POOL_SIZE = 4


@dataclass(frozen=True)
class Refusal:
    bucket: str
    scope: str  # "connection" or "user"
    limit: int
    retry_after: int

    @property
    def message(self) -> str:
        """The refusal in the active language (the consumer sets its reader's)."""
        sentences = {
            ("actions", "connection"): tr(
                "Too many actions on this connection: at most %(limit)s every %(period)s seconds. "
                "Wait %(wait)s s and try again."
            ),
            ("actions", "user"): tr(
                "Too many actions from your account: at most %(limit)s every %(period)s seconds. "
                "Wait %(wait)s s and try again."
            ),
            ("messages", "connection"): tr(
                "Too many messages on this connection: at most %(limit)s every %(period)s seconds. "
                "Wait %(wait)s s and try again."
            ),
            ("messages", "user"): tr(
                "Too many messages from your account: at most %(limit)s every %(period)s seconds. "
                "Wait %(wait)s s and try again."
            ),
        }
        bucket = "actions" if self.bucket == "actions" else "messages"
        where = "connection" if self.scope == "connection" else "user"
        return sentences[bucket, where] % {
            "limit": self.limit,
            "period": f"{PERIOD:g}",
            "wait": self.retry_after,
        }


def limits(bucket: str) -> tuple[int, int]:
    """(per connection, per user) for a bucket, read from settings at each call."""
    if bucket == "actions":
        return settings.WS_RATE_ACTIONS_PER_10S, settings.WS_RATE_USER_ACTIONS_PER_10S
    return settings.WS_RATE_MESSAGES_PER_10S, settings.WS_RATE_USER_MESSAGES_PER_10S


# --- the storages ----------------------------------------------------------------------------------
# Read from settings at each call (tests point them elsewhere), made once per (URI, prefix).


def _config() -> tuple[str, str]:
    uri = settings.RATE_LIMIT_STORAGE
    if not uri.startswith(("memory://", "redis://", "rediss://")):
        raise ImproperlyConfigured(f"RATE_LIMIT_STORAGE: memory:// or a redis:// URL, not {uri!r}")
    return uri, settings.RATE_LIMIT_KEY_PREFIX


def _timeouts() -> dict[str, float]:
    return {
        "socket_timeout": settings.RATE_LIMIT_SOCKET_TIMEOUT,
        "socket_connect_timeout": settings.RATE_LIMIT_SOCKET_TIMEOUT,
    }


@functools.cache
def _sync_limiter(uri: str, prefix: str) -> MovingWindowRateLimiter:
    if uri.startswith("memory://"):
        return MovingWindowRateLimiter(MemoryStorage())
    # redis-py's client is thread-safe: one connection pool for every thread of the process.
    return MovingWindowRateLimiter(RedisStorage(uri, key_prefix=prefix, **_timeouts()))


def limiter() -> MovingWindowRateLimiter:
    """The process's sync limiter on RATE_LIMIT_STORAGE (with ``memory://``, also the event loop's)."""
    return _sync_limiter(*_config())


@per_loop
def _async_limiters() -> dict[tuple[str, str], AsyncMovingWindow]:
    return {}


def _async_limiter(uri: str, prefix: str) -> AsyncMovingWindow:
    """The event loop's limiter on Redis (an asyncio client is bound to its loop)."""
    made = _async_limiters()
    if (uri, prefix) not in made:
        timeouts = _timeouts()
        pool = aioredis.BlockingConnectionPool.from_url(
            uri, max_connections=ASYNC_POOL_SIZE, timeout=REDIS_TIMEOUT, **timeouts
        )
        storage = AsyncRedisStorage(
            f"async+{uri}", implementation="redispy", key_prefix=prefix, connection_pool=pool
        )
        made[uri, prefix] = AsyncMovingWindow(storage)
    return made[uri, prefix]


def _item(limit: int, period: float) -> RateLimitItemPerSecond:
    return RateLimitItemPerSecond(limit, math.ceil(period))


def _wait(reset: float) -> int:
    """Whole seconds until ``reset`` (the end of the window's oldest hit), at least one."""
    return max(1, math.ceil(reset - time.time()))


# --- failing open ----------------------------------------------------------------------------------


@dataclass
class _Attempt:
    failed: bool = False


def cache_down() -> bool:
    """True for BREAK seconds after the shared storage failed: meanwhile no limit asks it."""
    return time.monotonic() < _broken_until


@contextlib.contextmanager
def failing_open():
    """A shared count that fails open: an exception of the storage (Redis down, or slower than its
    socket timeout) lets the request through instead, is logged (at most once in 30 s), and starts a
    break of BREAK seconds for every limit of the process (``cache_down``). Yields an attempt whose
    ``failed`` says afterwards whether the count was given up."""
    attempt = _Attempt()
    try:
        yield attempt
    except Exception:
        attempt.failed = True
        if _fail_open():
            logger.warning("rate-limit cache unavailable; per-user limits are off for now", exc_info=True)


def _fail_open() -> bool:
    """After a storage failure the shared count is skipped for BREAK seconds, so that a stalled Redis
    costs one socket timeout, not one per frame. True if it is time to say so in the log again."""
    global _last_warning, _broken_until
    now = time.monotonic()
    _broken_until = now + BREAK
    if now - _last_warning > 30:
        _last_warning = now
        return True
    return False


# --- the shared counts -----------------------------------------------------------------------------


def shared_hit(key: str, limit: int, period: float = PERIOD) -> int | None:
    """Count one hit on a shared limit of ``limit`` hits in any ``period`` seconds (whole seconds);
    None if allowed, else the seconds to wait (a refused hit is not counted).

    Fails open (``failing_open``): None while the storage is down.
    """
    if cache_down():
        return None
    counter, item = limiter(), _item(limit, period)  # a wrong setting raises: it does not fail open
    with failing_open():
        if counter.hit(item, key):
            return None
        return _wait(counter.get_window_stats(item, key).reset_time)
    return None


def _hits_sync(hits: list[tuple[str, int]], period: float) -> tuple[int, int] | None:
    counter = limiter()
    for n, (key, limit) in enumerate(hits):
        item = _item(limit, period)
        if not counter.hit(item, key):
            return n, _wait(counter.get_window_stats(item, key).reset_time)
    return None


async def _hits_async(
    counter: AsyncMovingWindow, hits: list[tuple[str, int]], period: float
) -> tuple[int, int] | None:
    for n, (key, limit) in enumerate(hits):
        item = _item(limit, period)
        if not await counter.hit(item, key):
            return n, _wait((await counter.get_window_stats(item, key)).reset_time)
    return None


async def shared_hits(hits: list[tuple[str, int]], period: float = PERIOD) -> tuple[int, int] | None:
    """Count one hit on each shared limit (key, limit) in turn: None if all allow it, else (index of
    the first refusal, seconds to wait); the hits after a refusal are not counted, those before it are.

    Fails open: while the storage is broken every hit is allowed (the per-socket limits still hold).
    """
    if cache_down():
        return None
    uri, prefix = _config()
    with failing_open():
        if uri.startswith("memory://"):
            return _hits_sync(hits, period)  # in memory: no I/O to wait for, no thread needed
        async with asyncio.timeout(REDIS_TIMEOUT):  # no task made for every frame, as wait_for does
            return await _hits_async(_async_limiter(uri, prefix), hits, period)
    return None


class ConnectionLimiter:
    """The limits of one websocket: an exact sliding log per bucket, plus the user's shared counts.

    ``check`` does both, on the event loop, for every frame before its handler runs
    (play.consumers). On a refusal nothing of the frame stays in the socket's logs; of the user's
    shared counts, a frame refused on one bucket stays counted in the buckets checked before it
    (``limits`` takes no hit back), so the narrower ``actions`` is checked first.
    """

    def __init__(self, user_id: int):
        self.user_id = user_id
        self._logs: dict[str, deque[float]] = {bucket: deque() for bucket in BUCKETS}

    def _connection_hit(self, bucket: str, limit: int, now: float) -> int | None:
        log = self._logs[bucket]
        while log and log[0] <= now - PERIOD:
            log.popleft()
        if len(log) >= limit:
            return max(1, math.ceil(log[0] + PERIOD - now))
        log.append(now)
        return None

    def check_connection(self, *buckets: str) -> Refusal | None:
        """Count one frame in this socket's own log of each bucket."""
        now = time.time()
        for n, bucket in enumerate(buckets):
            per_connection, _ = limits(bucket)
            wait = self._connection_hit(bucket, per_connection, now)
            if wait is not None:
                self._take_back(buckets[:n])
                return Refusal(bucket, "connection", per_connection, wait)
        return None

    def _take_back(self, buckets) -> None:
        for bucket in buckets:
            self._logs[bucket].pop()

    async def check_user(self, *buckets: str) -> Refusal | None:
        """Count the frame (already counted by check_connection) in the user's shared counts."""
        ordered = sorted(buckets, key=lambda bucket: bucket != "actions")
        hits = [(f"user:{self.user_id}:{bucket}", limits(bucket)[1]) for bucket in ordered]
        refused = await shared_hits(hits)
        if refused is None:
            return None
        self._take_back(buckets)
        n, wait = refused
        return Refusal(ordered[n], "user", hits[n][1], wait)

    async def check(self, *buckets: str) -> Refusal | None:
        """Count one frame in each bucket; the first refusal, or None if every limit allows it."""
        return self.check_connection(*buckets) or await self.check_user(*buckets)
