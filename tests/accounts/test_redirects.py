"""Every view that follows ``?next=`` stays on this site: sign-up, sign-in and sign-out."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

SAFE = "/highscores/?kind=farkle"
OUTSIDE = [
    "https://evil.example/x",
    "//evil.example/x",
    "javascript:alert(1)",
    "/\\evil.example/x",
    "http://testserver.evil.example/x",
]
PASSWORD = "dice-are-nice-42"


def sign_up(client, next_url: str, *, secure: bool = False):
    return client.post(
        f"{reverse('accounts:signup')}?{_query(next_url)}",
        {"username": "bob", "email": "", "password1": PASSWORD, "password2": PASSWORD},
        secure=secure,
    )


def sign_in(client, next_url: str, *, secure: bool = False):
    return client.post(
        f"{reverse('accounts:login')}?{_query(next_url)}",
        {"username": "ann", "password": "correct-horse-battery"},
        secure=secure,
    )


def sign_out(client, next_url: str, *, secure: bool = False):
    return client.post(f"{reverse('accounts:logout')}?{_query(next_url)}", secure=secure)


def _query(next_url: str) -> str:
    return urlencode({"next": next_url})


def test_sign_up_follows_a_local_next(client):
    response = sign_up(client, SAFE)
    assert response.status_code == 302
    assert response["Location"] == SAFE


@pytest.mark.parametrize("target", OUTSIDE)
def test_sign_up_ignores_an_outside_next(client, target):
    response = sign_up(client, target)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert client.get(reverse("home")).wsgi_request.user.username == "bob"


def test_sign_up_over_https_ignores_a_plain_http_next(client):
    response = sign_up(client, "http://testserver/highscores/", secure=True)
    assert response["Location"] == reverse("home")


def test_sign_up_without_next_goes_home(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "bob", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response["Location"] == reverse("home")


def test_sign_in_follows_a_local_next(client, user):
    response = sign_in(client, SAFE)
    assert response.status_code == 302
    assert response["Location"] == SAFE


@pytest.mark.parametrize("target", OUTSIDE)
def test_sign_in_ignores_an_outside_next(client, user, target):
    response = sign_in(client, target)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


def test_sign_in_over_https_ignores_a_plain_http_next(client, user):
    response = sign_in(client, "http://testserver/highscores/", secure=True)
    assert response["Location"] == reverse("home")


def test_sign_out_follows_a_local_next(user_client):
    response = sign_out(user_client, SAFE)
    assert response.status_code == 302
    assert response["Location"] == SAFE


@pytest.mark.parametrize("target", OUTSIDE)
def test_sign_out_ignores_an_outside_next(user_client, target):
    response = sign_out(user_client, target)
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


def test_sign_in_page_links_carry_no_outside_next(client):
    page = client.get(reverse("accounts:login"), {"next": "https://evil.example/x"})
    assert page.status_code == 200
    assert b"evil.example" not in page.content
