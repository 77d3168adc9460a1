"""A browser's push subscription, as its PushSubscription.toJSON() gives it, checked and stored for the
signed-in player (notices.views' JSON endpoints; the settings page's script posts it)."""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from notices import push
from notices.models import PushSubscription
from notices.vapid import b64url_decode

ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length
DEVICE_MAX = PushSubscription._meta.get_field("device").max_length


class Invalid(ValueError):
    """A request the endpoints answer 400, with a sentence that says what is wrong."""


def endpoint_of(data: dict) -> str:
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise Invalid(_("The subscription has no endpoint."))
    if len(endpoint) > ENDPOINT_MAX:
        raise Invalid(_("The endpoint is too long."))
    try:
        parts = urlsplit(endpoint)
        scheme, host = parts.scheme, parts.hostname
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:
        scheme = host = None
    # The worker posts to this address: a push service's, over TLS, never a plain one, nor one of this
    # machine's or its network's (the site must not be made to post into them). The test settings may
    # name one local push service (web-push-testing) that the browser journeys subscribe to.
    local_service = getattr(settings, "PUSH_TEST_SERVICE", "")
    if local_service and endpoint.startswith(local_service.rstrip("/") + "/"):
        return endpoint
    if scheme != "https" or not host or any(c.isspace() for c in endpoint) or _local(host):
        raise Invalid(_("The endpoint must be an https address of a push service."))
    return endpoint


def _local(host: str) -> bool:
    if host == "localhost" or host.endswith((".localhost", ".local", ".internal")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False  # a name: push services are reached by name
    return not address.is_global


def _key(keys: dict, name: str, size: int, first: int | None = None) -> str:
    value = keys.get(name)
    if not isinstance(value, str) or len(value) > 2 * size:
        raise Invalid(_("The subscription's key %(name)s is missing or malformed.") % {"name": name})
    try:
        raw = b64url_decode(value)
    except ValueError:
        raw = b""
    if len(raw) != size or (first is not None and raw[0] != first):
        raise Invalid(_("The subscription's key %(name)s is missing or malformed.") % {"name": name})
    return value.rstrip("=")


def check(data: dict) -> tuple[str, str, str]:
    """(endpoint, p256dh, auth) of a toJSON(), or Invalid."""
    endpoint = endpoint_of(data)
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise Invalid(_("The subscription has no keys."))
    # An uncompressed P-256 point (0x04, x, y) and a 16-byte secret (RFC 8291).
    return endpoint, _key(keys, "p256dh", 65, first=4), _key(keys, "auth", 16)


def device_label(user_agent: str) -> str:
    """A name a player recognises a device by: its browser and system, from the User-Agent."""
    ua = user_agent or ""
    browser = next(
        (
            name
            for pattern, name in (
                (r"Edg/", "Edge"),
                (r"OPR/|Opera", "Opera"),
                (r"Firefox/", "Firefox"),
                (r"Chrome/|CriOS/", "Chrome"),
                (r"Safari/", "Safari"),
            )
            if re.search(pattern, ua)
        ),
        "",
    )
    system = next(
        (
            name
            for pattern, name in (
                (r"Android", "Android"),
                (r"iPhone|iPad|iPod", "iOS"),
                (r"Windows", "Windows"),
                (r"Mac OS X|Macintosh", "macOS"),
                (r"CrOS", "ChromeOS"),
                (r"Linux", "Linux"),
            )
            if re.search(pattern, ua)
        ),
        "",
    )
    label = " on ".join(part for part in (browser, system) if part)
    return (label or ua.strip() or _("A browser"))[:DEVICE_MAX]


def subscribe(*, user, data: dict, user_agent: str = "") -> tuple[PushSubscription, bool]:
    """Store the subscription for ``user``; (it, created). A known endpoint keeps its switches when it
    is the same player's, and starts afresh for another (the browser's profile changed hands)."""
    endpoint, p256dh, auth = check(data)
    label = device_label(user_agent)
    with transaction.atomic():
        device = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if device is not None and device.user_id == user.pk:
            device.p256dh, device.auth, device.device = p256dh, auth, label
            device.save(update_fields=["p256dh", "auth", "device"])
            return device, False
        if device is not None:
            device.delete()
        device = PushSubscription.objects.create(
            user=user, endpoint=endpoint, p256dh=p256dh, auth=auth, device=label
        )
    return device, True


def unsubscribe(*, user, endpoint: str) -> bool:
    deleted, _rows = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def describe(device: PushSubscription) -> dict:
    return {
        "id": device.pk,
        "device": device.device,
        "kinds": {kind: getattr(device, kind) for kind in push.KINDS},
    }
