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

On Redis a frame does not wait for Redis while the user is far from the limit: each process keeps its
own count of every user counter, plus the other processes' counts as of its last exchange with Redis,
and while the sum is under FAST_SHARE of the limit the frame passes at once and its hit joins a batch
sent every FLUSH_EVERY seconds (one Redis call for every user, instead of one round trip per frame,
docs/BENCHMARKS.md). Nearer the limit every frame is counted in Redis before it passes, as before: one
process's count is exact, and across processes a user can get through at most the hits the other
processes passed and had not sent yet (those of one FLUSH_EVERY, never more than FAST_SHARE of the
limit per process) beyond the limit in a window.

Refused frames do not count, so a client that waits as told gets through. If the shared cache fails
(Redis down or stalled), the per-user check lets the frame through, logs, and is skipped for BREAK
seconds (so a stalled Redis costs one short socket timeout, not one per frame): an outage must not stop
play, and the per-socket limit still holds.

Every other limit counted in this cache (``shared_hit``: sign-ups per address, chat messages per player)
fails open the same way, through the same ``failing_open``: one break for the whole process.

Why hand-written and not the ``limits`` library: ``limits`` 5.8.0 (moving window, ``limits.aio``) was
tried in its place and measured in five alternating ``bench.run`` runs per tree (2026-12-05,
docs/BENCHMARKS.md, "History", 2026-12-05): the saturated ratio to the baseline was 0.548
(0.530-0.560) with it and 0.618 (0.602-0.671) with this module, 633.6 against 677.8 actions/s, a cost
of about 7 %, over the 5 % the project allows; it pays one Redis round trip per limit and frame where
this module batches the far-from-the-limit hits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
import weakref
from collections import deque
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.utils.translation import gettext as tr
from django_redis import get_redis_connection
from django_redis.cache import RedisCache
from redis import asyncio as aioredis

from infra.perloop import per_loop

logger = logging.getLogger(__name__)

PERIOD = 10.0  # seconds; the settings are named "per 10 s"
BUCKETS = ("actions", "messages")

# The clock, a module attribute so that tests can move time forward.
clock = time.time

_last_warning = 0.0
_broken_until = 0.0
BREAK = 5.0  # seconds the shared count is skipped after a cache failure
REDIS_TIMEOUT = 1.0  # seconds a frame waits at most for its shared count


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


def _cache():
    return caches[settings.RATE_LIMIT_CACHE]


def _counter(key: str, window: int) -> str:
    """The cache key of a user counter's count in one window."""
    return f"rl:{key}:{window}"


