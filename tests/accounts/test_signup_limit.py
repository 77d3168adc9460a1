"""Sign-ups per address (accounts/throttle.py): the limit, per address, shared, and refused attempts
make no account."""

from __future__ import annotations

import itertools
import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
# Each test's own addresses (TEST-NET-3), so that counts of other tests never meet these.
_addresses = (f"203.0.113.{n}" for n in itertools.count(1))


def sign_up(address: str, name: str):
    password = "dice-are-nice-42"
    return Client(REMOTE_ADDR=address).post(
        reverse("accounts:signup"), {"username": name, "password1": password, "password2": password}
    )


def test_an_address_is_refused_after_the_limit_and_another_is_not(settings):
    settings.SIGNUPS_PER_IP_PER_HOUR = 3
    busy, other = next(_addresses), next(_addresses)
    for n in range(3):
        assert sign_up(busy, f"script{n}").status_code == 302
    refused = sign_up(busy, "script3")
    assert refused.status_code == 429
    assert b"Too many sign-ups from your address" in refused.content
    assert re.search(rb"try again in \d+ minutes?\.", refused.content)
    assert not User.objects.filter(username="script3").exists()
    assert sign_up(other, "friend").status_code == 302


def test_failed_attempts_count_too(settings):
    """A form with errors is an attempt as well: a script guessing free usernames is limited alike."""
    settings.SIGNUPS_PER_IP_PER_HOUR = 2
    address = next(_addresses)
    UserFactory(username="taken", password="x")
    for _ in range(2):
        assert sign_up(address, "taken").status_code == 200  # the form, with its error
    assert sign_up(address, "free").status_code == 429


def test_reading_the_page_is_never_limited(settings):
    settings.SIGNUPS_PER_IP_PER_HOUR = 1
    address = next(_addresses)
    client = Client(REMOTE_ADDR=address)
    for _ in range(5):
        assert client.get(reverse("accounts:signup")).status_code == 200
