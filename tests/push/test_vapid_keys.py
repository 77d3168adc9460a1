"""`manage.py vapid_keys`: the pair `make run` makes once, kept afterwards; the environment's wins."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from py_vapid import Vapid

from notices import vapid


@pytest.fixture
def keys_file(settings, tmp_path):
    settings.VAPID_PRIVATE_KEY = settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_KEYS_FILE = tmp_path / "vapid-keys.json"
    return settings.VAPID_KEYS_FILE


def test_the_command_makes_a_pair_once(keys_file):
    assert vapid.keys() is None
    call_command("vapid_keys", stdout=io.StringIO())
    pair = vapid.keys()
    assert pair is not None and keys_file.stat().st_mode & 0o077 == 0
    call_command("vapid_keys", stdout=io.StringIO())
    assert vapid.keys() == pair  # kept: every browser's subscription names this public key
    assert vapid.from_private(pair.private) == pair
    assert len(vapid.b64url_decode(pair.public)) == 65 and len(vapid.b64url_decode(pair.private)) == 32
    # The pair signs what its public key verifies (py-vapid's own check).
    token = Vapid.from_raw(pair.private.encode()).sign({"sub": "mailto:a@example.com", "aud": "https://x"})
    assert token["Authorization"].startswith("vapid t=")
    assert json.loads(keys_file.read_text())["public_key"] == pair.public


def test_the_environments_keys_win_and_the_public_one_may_be_derived(keys_file, settings):
    made = vapid.generate()
    settings.VAPID_PRIVATE_KEY = made.private
    assert vapid.keys() == made
    out = io.StringIO()
    call_command("vapid_keys", stdout=out)
    assert "environment" in out.getvalue() and not keys_file.exists()


def test_print_gives_environment_lines(keys_file):
    out = io.StringIO()
    call_command("vapid_keys", "--print", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().split())
    assert vapid.from_private(lines["VAPID_PRIVATE_KEY"]).public == lines["VAPID_PUBLIC_KEY"]
    assert not keys_file.exists()
