"""Django's Redis cache with one client per process, shared by every thread and every websocket.

Django keeps a cache object per asyncio context (``django.core.cache.caches`` is context-local), and
each one makes its own connection pool; a websocket consumer runs in its own context, so with the
stock backend every socket opened its own Redis connection for the rate limiter (games/live/ratelimit.py),
and every cache call built a new ``redis.Redis`` object (about half a millisecond of CPU with redis-py
8). Under the load benchmark that was a seventh of the server's CPU (docs/BENCHMARKS.md). Here the
client (and its connection pool, which is thread-safe) is made once per process for each LOCATION and
OPTIONS.
"""

from __future__ import annotations

import threading

from django.core.cache.backends import redis as django_redis
from django.utils.functional import cached_property

_lock = threading.Lock()
_clients: dict[tuple, RedisCacheClient] = {}


class RedisCacheClient(django_redis.RedisCacheClient):
    """Keeps one ``redis.Redis`` per connection pool instead of building one per call."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._redis: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._redis.get(id(pool))
        if client is None:
            client = self._redis[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` sharing one client per process (see above)."""

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _lock:
            if key not in _clients:
                _clients[key] = RedisCacheClient(self._servers, **self._options)
            return _clients[key]
