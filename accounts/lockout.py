"""Sign-in lock-out against password guessing: django-axes, set up by settings (AXES_*) to point here.

After LOGIN_FAILURES_PER_USERNAME failed sign-ins for one username (any letter case), or
LOGIN_FAILURES_PER_IP from one address, with less than LOGIN_FAILURE_WINDOW seconds between one failure
and the next, every further sign-in for that username or from that address is refused, on the site's
and on the admin's sign-in, without the password being checked, until LOGIN_FAILURE_WINDOW seconds after
the last failure. A successful sign-in clears its username's failures. The failures are rows of axes'
AccessAttempt, so every server process sees them; `manage.py axes_reset_username NAME` lifts a lock.

Axes has one failure limit for every lock-out parameter; the handler below scales the count of the
address onto the username's limit, so that each keeps its own setting.
"""

from __future__ import annotations

import math
from datetime import timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Max, Sum
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import ngettext


def failure_limit(request, credentials) -> int:
    """AXES_FAILURE_LIMIT: the username's limit (the address's is scaled onto it by the handler)."""
    return settings.LOGIN_FAILURES_PER_USERNAME


def cool_off(request) -> timedelta:
    """AXES_COOLOFF_TIME, read at each call so that a changed setting holds at once."""
    return timedelta(seconds=settings.LOGIN_FAILURE_WINDOW)


def username(request, credentials) -> str:
    """AXES_USERNAME_CALLABLE: one count for every letter case of a name, and no longer than axes'
    column holds it. Django's sign-in form lets a name of any length reach authenticate() (it only
    tells the browser its maximum), and a longer one failed to be saved on PostgreSQL (a 500,
    defect 9); no player's name is that long, so names that share their start share a count."""
    name = (credentials or {}).get("username") or request.POST.get("username") or ""
    return name.strip().lower()[: AccessAttempt._meta.get_field("username").max_length]


def client_ip(request) -> str:
    """AXES_CLIENT_IP_CALLABLE. daphne sets REMOTE_ADDR from X-Forwarded-For only when started with
    --proxy-headers (as the Dockerfile does, behind nginx, which overwrites that header with the real
    peer address)."""
    return request.META.get("REMOTE_ADDR", "")


class LockoutHandler(AxesDatabaseHandler):
    """Axes' database handler with a limit per parameter (AXES_LOCKOUT_PARAMETERS: username, then
    address), and the lock shown from the attempt after the one that reached the limit, as before."""

    def _counts(self, request, credentials) -> list[tuple[int, object]]:
        """(failures, time of the last one) for the username and for the address, within the window."""
        return [
            (totals["failures"] or 0, totals["last"])
            for totals in (
                attempts.aggregate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
                for attempts in self.get_user_attempts(request, credentials)
            )
        ]

    def get_failures(self, request, credentials=None) -> int:
        (by_username, _), (by_address, _) = self._counts(request, credentials)
        scaled = by_address * settings.LOGIN_FAILURES_PER_USERNAME // settings.LOGIN_FAILURES_PER_IP
        return max(by_username, scaled)

    def lock(self, request, credentials=None) -> tuple[int, str] | None:
        """(seconds left, "username" or "ip") if sign-in is refused for this username or address."""
        limits = (settings.LOGIN_FAILURES_PER_USERNAME, settings.LOGIN_FAILURES_PER_IP)
        counts = self._counts(request, credentials)
        for (failures, last), limit, what in zip(counts, limits, ("username", "ip"), strict=True):
            if failures >= limit:
                left = (last + cool_off(request) - timezone.now()).total_seconds()
                return max(1, math.ceil(left)), what
        return None

    def user_login_failed(self, sender, credentials: dict, request=None, **kwargs):
        refused = getattr(request, "axes_locked_out", False)  # set by axes' backend before the signal
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is not None and not refused:
            # The failure that reaches the limit is answered like any other failure.
            request.axes_locked_out = False

    def reset_user_attempts(self, request, credentials=None) -> int:
        """On success: the username's rows only (axes would clear the address's too); the address keeps
        its failures for other usernames."""
        count, _rows = self.filter_user_attempts(request, credentials)[0].delete()
        return count


def refusal_message(seconds: int, what: str) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    if what == "username":
        return ngettext(
            "Too many failed sign-ins for this account. Sign-in is locked for %(minutes)s minute; "
            "you can reset your password meanwhile.",
            "Too many failed sign-ins for this account. Sign-in is locked for %(minutes)s minutes; "
            "you can reset your password meanwhile.",
            minutes,
        ) % {"minutes": minutes}
    return ngettext(
        "Too many failed sign-ins from your network. Try again in %(minutes)s minute.",
        "Too many failed sign-ins from your network. Try again in %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}


def lockout_response(request, *args, **kwargs):
    """AXES_LOCKOUT_CALLABLE: the sign-in page again with why and for how long, status 429.

    Axes calls it with (request, response, credentials) or, from its async middleware, (request,
    credentials): neither is needed here, the request has what it takes.
    """
    handler = AxesProxyHandler.get_implementation()
    credentials = getattr(request, "axes_credentials", None)
    lock = handler.lock(request, credentials) or (int(cool_off(request).total_seconds()), "username")
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    context = {"form": form, "lockout_message": refusal_message(*lock)}
    return render(request, "registration/login.html", context, status=429)
