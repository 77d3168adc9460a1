"""Deployment settings and the sign-in lock-out against password guessing.

`manage.py check --deploy` with the production settings is run by tests/config/test_settings.py; here
the settings it relies on are asserted one by one, and the sign-in lock-out (django-axes, configured by
accounts/lockout.py) is exercised. Its failures are rows of the test database, gone after each test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from axes.models import AccessAttempt
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from tests.reliability.conftest import ROOT

NAMES = [
    "DEBUG",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SECURE_SSL_REDIRECT",
    "SECURE_CONTENT_TYPE_NOSNIFF",
    "X_FRAME_OPTIONS",
    "SECURE_PROXY_SSL_HEADER",
    "DICE_SOURCE",
    "LOGIN_FAILURES_PER_USERNAME",
    "LOGIN_FAILURES_PER_IP",
    "LOGIN_FAILURE_WINDOW",
    "WS_MAX_MESSAGE_BYTES",
]
PROBE = (
    "import json, django; from django.conf import settings as s; django.setup(); "
    f"print(json.dumps({{n: getattr(s, n) for n in {NAMES!r}}}))"
)


@pytest.mark.slow_subprocess
def test_production_settings_are_secure():
    env = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "DICE_SOURCE"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY="k" * 20 + "Qz9!x7Lm2#vB4nR8tY6wE1uI3oP5aS0dF" + "j" * 10,
        ALLOWED_HOSTS="dice.example.com",
    )
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    s = json.loads(result.stdout)
    assert s["DEBUG"] is False
    assert s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"] and s["SESSION_COOKIE_HTTPONLY"]
    assert s["SECURE_HSTS_SECONDS"] >= 31536000
    assert s["SECURE_HSTS_INCLUDE_SUBDOMAINS"] and s["SECURE_HSTS_PRELOAD"]
    assert s["SECURE_SSL_REDIRECT"] and s["SECURE_CONTENT_TYPE_NOSNIFF"]
    assert s["X_FRAME_OPTIONS"] == "DENY"
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert s["DICE_SOURCE"] == "fair"
    assert (s["LOGIN_FAILURES_PER_USERNAME"], s["LOGIN_FAILURE_WINDOW"]) == (5, 900)
    assert s["WS_MAX_MESSAGE_BYTES"] <= 64 * 1024


# --- sign-in lock-out ------------------------------------------------------------------------------

PASSWORD = "correct-horse-battery"


@pytest.fixture
def victim(make_user):
    return make_user("victim")


def sign_in(client, username, password, ip="127.0.0.1", url="accounts:login"):
    return client.post(reverse(url), {"username": username, "password": password}, REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_five_failures_lock_the_username(client, victim):
    for _ in range(5):
        response = sign_in(client, "victim", "guess")
        assert response.status_code == 200  # the form again, with Django's "enter a correct..." error
    # Locked now, even with the right password, and even in another letter case.
    for name in ("victim", "VICTIM"):
        response = sign_in(client, name, PASSWORD)
        assert response.status_code == 429
        assert b"Too many failed sign-ins for this account" in response.content
        assert b"locked for 15 minutes" in response.content
    assert "_auth_user_id" not in client.session
    # The admin's sign-in shares the count.
    admin = sign_in(client, "victim", PASSWORD, url="admin:login")
    assert b"Too many failed sign-ins for this account" in admin.content
    # Another account from the same address is not locked.
    other = sign_in(client, "someone-else", "guess")
    assert other.status_code == 200 and b"Too many" not in other.content


@pytest.mark.django_db
def test_the_lock_ends_with_the_window(client, victim, settings, time_machine):
    """The clock is moved, not waited for: axes and accounts.lockout read it through
    django.utils.timezone, which time-machine moves (so the window is the site's own, 15 minutes)."""
    time_machine.move_to(timezone.now(), tick=False)
    for _ in range(5):
        sign_in(client, "victim", "guess")
    assert sign_in(client, "victim", PASSWORD).status_code == 429
    time_machine.shift(settings.LOGIN_FAILURE_WINDOW - 1)
    assert sign_in(client, "victim", PASSWORD).status_code == 429
    time_machine.shift(2)
    response = sign_in(client, "victim", PASSWORD)
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(victim.pk)


@pytest.mark.django_db
def test_a_successful_sign_in_clears_the_count(client, victim):
    for _ in range(4):
        sign_in(client, "victim", "guess")
    assert sign_in(client, "victim", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        sign_in(client, "victim", "guess")
    assert sign_in(client, "victim", PASSWORD).status_code == 302


@pytest.mark.django_db
def test_one_address_guessing_many_usernames_is_locked(client, victim, settings):
    settings.LOGIN_FAILURES_PER_IP = 3
    for n in range(3):
        sign_in(client, f"user{n}", "guess", ip="203.0.113.9")
    response = sign_in(client, "victim", PASSWORD, ip="203.0.113.9")
    assert response.status_code == 429
    assert b"Too many failed sign-ins from your network" in response.content
    # Another address signs in as usual.
    assert sign_in(client, "victim", PASSWORD, ip="198.51.100.7").status_code == 302


@pytest.mark.django_db
def test_an_admin_lifts_a_lock(client, victim):
    """The failures are rows in the database, shared by every server process; an admin can clear them."""
    for _ in range(5):
        sign_in(client, "victim", "guess")
    assert AccessAttempt.objects.filter(username="victim").count() == 1
    assert sign_in(client, "victim", PASSWORD).status_code == 429
    call_command("axes_reset_username", "victim")
    assert sign_in(client, "victim", PASSWORD).status_code == 302
