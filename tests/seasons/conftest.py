"""A group with three members: ann (its creator), bob and cid."""

from __future__ import annotations

import pytest

from tests.factories import GroupFactory


@pytest.fixture
def cid(make_user):
    return make_user("cid")


@pytest.fixture
def group(ann, bob, cid):
    return GroupFactory(creator=ann, name="Friday dice", members=[bob, cid])
