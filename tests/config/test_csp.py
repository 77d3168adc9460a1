"""The Content-Security-Policy (django-csp, configured in config/settings/base.py): the same
strict policy on every kind of response, and pages that keep to it, so that no browser has anything of
ours to refuse (the browser tests fail on any violation: tests/browser/helpers.py's ConsoleWatch)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse

from tests.reliability import world as W

pytestmark = pytest.mark.django_db

STRICT = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],  # the favicon with the notices' count (static/js/notices.js)
    "connect-src": ["'self'"],
    "manifest-src": ["'self'"],  # the installable app's (play/pwa.py)
    "worker-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}


def policy(response) -> dict[str, list[str]]:
    header = response.headers.get("Content-Security-Policy")
    assert header, f"no Content-Security-Policy on {response.request['PATH_INFO']}"
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *sources = part.split()
        assert name not in directives, header
        directives[name] = sources
    return directives


class Markup(HTMLParser):
    """What a strict policy would refuse in a page: inline scripts (a JSON data block is not run),
    event-handler attributes, style attributes and elements, javascript: URLs, other sites' files."""

    def __init__(self) -> None:
        super().__init__()
        self.faults: list[str] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "script" and not values.get("src") and values.get("type") != "application/json":
            self.faults.append(f"inline script at line {self.getpos()[0]}")
        if tag == "style":
            self.faults.append(f"<style> at line {self.getpos()[0]}")
        for name, value in attrs:
            if name.startswith("on"):
                self.faults.append(f"{name}= on <{tag}>")
            if name == "style":
                self.faults.append(f"style= on <{tag}>")
            if name in ("href", "src", "action", "formaction") and value:
                if value.strip().lower().startswith("javascript:"):
                    self.faults.append(f"javascript: URL on <{tag}>")
                elsewhere = "//" in value and "//testserver/" not in value
                if tag in ("script", "link", "img", "iframe") and elsewhere:
                    self.faults.append(f"another site's file: <{tag} {name}={value}>")


def assert_keeps_to_the_policy(response, where: str) -> None:
    assert policy(response) == STRICT, where
    if response.headers.get("Content-Type", "").startswith("text/html"):
        markup = Markup()
        markup.feed(response.content.decode())
        assert not markup.faults, (where, markup.faults)


@pytest.fixture
def world(db):
    return W.build()


def test_every_kind_of_page_has_the_strict_policy_and_keeps_to_it(world):
    games, group = world.games, world.group
    visitor = Client()
    pages = {
        "home": reverse("home"),
        "sign-in": reverse("accounts:login"),
        "sign-up": reverse("accounts:signup"),
        "password reset": reverse("accounts:password_reset"),
        "rules": reverse("games:rules", args=["farkle"]),
        "404": "/no-such-page/",
        "health": reverse("healthz"),
        "catalogue": reverse("javascript-catalog", args=["de"]),
        "static script": "/static/js/menu.js",
        "static image": "/static/favicon.svg",
        "admin sign-in": reverse("admin:login"),
    }
    for where, url in pages.items():
        response = visitor.get(url)
        assert response.status_code in (200, 404), (where, response.status_code)
        assert_keeps_to_the_policy(response, where)

    player = Client()
    player.force_login(world.users["seated"])
    pages = {
        "lobby": reverse("games:lobby"),
        "your games": reverse("games:mine"),
        "game": reverse("games:detail", args=[games["public-triple-quintzee"].pk]),
        "Farkle game": reverse("games:detail", args=[games["group"].pk]),
        "waiting room": reverse("games:detail", args=[games["open"].pk]),
        "replay": reverse("games:replay", args=[games["finished"].pk]),
        "statistics": reverse("players:stats", args=["ann"]),
        "history": reverse("players:history", args=["ann"]),
        "high scores": reverse("highscores"),
        "high scores API": reverse("api_highscores"),
        "groups": reverse("groups:list"),
        "group": reverse("groups:detail", args=[group.pk]),
        "notices": reverse("notices:list"),
        "notice settings": reverse("notices:settings"),
        "profile": reverse("accounts:profile"),
        "password change": reverse("accounts:password_change"),
        "403": reverse("groups:edit", args=[group.pk]),  # ann did not create the group
        "admin": reverse("admin:index"),  # not staff: the admin's sign-in
    }
    for where, url in pages.items():
        response = player.get(url, follow=True)
        assert response.status_code in (200, 403), (where, response.status_code)
        assert_keeps_to_the_policy(response, where)

    refused = Client(enforce_csrf_checks=True)
    refused.force_login(world.users["seated"])
    response = refused.post(reverse("games:new"))
    assert response.status_code == 403
    assert_keeps_to_the_policy(response, "CSRF failure")


def test_the_admins_pages_have_it_too(world):
    """Django's admin keeps to the policy as it is: no exemption or override anywhere."""
    staff = Client()
    staff.force_login(world.users["staff"])
    ann = world.users["seated"]
    pages = {
        "index": reverse("admin:index"),
        "players": reverse("admin:accounts_user_changelist"),
        "players searched": reverse("admin:accounts_user_changelist") + "?q=ann",
        "a player": reverse("admin:accounts_user_change", args=[ann.pk]),
        "new player": reverse("admin:accounts_user_add"),
        "a player's password": reverse("admin:auth_user_password_change", args=[ann.pk]),
        "groups": reverse("admin:auth_group_changelist"),
        "a group": reverse("admin:auth_group_change", args=[world.auth_group.pk]),
        "history": reverse("admin:accounts_user_history", args=[ann.pk]),
        "delete": reverse("admin:accounts_user_delete", args=[ann.pk]),
        "own password": reverse("admin:password_change"),
    }
    for where, url in pages.items():
        response = staff.get(url)
        assert response.status_code == 200, (where, response.status_code)
        assert_keeps_to_the_policy(response, f"admin {where}")
