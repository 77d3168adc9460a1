"""Rate limits on websocket frames, per connection and per user.

Two buckets, each with a limit per socket and a (higher) limit per user over all of the user's sockets:

- ``actions``: ``action`` frames (WS_RATE_ACTIONS_PER_10S, WS_RATE_USER_ACTIONS_PER_10S);
- ``messages``: every frame, actions and garbage included (WS_RATE_MESSAGES_PER_10S,
  WS_RATE_USER_MESSAGES_PER_10S); this is what bounds ``sync`` and ``ping``.

A socket's own count is an exact sliding log in the consumer's memory: a socket lives in one process.
A user's count must be shared by every server process, so it lives in the cache named by
RATE_LIMIT_CACHE (settings: an in-process LocMemCache on the embedded default, Redis when REDIS_URL is
set). It is a sliding-window counter: one counter per 10-second window, and the estimate is
``previous * (share of the previous window still inside the last 10 s) + current``.

Refused frames do not count, so a client that waits as told gets through. If the shared cache fails
(Redis down or stalled), the per-user check lets the frame through, logs, and is skipped for BREAK
seconds (so a stalled Redis costs one short socket timeout, not one per frame): an outage must not stop
play, and the per-socket limit still holds.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections import deque
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

logger = logging.getLogger(__name__)

PERIOD = 10.0  # seconds; the settings are named "per 10 s"
BUCKETS = ("actions", "messages")

# The clock, a module attribute so that tests can move time forward.
clock = time.time

_last_warning = 0.0
_broken_until = 0.0
BREAK = 5.0  # seconds the shared count is skipped after a cache failure


@dataclass(frozen=True)
class Refusal:
    bucket: str
    scope: str  # "connection" or "user"
    limit: int
    retry_after: int

    @property
    def message(self) -> str:
        what = "actions" if self.bucket == "actions" else "messages"
        where = "on this connection" if self.scope == "connection" else "from your account"
        return (
            f"Too many {what} {where}: at most {self.limit} every {PERIOD:g} seconds. "
            f"Wait {self.retry_after} s and try again."
        )


def limits(bucket: str) -> tuple[int, int]:
    """(per connection, per user) for a bucket, read from settings at each call."""
    if bucket == "actions":
        return settings.WS_RATE_ACTIONS_PER_10S, settings.WS_RATE_USER_ACTIONS_PER_10S
    return settings.WS_RATE_MESSAGES_PER_10S, settings.WS_RATE_USER_MESSAGES_PER_10S


def _cache():
    return caches[settings.RATE_LIMIT_CACHE]


def shared_hit(key: str, limit: int, period: float = PERIOD, now: float | None = None) -> int | None:
    """Count one hit on a shared sliding-window counter; None if allowed, else seconds to wait.

    Works on any Django cache; atomic where the cache's ``incr`` is (Redis INCR, LocMemCache's lock).
    """
    cache = _cache()
    now = clock() if now is None else now
    window = int(now // period)
    current_key = f"rl:{key}:{window}"
    previous_key = f"rl:{key}:{window - 1}"
    ttl = int(2 * period) + 1
    if isinstance(cache, RedisCache):
        # One round trip instead of Django's four: INCR (creating the key), EXPIRE, GET.
        client = cache._cache.get_client(write=True)
        pipe = client.pipeline(transaction=False)
        pipe.incr(cache.make_and_validate_key(current_key))
        pipe.expire(cache.make_and_validate_key(current_key), ttl)
        pipe.get(cache.make_and_validate_key(previous_key))
        current, _, previous = pipe.execute()
        previous = int(previous or 0)
    else:
        cache.add(current_key, 0, timeout=ttl)
        try:
            current = cache.incr(current_key)
        except ValueError:  # expired between add and incr
            cache.add(current_key, 1, timeout=ttl)
            current = 1
        previous = cache.get(previous_key, 0) or 0
    elapsed = now - window * period
    estimate = previous * (1 - elapsed / period) + current
    if estimate <= limit:
        return None
    with contextlib.suppress(ValueError):
        cache.decr(current_key)  # refused hits do not count
    # When would a retry pass? Within this window the previous window's share shrinks; after it, this
    # window's count (without the refused hit) becomes the shrinking share.
    if previous and current <= limit:
        wait = period * (1 - (limit - current) / previous) - elapsed
    else:
        wait = (period - elapsed) + period * (1 - (limit - 1) / max(current - 1, 1))
    return max(1, math.ceil(wait))


def shared_undo(key: str) -> None:
    """Take back one hit counted by shared_hit in the current window."""
    window = int(clock() // PERIOD)
    with contextlib.suppress(Exception):  # expired, or the cache is down: nothing to take back
        _cache().decr(f"rl:{key}:{window}")


def _shared_hit_safely(key: str, limit: int) -> int | None:
    """shared_hit, failing open: after a cache failure the shared count is skipped for BREAK seconds,
    so that a stalled Redis costs one socket timeout, not one per frame."""
    global _last_warning, _broken_until
    now = time.monotonic()
    if now < _broken_until:
        return None
    try:
        return shared_hit(key, limit)
    except Exception:
        _broken_until = time.monotonic() + BREAK
        if now - _last_warning > 30:
            _last_warning = now
            logger.warning("rate-limit cache unavailable; per-user limits are off for now", exc_info=True)
        return None


class ConnectionLimiter:
    """The limits of one websocket: an exact sliding log per bucket, plus the user's shared counters."""

    def __init__(self, user_id: int):
        self.user_id = user_id
        self._logs: dict[str, deque[float]] = {bucket: deque() for bucket in BUCKETS}
        self._local = isinstance(_cache(), LocMemCache)

    def _connection_hit(self, bucket: str, limit: int, now: float) -> int | None:
        log = self._logs[bucket]
        while log and log[0] <= now - PERIOD:
            log.popleft()
        if len(log) >= limit:
            return max(1, math.ceil(log[0] + PERIOD - now))
        log.append(now)
        return None

    async def _shared(self, func, *args):
        if self._local:
            return func(*args)
        return await sync_to_async(func, thread_sensitive=False)(*args)

    async def check(self, *buckets: str) -> Refusal | None:
        """Count one frame in each bucket; the first refusal, or None if every limit allows it.

        A refused frame is taken back from every count it had already been added to.
        """
        now = clock()
        counted: list[str] = []
        shared: list[str] = []
        refusal = None
        for bucket in buckets:
            per_connection, per_user = limits(bucket)
            wait = self._connection_hit(bucket, per_connection, now)
            if wait is not None:
                refusal = Refusal(bucket, "connection", per_connection, wait)
                break
            counted.append(bucket)
            key = f"user:{self.user_id}:{bucket}"
            wait = await self._shared(_shared_hit_safely, key, per_user)
            if wait is not None:
                refusal = Refusal(bucket, "user", per_user, wait)
                break
            shared.append(key)
        if refusal is not None:
            for bucket in counted:
                self._logs[bucket].pop()
            for key in shared:
                await self._shared(shared_undo, key)
        return refusal
