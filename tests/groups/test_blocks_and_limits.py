"""Adding a player to a group respects blocks (whoever blocked whom) and is rate-limited per creator:
each addition is a notice and a push message to someone else."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache

from games.errors import Forbidden, RateLimited
from groups import services
from groups.models import Membership
from notices.models import Notice
from pairing.models import Block

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh_limits():
    cache = caches[django_settings.RATE_LIMIT_CACHE]
    if isinstance(cache, LocMemCache):
        cache.clear()


@pytest.mark.parametrize("who", ["creator", "player"])
def test_a_blocked_pair_is_not_added_to_a_group_either_way(make_user, who):
    ann, bob = make_user("ann"), make_user("bob")
    group = services.group_create(creator=ann, name="Dice")
    if who == "creator":
        Block.objects.create(blocker=ann, blocked=bob)
    else:
        Block.objects.create(blocker=bob, blocked=ann)
    with pytest.raises(Forbidden) as refused:
        services.group_add_member(group_id=group.pk, user=ann, username="bob")
    assert refused.value.message == "You cannot add bob: one of you blocked the other."
    assert not Membership.objects.filter(group=group, user=bob).exists()
    assert not Notice.objects.filter(user=bob).exists()


def test_group_additions_are_rate_limited(make_user, settings, fresh_limits):
    settings.GROUP_ADDITIONS_PER_HOUR = 2
    ann = make_user("ann")
    others = [make_user(f"p{n}") for n in range(3)]
    group = services.group_create(creator=ann, name="Dice")
    for other in others[:2]:
        services.group_add_member(group_id=group.pk, user=ann, username=other.username)
    with pytest.raises(RateLimited) as refused:
        services.group_add_member(group_id=group.pk, user=ann, username="p2")
    assert refused.value.retry_after > 0
    assert not Membership.objects.filter(group=group, user=others[2]).exists()
    assert not Notice.objects.filter(user=others[2]).exists()
