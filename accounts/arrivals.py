"""What a visitor was on the way to when they signed up or signed in (an invitation opened signed out):
the apps that keep such a thing register a welcomer here (``welcomers.register``, in their
``AppConfig.ready``), so that accounts, below them, need not know them.

A welcomer is an object with ``describe(request)`` (a line for the sign-in and sign-up pages, or None)
and ``honour(request)`` (the page to land on once signed in, or None)."""

from __future__ import annotations

from django.http import HttpRequest

from infra.hooks import Hook

welcomers = Hook(
    "accounts.arrivals.welcomers",
    "What a visitor was on the way to when they signed up or signed in.",
    receives="nothing: the handler is an object (a module) with `describe(request)` and `honour(request)`",
    returns="`describe`: a line for the sign-in and sign-up pages, or None; `honour`: the page to land "
    "on once signed in, or None; the first answer counts",
    runs="on the sign-in and sign-up requests",
)


def describe(request: HttpRequest) -> str | None:
    """The first welcomer's line for this visitor, if any."""
    return next((line for w in welcomers.handlers if (line := w.describe(request))), None)


def honour(request: HttpRequest) -> str | None:
    """Honour what the visitor was on the way to; the page to land on, if any."""
    return next((landing for w in welcomers.handlers if (landing := w.honour(request))), None)
