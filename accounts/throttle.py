"""Sign-in throttling against password guessing.

After LOGIN_FAILURES_PER_USERNAME failed sign-ins for one username (any letter case), or
LOGIN_FAILURES_PER_IP from one address, within LOGIN_FAILURE_WINDOW seconds of the first of them,
every further sign-in for that username or from that address is refused, without the password being
checked, until the window has passed. A successful sign-in clears its username's count.

The counts live in the RATE_LIMIT_CACHE cache (Redis when REDIS_URL is set, so that every server
process shares them; in-process memory on the embedded default). If that cache is down, sign-in is not
throttled (and a warning is logged) rather than refused for everyone.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time

from django.conf import settings
from django.core.cache import caches

logger = logging.getLogger(__name__)


def _cache():
    return caches[settings.RATE_LIMIT_CACHE]


def _keys(username: str, ip: str) -> list[tuple[str, int, str]]:
    """(cache key, limit, what) for the username and the address."""
    name = hashlib.sha256((username or "").strip().lower().encode()).hexdigest()[:32]
    return [
        (f"login:user:{name}", settings.LOGIN_FAILURES_PER_USERNAME, "username"),
        (f"login:ip:{ip or 'unknown'}", settings.LOGIN_FAILURES_PER_IP, "ip"),
    ]


def client_ip(request) -> str:
    # daphne sets REMOTE_ADDR from X-Forwarded-For only when started with --proxy-headers (as the
    # Dockerfile does, behind nginx, which overwrites that header with the real peer address).
    return request.META.get("REMOTE_ADDR", "")


def locked_for(username: str, ip: str) -> tuple[int, str] | None:
    """(seconds left, "username" or "ip") if sign-in is refused for this username or address."""
    try:
        cache = _cache()
        for key, limit, what in _keys(username, ip):
            if (cache.get(key) or 0) >= limit:
                until = cache.get(f"{key}:until") or time.time() + 60
                return max(1, math.ceil(until - time.time())), what
    except Exception:
        logger.warning("sign-in throttle cache unavailable; not throttling", exc_info=True)
    return None


def record_failure(username: str, ip: str) -> None:
    window = settings.LOGIN_FAILURE_WINDOW
    try:
        cache = _cache()
        for key, _limit, _what in _keys(username, ip):
            if cache.add(key, 0, timeout=window):
                cache.set(f"{key}:until", time.time() + window, timeout=window)
            try:
                cache.incr(key)
            except ValueError:  # the window ended between add and incr
                cache.add(key, 1, timeout=window)
    except Exception:
        logger.warning("sign-in throttle cache unavailable; failure not counted", exc_info=True)


def record_success(username: str, ip: str) -> None:
    reset(username)


def reset(username: str = "", ip: str | None = None) -> None:
    """Forget the failures of a username (and of an address, if given): admins and tests use it."""
    try:
        cache = _cache()
        user_key, ip_key = (key for key, _limit, _what in _keys(username, ip or ""))
        keys = [user_key, f"{user_key}:until"]
        if ip is not None:
            keys += [ip_key, f"{ip_key}:until"]
        cache.delete_many(keys)
    except Exception:
        logger.warning("sign-in throttle cache unavailable; nothing reset", exc_info=True)


def refusal_message(seconds: int, what: str) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    wait = f"{minutes} minute{'s' if minutes != 1 else ''}"
    if what == "username":
        return (
            f"Too many failed sign-ins for this account. Sign-in is locked for {wait}; "
            "you can reset your password meanwhile."
        )
    return f"Too many failed sign-ins from your network. Try again in {wait}."
