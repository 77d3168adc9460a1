"""What a browser's PushSubscription.toJSON() looks like: a push service's endpoint, the browser's P-256
public key and a 16-byte secret (base64url)."""

from __future__ import annotations

import os

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from notices import vapid


def browser_keys() -> dict:
    """What a browser's subscription carries: its P-256 public key and a 16-byte secret (base64url)."""
    point = ec.generate_private_key(ec.SECP256R1()).public_key()
    raw = point.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return {"p256dh": vapid.b64url(raw), "auth": vapid.b64url(os.urandom(16))}


def subscription_json(n: int = 1) -> dict:
    endpoint = f"https://push.example.com/send/device-{n}"
    return {"endpoint": endpoint, "expirationTime": None, "keys": browser_keys()}