def _window_keys(key: str, now: float, period: float) -> tuple[str, str, int]:
    window = int(now // period)
    return _counter(key, window), _counter(key, window - 1), window


def _verdict(current: int, previous: int, limit: int, now: float, window: int, period: float) -> int | None:
    """None if the hit that made the count ``current`` is allowed, else the seconds to wait."""
    elapsed = now - window * period
    estimate = previous * (1 - elapsed / period) + current
    if estimate <= limit:
        return None
    # When would a retry pass? Within this window the previous window's share shrinks; after it, this
    # window's count (without the refused hit) becomes the shrinking share.
    if previous and current <= limit:
        wait = period * (1 - (limit - current) / previous) - elapsed
    else:
        wait = (period - elapsed) + period * (1 - (limit - 1) / max(current - 1, 1))
    return max(1, math.ceil(wait))


@dataclass
class _Attempt:
    failed: bool = False


def cache_down() -> bool:
    """True for BREAK seconds after the shared cache failed: meanwhile no limit asks it."""
    return time.monotonic() < _broken_until


@contextlib.contextmanager
def failing_open():
    """A shared count that fails open: an exception of the cache (Redis down, or slower than its socket
    timeout) lets the request through instead, is logged (at most once in 30 s), and starts a break of
    BREAK seconds for every limit of the process (``cache_down``). Yields an attempt whose ``failed``
    says afterwards whether the count was given up."""
    attempt = _Attempt()
    try:
        yield attempt
    except Exception:
        attempt.failed = True
        if _fail_open():
            logger.warning("rate-limit cache unavailable; per-user limits are off for now", exc_info=True)


def shared_hit(key: str, limit: int, period: float = PERIOD, now: float | None = None) -> int | None:
    """Count one hit on a shared sliding-window counter; None if allowed, else seconds to wait.

    Works on any Django cache; atomic where the cache's ``incr`` is (Redis INCR, LocMemCache's lock).
    Fails open (``failing_open``): None while the cache is down.
    """
    if cache_down():
        return None
    with failing_open():
        return _counted_hit(key, limit, period, now)
    return None


def _counted_hit(key: str, limit: int, period: float, now: float | None) -> int | None:
    cache = _cache()
    now = clock() if now is None else now
    current_key, previous_key, window = _window_keys(key, now, period)
    ttl = int(2 * period) + 1
    if isinstance(cache, RedisCache):
        # One round trip instead of Django's four: INCR (creating the key), EXPIRE, GET.
        pipe = get_redis_connection(settings.RATE_LIMIT_CACHE).pipeline(transaction=False)
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
    wait = _verdict(current, previous, limit, now, window, period)
    if wait is not None:
        with contextlib.suppress(ValueError):
            cache.decr(current_key)  # refused hits do not count
    return wait


# Counters in one command: INCRBY and EXPIRE each window's counter, GET the window before it. KEYS in
# pairs (this window, the previous one); ARGV[1] the time to live, then one increment per pair.
HITS_LUA = """
local out = {}
for i = 1, #KEYS, 2 do
  out[#out + 1] = redis.call('INCRBY', KEYS[i], ARGV[(i + 1) / 2 + 1])
  redis.call('EXPIRE', KEYS[i], ARGV[1])
  out[#out + 1] = tonumber(redis.call('GET', KEYS[i + 1])) or 0
end
return out
"""
FAST_SHARE = 0.5  # a user under this share of a limit (as this process knows it) passes without waiting
FLUSH_EVERY = 0.1  # seconds between the batches of hits that passed without waiting


def _first_refusal(replies, hits, windows, now: float, period: float) -> tuple[int, int] | None:
    for n, (_, limit) in enumerate(hits):
        wait = _verdict(replies[2 * n], replies[2 * n + 1], limit, now, windows[n], period)
        if wait is not None:
            return n, wait
    return None


# Scripts registered once per client (django-redis keeps one client per cache object, over one
# connection pool per process).
_scripts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _script(client):
    script = _scripts.get(client)
    if script is None:
        script = _scripts[client] = client.register_script(HITS_LUA)
    return script


# One asyncio Redis client per event loop (daphne has one), for every frame's shared count. A small
# blocking pool: a burst of frames waits for a connection instead of opening hundreds.
ASYNC_POOL_SIZE = 4


@per_loop
def _async_client():
    # The cache's own settings: the same server and socket timeouts as django-redis uses.
    config = settings.CACHES[settings.RATE_LIMIT_CACHE]
    options = config.get("OPTIONS", {})
    names = ("SOCKET_TIMEOUT", "SOCKET_CONNECT_TIMEOUT")
    timeouts = {name.lower(): options[name] for name in names if name in options}
    pool = aioredis.BlockingConnectionPool.from_url(
        config["LOCATION"], max_connections=ASYNC_POOL_SIZE, timeout=REDIS_TIMEOUT, **timeouts
    )
    return aioredis.Redis(connection_pool=pool)


@dataclass
class _Count:
    """What this process knows of one user counter: its own hits in the current and the previous
    window (exact), and the other processes' (as of the last reply from Redis)."""

    window: int
    mine: int = 0
    mine_before: int = 0
    others: int = 0
    others_before: int = 0

    def at(self, window: int) -> _Count:
        if window != self.window:
            step = window - self.window
            self.mine_before = self.mine if step == 1 else 0
            self.others_before = self.others if step == 1 else 0
            self.window, self.mine, self.others = window, 0, 0
        return self

    def estimate(self, elapsed_share: float) -> float:
        before = self.mine_before + self.others_before
        return before * (1 - elapsed_share) + self.mine + self.others

    def learn(self, window: int, total: int, total_before: int) -> None:
        """A reply from Redis: the counter's totals in ``window`` and the window before it."""
        if window == self.window:
            self.others = max(0, total - self.mine)
            self.others_before = max(0, total_before - self.mine_before)
        elif window == self.window - 1:
            self.others_before = max(0, total - self.mine_before)


class _Tally:
    """One event loop's counts and its batch of hits not yet sent to Redis."""

    def __init__(self) -> None:
        self.counts: dict[str, _Count] = {}
        self.unsent: dict[tuple[str, int], int] = {}  # (key, window): hits
        self.flushing = False
        self.task: asyncio.Task | None = None
        self.pruned = 0

    def count(self, key: str, window: int) -> _Count:
        count = self.counts.get(key)
        if count is None:
            count = self.counts[key] = _Count(window)
        return count.at(window)

    def prune(self, window: int) -> None:
        """Forget counters untouched for two windows (they weigh nothing any more)."""
        if window - self.pruned >= 2:
            self.pruned = window
            self.counts = {key: c for key, c in self.counts.items() if c.window >= window - 1}


_tally = per_loop(_Tally)


async def _send_counts(cache: RedisCache, tally: _Tally, hits: dict[tuple[str, int], int], period: float):
    """INCRBY each (key, window) by its hits; tell the tally what Redis answered. The replies, in pairs."""
    keys, args = [], [int(2 * period) + 1]
    for (key, window), n in hits.items():
        keys += [cache.make_and_validate_key(_counter(key, w)) for w in (window, window - 1)]
        args.append(n)
    replies = await _script(_async_client())(keys=keys, args=args)
    for n, (key, window) in enumerate(hits):
        count = tally.counts.get(key)
        if count is not None:
            count.learn(window, replies[2 * n], replies[2 * n + 1])
    return replies


async def _flush(cache: RedisCache, tally: _Tally, period: float) -> None:
    """Send the batch of hits that passed without waiting (and whatever joined it meanwhile)."""
    try:
        with failing_open() as attempt:
            while tally.unsent:
                batch, tally.unsent = tally.unsent, {}
                async with asyncio.timeout(REDIS_TIMEOUT):
                    await _send_counts(cache, tally, batch, period)
        if attempt.failed:
            tally.unsent.clear()  # fail open, as a frame's own count does
    finally:
        tally.flushing = False


def _schedule_flush(cache: RedisCache, tally: _Tally, period: float) -> None:
    if not tally.flushing:
        tally.flushing = True
        loop = asyncio.get_running_loop()

        def start() -> None:
            tally.task = loop.create_task(_flush(cache, tally, period))

        loop.call_later(FLUSH_EVERY, start)


async def shared_hits_redis(
    cache: RedisCache, hits: list[tuple[str, int]], period: float = PERIOD
) -> tuple[int, int] | None:
    """Count one hit on each (key, limit); None if all are allowed, else the index of the first
    refused one and the seconds to wait, and then none of the hits counts. Far from every limit the
    hits pass at once and go to Redis with the next batch; otherwise in one Redis command now."""
    now = clock()
    window = int(now // period)
    tally = _tally()
    tally.prune(window)
    counts = [tally.count(key, window) for key, _ in hits]
    share = (now - window * period) / period
    if all(c.estimate(share) + 1 <= limit * FAST_SHARE for c, (_, limit) in zip(counts, hits, strict=True)):
        for count, (key, _) in zip(counts, hits, strict=True):
            count.mine += 1
            tally.unsent[key, window] = tally.unsent.get((key, window), 0) + 1
        _schedule_flush(cache, tally, period)
        return None
    return await _counted_now(cache, tally, hits, counts, now, window, period)


async def _counted_now(
    cache, tally: _Tally, hits, counts, now: float, window: int, period: float
) -> tuple[int, int] | None:
    """The exact count: this frame's hits, with this process's unsent ones of the same counters."""
    if tally.task is not None and not tally.task.done():
        # A batch on its way holds hits of this process that Redis must have counted first.
        await asyncio.shield(tally.task)
    batch = {(key, window): tally.unsent.pop((key, window), 0) + 1 for key, _ in hits}
    for count in counts:
        count.mine += 1
    replies = await _send_counts(cache, tally, batch, period)
    refusal = _first_refusal(replies, hits, [window] * len(hits), now, period)
    if refusal is not None:
        for count in counts:
            count.mine -= 1
        undo = _async_client().pipeline(transaction=False)
        for key, window in batch:
            undo.decr(cache.make_and_validate_key(_counter(key, window)))
        await undo.execute()
    return refusal


def shared_undo(key: str) -> None:
    """Take back one hit counted by shared_hit in the current window."""
    window = int(clock() // PERIOD)
    with contextlib.suppress(Exception):  # expired, or the cache is down: nothing to take back
        _cache().decr(_counter(key, window))


def _fail_open() -> bool:
    """After a cache failure the shared count is skipped for BREAK seconds, so that a stalled Redis
    costs one socket timeout, not one per frame. True if it is time to say so in the log again."""
    global _last_warning, _broken_until
    now = time.monotonic()
    _broken_until = now + BREAK
    if now - _last_warning > 30:
        _last_warning = now
        return True
    return False


def _shared_hits_sync(hits: list[tuple[str, int]]) -> tuple[int, int] | None:
    for n, (key, limit) in enumerate(hits):
        wait = _counted_hit(key, limit, PERIOD, None)
        if wait is not None:
            for earlier, _ in hits[:n]:
                shared_undo(earlier)
            return n, wait
    return None


async def shared_hits(hits: list[tuple[str, int]]) -> tuple[int, int] | None:
    """Count one hit on each user counter (key, limit): None, or (index refused, seconds to wait).

    Fails open: while the cache is broken every hit is allowed (the per-socket limits still hold).
    """
    if cache_down():
        return None
    with failing_open():
        cache = _cache()
        if isinstance(cache, RedisCache):
            async with asyncio.timeout(REDIS_TIMEOUT):  # no task made for every frame, as wait_for does
                return await shared_hits_redis(cache, hits)
        if isinstance(cache, LocMemCache):
            return _shared_hits_sync(hits)  # in memory: no I/O to wait for, no thread needed
        return await sync_to_async(_shared_hits_sync, thread_sensitive=False)(hits)
    return None


class ConnectionLimiter:
    """The limits of one websocket: an exact sliding log per bucket, plus the user's shared counters.

    ``check`` does both, on the event loop, for every frame before its handler runs
    (play.consumers). On a refusal nothing of the frame stays counted.
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
        now = clock()
        for n, bucket in enumerate(buckets):
            per_connection, _ = limits(bucket)
            wait = self._connection_hit(bucket, per_connection, now)
            if wait is not None:
                self._take_back(buckets[:n])
                return Refusal(bucket, "connection", per_connection, wait)
        return None

    def _hits(self, buckets: tuple[str, ...]) -> list[tuple[str, int]]:
        return [(f"user:{self.user_id}:{bucket}", limits(bucket)[1]) for bucket in buckets]

    def _user_refusal(self, buckets, hits, refused) -> Refusal | None:
        if refused is None:
            return None
        self._take_back(buckets)
        n, wait = refused
        return Refusal(buckets[n], "user", hits[n][1], wait)

    def _take_back(self, buckets) -> None:
        for bucket in buckets:
            self._logs[bucket].pop()

    async def check_user(self, *buckets: str) -> Refusal | None:
        """Count the frame (already counted by check_connection) in the user's shared counters."""
        hits = self._hits(buckets)
        return self._user_refusal(buckets, hits, await shared_hits(hits))

    async def check(self, *buckets: str) -> Refusal | None:
        """Count one frame in each bucket; the first refusal, or None if every limit allows it."""
        return self.check_connection(*buckets) or await self.check_user(*buckets)
