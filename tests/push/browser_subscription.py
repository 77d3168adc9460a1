"""What a browser's PushSubscription.toJSON() looks like: a push service's endpoint, the browser's P-256
public key and a 16-byte secret (base64url)."""

from __future__ import annotations

import os

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from notices import vapid

# The browsers' private keys by their public one (base64url): what a browser decrypts a message with.
PRIVATE_KEYS: dict[str, ec.EllipticCurvePrivateKey] = {}


def browser_keys() -> dict:
    """What a browser's subscription carries: its P-256 public key and a 16-byte secret (base64url)."""
    private = ec.generate_private_key(ec.SECP256R1())
    raw = private.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    PRIVATE_KEYS[vapid.b64url(raw)] = private
    return {"p256dh": vapid.b64url(raw), "auth": vapid.b64url(os.urandom(16))}


# The keys of each endpoint subscription_json made: what the browser behind it decrypts with.
ENDPOINT_KEYS: dict[str, dict] = {}


def decrypt(body: bytes, endpoint: str) -> bytes:
    """A message as the browser behind ``endpoint`` reads it (RFC 8291, aes128gcm)."""
    keys = ENDPOINT_KEYS[endpoint]
    return http_ece.decrypt(
        body,
        private_key=PRIVATE_KEYS[keys["p256dh"]],
        auth_secret=vapid.b64url_decode(keys["auth"]),
        version="aes128gcm",
    )


def subscription_json(n: int = 1) -> dict:
    """Chrome's shape: an endpoint on FCM (one of the push services the site posts to)."""
    endpoint = f"https://fcm.googleapis.com/fcm/send/device-{n}:APA91b"
    keys = ENDPOINT_KEYS[endpoint] = browser_keys()
    return {"endpoint": endpoint, "expirationTime": None, "keys": keys}
