"""Limits on what a script could repeat from the sign-up and password-reset pages, counted in the rate
limits' shared cache (Redis in production: every server process shares one count; it fails open while
Redis is down, infra/ratelimit.py). The client's address is REMOTE_ADDR, which behind nginx is the
player's (daphne --proxy-headers; nginx overwrites X-Forwarded-For), as for sign-in lock-out.

- Sign-ups: a script making throw-away accounts from one address is refused after
  SIGNUPS_PER_IP_PER_HOUR attempts an hour.
- Password resets: at most PASSWORD_RESETS_PER_EMAIL_PER_HOUR for one e-mail address, and
  PASSWORD_RESETS_PER_IP_PER_HOUR from one client address. The e-mail address is counted whether an
  account has it or not, so the refusal (429, and a page that says so) tells nothing about accounts,
  as Django's reset page never does; a silent refusal would leave a player waiting for a link that
  never comes.
"""

from __future__ import annotations

import hashlib
import math
from functools import wraps

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.lockout import client_ip
from infra import ratelimit

HOUR = 3600


def limit_signups(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method == "POST":
            wait = ratelimit.shared_hit(
                f"signup-ip:{client_ip(request)}", settings.SIGNUPS_PER_IP_PER_HOUR, period=HOUR
            )
            if wait is not None:
                return _refusal(request, "accounts/signup_limited.html", wait)
        return view(request, *args, **kwargs)

    return wrapped


def limit_password_resets(request: HttpRequest, email: str) -> HttpResponse | None:
    """Count one reset link asked for ``email``; None if it may be sent, else the refusal to answer."""
    wait = ratelimit.shared_hit(
        f"reset-ip:{client_ip(request)}", settings.PASSWORD_RESETS_PER_IP_PER_HOUR, period=HOUR
    )
    if wait is not None:
        return _refusal(request, "accounts/password_reset_limited.html", wait, scope="client")
    # A digest, not the address: the cache keeps no e-mail addresses. Folded as the form's look-up
    # ignores case (``email__iexact``).
    mailbox = hashlib.sha256(email.strip().casefold().encode()).hexdigest()
    wait = ratelimit.shared_hit(
        f"reset-email:{mailbox}", settings.PASSWORD_RESETS_PER_EMAIL_PER_HOUR, period=HOUR
    )
    if wait is not None:
        return _refusal(request, "accounts/password_reset_limited.html", wait, scope="email")
    return None


def _refusal(request: HttpRequest, template: str, wait: int, **context) -> HttpResponse:
    return render(request, template, {"minutes": math.ceil(wait / 60), **context}, status=429)
