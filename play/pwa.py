"""The installable web app: its manifest, its service worker and the page the service worker
shows when the site cannot be reached.

The service worker is served here, at the site's root, rather than from /static/: a worker controls
only the pages under its own path. It keeps the static files the offline page needs (and any static
file once fetched), never a page: pages, a game's above all, always come from the server, and its
websocket is never touched (docs/pwa.md)."""

from __future__ import annotations

import hashlib
import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

THEME_COLOUR = "#18233d"  # the die of static/favicon.svg
BACKGROUND = "#ffffff"
ICONS = [
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/maskable-512.png", "512x512", "maskable"),
]
# What the offline page needs, kept when the worker installs.
OFFLINE_FILES = ["css/site.css", "favicon.svg", "icons/icon-192.png"]


@require_safe
@cache_control(max_age=3600, private=True)  # in the reader's language
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the reader's language."""
    home = reverse("home")
    data = {
        "id": home,
        "name": "DiceHall",
        "short_name": "DiceHall",
        "description": _("Dice games with friends: live at one table, or a turn a day."),
        "lang": request.LANGUAGE_CODE,
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": static(path), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for path, sizes, purpose in ICONS
        ],
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker. Its text changes with the static files' names (hashed in production), so a
    deployment installs a new worker, which drops the old worker's cache."""
    offline = reverse("offline")
    precache = [static(path) for path in OFFLINE_FILES]
    version = hashlib.sha256(json.dumps([offline, *precache]).encode()).hexdigest()[:12]
    context = {
        "version": json.dumps(version),
        "offline": json.dumps(offline),
        "precache": json.dumps(precache),
        # The prefix itself, not static(""): the manifest storage of production knows files only, and
        # refuses a name it has no entry for.
        "static_prefix": json.dumps(settings.STATIC_URL),
        "icon": json.dumps(static("icons/icon-192.png")),
    }
    response = render(request, "pwa/sw.js", context, content_type="text/javascript")
    # A worker may only control its own path and below: this one, at the root, the whole site.
    response["Service-Worker-Allowed"] = reverse("home")
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows in place of a page when the site cannot be reached."""
    return render(request, "pwa/offline.html")
