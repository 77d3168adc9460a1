"""A browser's push subscription, as its PushSubscription.toJSON() gives it, checked and stored for the
signed-in player (notices.views' JSON endpoints; the settings page's script posts it)."""

from __future__ import annotations

import re

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from notices import push
from notices.models import PushSubscription
from notices.vapid import b64url_decode

ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length
DEVICE_MAX = PushSubscription._meta.get_field("device").max_length


class Invalid(ValueError):
    """A request the endpoints answer 400, with a sentence that says what is wrong."""


def endpoint_text(data: dict) -> str:
    """The request's endpoint as text: a URL's characters (printable ASCII, no space), of a stored
    length. What the unsubscribe takes: any endpoint the player may have stored."""
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise Invalid(_("The subscription has no endpoint."))
    if len(endpoint) > ENDPOINT_MAX:
        raise Invalid(_("The endpoint is too long."))
    if not (endpoint.isascii() and endpoint.isprintable()) or " " in endpoint:
        raise Invalid(_("The endpoint must be an https address of a push service."))
    return endpoint


def endpoint_of(data: dict) -> str:
    """The endpoint of a subscription to store: a push service's (notices.push.service_url, which the
    worker asks again before it sends). The test settings may name one local push service
    (web-push-testing) that the browser journeys subscribe to."""
    endpoint = endpoint_text(data)
    try:
        push.service_url(endpoint)
    except push.Refused:
        raise Invalid(_("The endpoint must be an https address of a push service.")) from None
    return endpoint


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


def _point(value: str) -> str:
    """A p256dh that is a point of P-256: any other 65 bytes cannot encrypt a message, ever."""
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(value))
    except ValueError:
        raise Invalid(
            _("The subscription's key %(name)s is missing or malformed.") % {"name": "p256dh"}
        ) from None
    return value


def check(data: dict) -> tuple[str, str, str]:
    """(endpoint, p256dh, auth) of a toJSON(), or Invalid."""
    endpoint = endpoint_of(data)
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise Invalid(_("The subscription has no keys."))
    # An uncompressed P-256 point (0x04, x, y) and a 16-byte secret (RFC 8291).
    return endpoint, _point(_key(keys, "p256dh", 65, first=4)), _key(keys, "auth", 16)


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
    is the same player's, and starts afresh for another (the browser's profile changed hands). A player
    has at most PUSH_DEVICES_MAX devices: a new one beyond them drops the one that went longest without
    a message (the player subscribes the device in their hand; one unused for longest is likeliest
    gone), so that one account never makes a message a thousand requests."""
    endpoint, p256dh, auth = check(data)
    label = device_label(user_agent)
    with transaction.atomic():
        # The player's row is the lock two tabs subscribing at once queue on (the count holds).
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
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
        others = PushSubscription.objects.filter(user=user).exclude(pk=device.pk)
        surplus = others.count() - (settings.PUSH_DEVICES_MAX - 1)
        if surplus > 0:
            oldest = others.order_by(Coalesce("last_used_at", "created_at"), "pk")[:surplus]
            PushSubscription.objects.filter(pk__in=list(oldest.values_list("pk", flat=True))).delete()
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
