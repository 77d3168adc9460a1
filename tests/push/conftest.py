"""Push messages' fixtures: the site's VAPID keys, a player's device, and a push transport that records
(or refuses) what the worker sends instead of posting it."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from notices import push, vapid
from notices.models import PushSubscription
from tests.push.browser_subscription import decrypt, subscription_json


@pytest.fixture
def vapid_keys(settings, tmp_path):
    """A key pair of the test's own, from the settings (the file of `make run` is never read)."""
    pair = vapid.generate()
    settings.VAPID_PRIVATE_KEY, settings.VAPID_PUBLIC_KEY = pair.private, pair.public
    settings.VAPID_KEYS_FILE = tmp_path / "vapid-keys.json"
    return pair


@pytest.fixture
def device():
    """device(user, **switches): a subscription of ``user``'s, every kind on unless switched off."""
    count = [0]

    def make(user, **switches) -> PushSubscription:
        count[0] += 1
        data = subscription_json(count[0] + 100 * user.pk)
        return PushSubscription.objects.create(
            user=user, endpoint=data["endpoint"], device="Firefox on Linux", **data["keys"], **switches
        )

    return make


@dataclass
class Transport:
    """The worker's post to a push service (notices.push.post), recorded instead: each message with its
    endpoint, decrypted as the device would, answered with ``status`` (201: taken; 404/410: gone; 500:
    failed). The encryption, the signature and the outcomes are the real ones."""

    status: int = 201
    sent: list = field(default_factory=list)

    async def __call__(self, session, url, body, headers):
        assert headers["Authorization"].startswith("vapid t=") and headers["Content-Encoding"] == "aes128gcm"
        self.sent.append((str(url), decrypt(body, str(url)).decode()))
        return self.status, "Created" if self.status == 201 else "Failed"

    @property
    def messages(self) -> list[dict]:
        return [json.loads(data) for _endpoint, data in self.sent]


@pytest.fixture
def transport(monkeypatch):
    fake = Transport()
    monkeypatch.setattr(push, "post", fake)
    return fake
