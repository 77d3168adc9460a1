"""A field's error is tied to its field for assistive technology, apart from its help text."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_an_error_marks_its_field_and_is_linked_to_it(client):
    response = client.post(
        reverse("accounts:signup"),
        {"username": "two words", "password1": "six-dice-and-a-cup", "password2": "six-dice-and-a-cup"},
    )
    html = response.content.decode()
    field = re.search(r'<input type="text" name="username"[^>]*>', html)[0]
    assert 'aria-invalid="true"' in field
    assert 'aria-describedby="id_username_helptext id_username_error"' in field
    assert '<ul class="errorlist" id="id_username_error"><li>Enter a valid username.' in html
    # The help text stays help text; a field without an error is not marked.
    assert '<div class="helptext" id="id_username_helptext">' in html
    password = re.search(r'<input type="password" name="password1"[^>]*>', html)[0]
    assert "aria-invalid" not in password


def test_lobby_errors_use_the_same_marks(client, make_user):
    client.force_login(make_user("ann"))
    response = client.post(
        reverse("games:new"), {"kind": "triple-quintzee", "seats": 9, "absence_limit": 120}
    )
    assert response.status_code == 400
    html = response.content.decode()
    seats = re.search(r'<input type="number" name="seats"[^>]*>', html)[0]
    assert 'aria-invalid="true"' in seats and "id_seats_error" in seats
    assert '<ul class="errorlist" id="id_seats_error">' in html
