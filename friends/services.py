"""Following a player and no longer following them: one row each, written in one statement.

Who may be followed: an active person other than oneself. Not a computer player (it plays whenever it
is seated; the table's own "add a computer" is the way to play it), not a deleted account, and not across
a block (pairing.models.Block), whoever blocked whom: a player who blocked you is not followed by you,
and you do not follow whom you blocked. Unfollowing is always allowed, a block or not.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from friends.models import Follow
from games.errors import BadRequest, Forbidden, NotFound
from pairing.models import Block


def _player(username: str):
    other = get_user_model().objects.filter(username=username, is_active=True).first()
    if other is None:
        raise NotFound(_("There is no player called %(name)s."), name=username)
    return other


def follow_player(*, user, username: str) -> Follow:
    """``user`` follows the player called ``username``; following them again changes nothing (two
    requests at once included: the pair is unique, and get_or_create reads the row the other wrote)."""
    other = _player(username)
    if other.pk == user.pk:
        raise BadRequest(_("You cannot follow yourself."))
    if other.is_computer:
        raise BadRequest(_("Computer players cannot be followed."))
    pair = Q(blocker=user, blocked=other) | Q(blocker=other, blocked=user)
    blocks = set(Block.objects.filter(pair).values_list("blocker_id", flat=True))
    if user.pk in blocks:
        raise Forbidden(_("You blocked %(name)s: unblock them to follow them."), name=other.username)
    if other.pk in blocks:
        raise Forbidden(_("You cannot follow %(name)s."), name=other.username)
    follow, _created = Follow.objects.get_or_create(follower=user, followed=other)
    return follow


def unfollow_player(*, user, username: str) -> None:
    """``user`` no longer follows the player called ``username`` (nothing if they did not)."""
    other = get_user_model().objects.filter(username=username).first()
    if other is None:
        raise NotFound(_("There is no player called %(name)s."), name=username)
    Follow.objects.filter(follower=user, followed=other).delete()
