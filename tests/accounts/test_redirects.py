"""Every view that follows ``?next=`` stays on this site: sign-up, sign-in and sign-out."""

from __future__ import annotations

import re
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


@pytest.mark.parametrize("page", ["accounts:login", "accounts:signup"])
def test_sign_in_page_links_carry_no_outside_next(client, page):
    page = client.get(reverse(page), {"next": "https://evil.example/x"})
    assert page.status_code == 200
    assert b"evil.example" not in page.content


@pytest.mark.parametrize(
    "page, other", [("accounts:login", "accounts:signup"), ("accounts:signup", "accounts:login")]
)
def test_the_way_between_sign_in_and_sign_up_keeps_where_you_were_going(client, page, other):
    """An invited friend who opens a game's link signed out, then follows "Sign up" (or "Log in"),
    still lands on the game afterwards: the link carries ``next``."""
    game = "/games/5/?from=invite&x=1"
    html = client.get(f"{reverse(page)}?{_query(game)}").content.decode()
    assert f'href="{reverse(other)}?next=%2Fgames%2F5%2F%3Ffrom%3Dinvite%26x%3D1"' in html


def test_signing_up_through_the_sign_in_page_lands_on_the_game(client):
    game = "/games/5/"
    html = client.get(f"{reverse('accounts:login')}?{_query(game)}").content.decode()
    link = re.search(r'href="(' + re.escape(reverse("accounts:signup")) + r'\?next=[^"]+)"', html)[1]
    response = client.post(
        link.replace("&amp;", "&"),
        {"username": "bob", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302 and response.url == game


def test_without_next_the_links_carry_none(client):
    html = client.get(reverse("accounts:login")).content.decode()
    assert f'href="{reverse("accounts:signup")}"' in html
