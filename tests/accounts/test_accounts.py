"""Sign up, log in, log out, profile, password change and reset."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_signup_creates_user_and_logs_in(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "bob", "email": "", "password1": "dice-are-nice-42", "password2": "dice-are-nice-42"},
    )
    assert response.status_code == 302
    assert User.objects.filter(username="bob").exists()
    home = client.get(reverse("home"))
    assert b"bob" in home.content
    assert home.wsgi_request.user.username == "bob"


def test_signup_rejects_mismatched_passwords(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "bob", "password1": "dice-are-nice-42", "password2": "dice-are-nice-43"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="bob").exists()
    assert b"didn" in response.content  # "The two password fields didn't match."


def test_signup_rejects_taken_username(client, user):
    response = client.post(
        reverse("accounts:signup"),
        {"username": user.username, "password1": "dice-are-nice-42", "password2": "dice-are-nice-42"},
    )
    assert response.status_code == 200
    assert User.objects.filter(username=user.username).count() == 1


def test_login_and_logout(client, user):
    response = client.post(
        reverse("accounts:login"), {"username": "ann", "password": "correct-horse-battery"}
    )
    assert response.status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 200
    response = client.post(reverse("accounts:logout"))
    assert response.status_code == 302
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_login_with_wrong_password_fails(client, user):
    response = client.post(reverse("accounts:login"), {"username": "ann", "password": "nope"})
    assert response.status_code == 200
    assert client.get(reverse("accounts:profile")).status_code == 302


def test_profile_requires_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302
    assert reverse("accounts:login") in response["Location"]


def test_profile_sets_display_name(user_client, user):
    response = user_client.post(
        reverse("accounts:profile"), {"display_name": "Annie", "email": "ann@example.com"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.display_name == "Annie"
    page = user_client.get(reverse("accounts:profile"))
    assert b"Annie" in page.content


def test_password_change(user_client, user):
    response = user_client.post(
        reverse("accounts:password_change"),
        {
            "old_password": "correct-horse-battery",
            "new_password1": "new-dice-pass-77",
            "new_password2": "new-dice-pass-77",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("new-dice-pass-77")


def test_password_reset_by_email(client, make_user):
    make_user("cid", email="cid@example.com")
    response = client.post(reverse("accounts:password_reset"), {"email": "cid@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200
    response = client.post(
        form.redirect_chain[-1][0], {"new_password1": "reset-dice-99", "new_password2": "reset-dice-99"}
    )
    assert response.status_code == 302
    assert User.objects.get(username="cid").check_password("reset-dice-99")


def test_home_lists_the_four_games(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    for name in (b"Triple Quintzee", b"Triple Yahtzee 99", b"Painted DiceZ", b"Farkle"):
        assert name in response.content


def test_admin_is_enabled(client):
    assert client.get("/admin/login/").status_code == 200
