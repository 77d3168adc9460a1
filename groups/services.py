"""Every write to a group; only its creator manages members, edits and deletes it.

Removing a member or deleting a group never deletes a game, an action or anyone's statistics: games
keep their seats and logs (a deleted group's games are detached from it, and stay private: games.access).
A member who goes (removed, or leaving) loses every right in the group at once: their seats at its
tables still waiting for players are given up, they resign from its games being played, and a removed
member's copy of the invitation link stops working (the group gets a new one).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.errors import BadRequest, Conflict, Forbidden, NotFound, RateLimited
from games.live.broadcast import send_on_commit
from games.models import Game, Seat
from games.tables import services as tables
from groups.models import Group, Membership
from infra import ratelimit
from notices import services as notices


def _group(group_id: int, *, lock: bool = False) -> Group:
    qs = Group.objects.select_for_update() if lock else Group.objects
    try:
        return qs.get(pk=group_id)
    except Group.DoesNotExist:
        raise NotFound(_("There is no such group.")) from None


def _creator_only(group: Group, user, refusal) -> None:
    if group.creator_id != user.pk:
        raise Forbidden(refusal)


def _clean(name: str, description: str) -> tuple[str, str]:
    name = (name or "").strip()
    if not 1 <= len(name) <= 80:
        raise BadRequest(_("A group needs a name of 1 to 80 characters."))
    description = (description or "").strip()
    if len(description) > 2000:
        raise BadRequest(_("The description may be at most 2000 characters."))
    return name, description


def group_create(*, creator, name: str, description: str = "") -> Group:
    name, description = _clean(name, description)
    with transaction.atomic():
        group = Group.objects.create(name=name, description=description, creator=creator)
        Membership.objects.create(group=group, user=creator)
    return group


def group_update(*, group_id: int, user, name: str, description: str = "") -> Group:
    name, description = _clean(name, description)
    with transaction.atomic():
        group = _group(group_id, lock=True)
        _creator_only(group, user, _("Only the group's creator can edit it."))
        group.name, group.description = name, description
        group.save(update_fields=["name", "description"])
    return group


def group_add_member(*, group_id: int, user, username: str) -> Membership:
    with transaction.atomic():
        group = _group(group_id, lock=True)
        _creator_only(group, user, _("Only the group's creator can add members."))
        member = get_user_model().objects.filter(username__iexact=(username or "").strip()).first()
        if member is None:
            raise NotFound(_("There is no player called %(name)s."), name=repr(username))
        if Membership.objects.filter(group=group, user=member).exists():
            raise Conflict(_("%(name)s is already a member."), name=member.username)
        # A blocked pair never sits at one table (games.tables.services.refuse_seating, pairing's
        # blocks): nor does one put the other in a group of theirs, whoever blocked whom.
        if tables.seating_refusal(member, [user]) is not None:
            raise Forbidden(_("You cannot add %(name)s: one of you blocked the other."), name=member.username)
        # Each addition is a notice and a push message to someone else: limited per creator, as
        # challenges are (infra.ratelimit, shared by every process); a refused one does not count.
        wait = ratelimit.shared_hit(f"group-add:{user.pk}", settings.GROUP_ADDITIONS_PER_HOUR, period=3600)
        if wait is not None:
            raise RateLimited(_("You have added many players: wait %(wait)s s."), retry_after=wait, wait=wait)
        membership = Membership.objects.create(group=group, user=member)
        notices.added_to_group(group, member, by=user)
    return membership


def _new_token() -> str:
    # 18 random bytes: a link nobody guesses, short enough to paste into a chat.
    return secrets.token_urlsafe(18)


def group_invite_create(*, group_id: int, user) -> str:
    """A new invitation link for the group (its token); any earlier link stops working."""
    with transaction.atomic():
        group = _group(group_id, lock=True)
        _creator_only(group, user, _("Only the group's creator can invite with a link."))
        group.invite_token = _new_token()
        group.save(update_fields=["invite_token"])
    return group.invite_token


def group_invite_revoke(*, group_id: int, user) -> None:
    """No invitation link any more: every copy of the old one shows that it is no longer valid."""
    with transaction.atomic():
        group = _group(group_id, lock=True)
        _creator_only(group, user, _("Only the group's creator can revoke its invitation link."))
        group.invite_token = None
        group.save(update_fields=["invite_token"])


def group_join_by_invite(*, token: str, user) -> tuple[Membership, bool]:
    """Join the group of a valid invitation link; (membership, whether it is new). Joining twice is
    harmless: the second time returns the membership there is."""
    with transaction.atomic():
        # Locked by its token: a join waiting behind a revocation finds no group (PostgreSQL checks the
        # condition again once the lock is granted), so a revoked link adds nobody.
        group = Group.objects.select_for_update().filter(invite_token=token).first() if token else None
        if group is None:
            raise NotFound(_("This invitation is no longer valid."))
        return Membership.objects.get_or_create(group=group, user=user)


def _cut_off(group: Group, member) -> None:
    """Take the member's seats in the group's unfinished games away (a table waiting for players: the
    seat is given up, or the table cancelled if it was theirs; a game being played: they resign) and
    close their open sockets to those games, on every server process. Called while they are still a
    member: a resignation is a move of theirs, which a non-member may not make."""
    unfinished = Game.objects.filter(group=group, status__in=[Game.Status.OPEN, Game.Status.PLAYING])
    game_ids = list(unfinished.values_list("pk", flat=True))
    seats = Seat.objects.filter(game_id__in=game_ids, user=member, resigned=False).select_related("game")
    for seat in list(seats):
        if seat.game.status == Game.Status.OPEN:
            tables.game_leave(game_id=seat.game_id, user=member)
        else:
            tables.game_apply_action(
                game_id=seat.game_id, user=member, client_id="left-the-group", action={"type": "resign"}
            )
    for game_id in game_ids:
        send_on_commit(game_id, {"type": "access_revoked", "user": member.username})


def group_remove_member(*, group_id: int, user, member_id: int) -> None:
    with transaction.atomic():
        group = _group(group_id, lock=True)
        _creator_only(group, user, _("Only the group's creator can remove members."))
        if member_id == group.creator_id:
            raise Conflict(_("The creator cannot be removed; delete the group instead."))
        membership = Membership.objects.filter(group=group, user_id=member_id).select_related("user").first()
        if membership is None:
            raise NotFound(_("That player is not a member of this group."))
        _cut_off(group, membership.user)
        membership.delete()
        if group.invite_token is not None:
            # The removed member may hold the link: a new one, which the creator shares again.
            group.invite_token = _new_token()
            group.save(update_fields=["invite_token"])


def group_leave(*, group_id: int, user) -> None:
    with transaction.atomic():
        group = _group(group_id, lock=True)
        if group.creator_id == user.pk:
            raise Conflict(_("The creator cannot leave the group; delete it instead."))
        if not Membership.objects.filter(group=group, user=user).exists():
            raise NotFound(_("You are not a member of this group."))
        _cut_off(group, user)
        Membership.objects.filter(group=group, user=user).delete()


def group_delete(*, group_id: int, user) -> None:
    with transaction.atomic():
        group = _group(group_id, lock=True)
        _creator_only(group, user, _("Only the group's creator can delete it."))
        # Tables still waiting for players are cancelled: nobody could join them any more.
        Game.objects.filter(group=group, status=Game.Status.OPEN).update(
            status=Game.Status.ABANDONED, finished_at=timezone.now()
        )
        group.delete()  # games keep their rows: Game.group is SET_NULL
