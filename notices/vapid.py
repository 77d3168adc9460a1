"""The site's VAPID key pair (RFC 8292), which signs every push message so that a push service knows it
comes from the server a browser subscribed to: from the environment (VAPID_PRIVATE_KEY,
VAPID_PUBLIC_KEY), else from VAPID_KEYS_FILE, which `manage.py vapid_keys` writes once."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.conf import settings
from py_vapid import Vapid


@dataclass(frozen=True, slots=True)
class Keys:
    private: str  # base64url of the private scalar (32 bytes), as py-vapid's from_raw reads it
    public: str  # base64url of the uncompressed public point (65 bytes): the applicationServerKey

    def signer(self) -> Vapid:
        return Vapid.from_raw(self.private.encode())


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    """Bytes of a base64url text, padded or not; ValueError for anything else."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as exc:
        raise ValueError("not base64url") from exc


def _public_of(private_key: ec.EllipticCurvePrivateKey) -> str:
    return b64url(private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))


def generate() -> Keys:
    private_key = ec.generate_private_key(ec.SECP256R1())
    scalar = private_key.private_numbers().private_value.to_bytes(32, "big")
    return Keys(private=b64url(scalar), public=_public_of(private_key))


def from_private(private: str) -> Keys:
    """The pair of a private key (its public half derived)."""
    return Keys(private=private, public=_public_of(Vapid.from_raw(private.encode()).private_key))


def keys() -> Keys | None:
    """The site's pair, or None when push messages are not configured."""
    if settings.VAPID_PRIVATE_KEY:
        if settings.VAPID_PUBLIC_KEY:
            return Keys(private=settings.VAPID_PRIVATE_KEY, public=settings.VAPID_PUBLIC_KEY)
        return from_private(settings.VAPID_PRIVATE_KEY)
    return read(Path(settings.VAPID_KEYS_FILE))


def read(path: Path) -> Keys | None:
    try:
        stored = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    return Keys(private=stored["private_key"], public=stored["public_key"])


def write(path: Path, pair: Keys) -> None:
    """Write the pair, readable by its owner alone (it signs the site's messages)."""
    path.touch(mode=0o600, exist_ok=True)
    path.write_text(json.dumps({"private_key": pair.private, "public_key": pair.public}, indent=2) + "\n")
