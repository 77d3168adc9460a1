"""Sign-ups per address: a script making throw-away accounts from one address is refused after
SIGNUPS_PER_IP_PER_HOUR attempts an hour. Counted in the rate limits' shared cache (Redis in
production), so every server process shares one count. The address is REMOTE_ADDR, which behind nginx
is the player's (daphne --proxy-headers; nginx overwrites X-Forwarded-For), as for sign-in lock-out."""

from __future__ import annotations

import math
from functools import wraps

from django.conf import settings
from django.shortcuts import render

from accounts.lockout import client_ip
from games.live import ratelimit


def limit_signups(view):
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.method == "POST":
            wait = ratelimit.shared_hit(
                f"signup-ip:{client_ip(request)}", settings.SIGNUPS_PER_IP_PER_HOUR, period=3600
            )
            if wait is not None:
                minutes = math.ceil(wait / 60)
                return render(request, "accounts/signup_limited.html", {"minutes": minutes}, status=429)
        return view(request, *args, **kwargs)

    return wrapped
