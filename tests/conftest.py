"""Shared fixtures: players and signed-in clients."""

from __future__ import annotations

import itertools

import pytest

_counter = itertools.count(1)


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str | None = None, password: str = "correct-horse-battery", **extra):
        name = username or f"player{next(_counter)}"
        return django_user_model.objects.create_user(username=name, password=password, **extra)

    return make


@pytest.fixture
def user(make_user):
    return make_user("ann")


@pytest.fixture
def user_client(client, user):
    client.force_login(user)
    return client
