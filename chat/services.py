"""Posting to a table's or a group's chat, and a group creator taking a message down. One transaction
each; the message reaches every open page after the commit."""

from __future__ import annotations

import unicodedata

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from chat.models import MAX_LENGTH, Message
from games.errors import BadRequest, Forbidden, NotFound, RateLimited
from games.live import ratelimit
from games.live.broadcast import send_on_commit, tell_users_on_commit
from games.models import Game
from games.tables.services import can_watch
from groups.models import Group, Membership


def clean(text) -> str:
    """The message as it is kept: stripped, at most MAX_LENGTH characters, no control characters
    (line breaks and tabs become spaces). It is always shown as text, never as HTML."""
    if not isinstance(text, str):
        raise BadRequest(_("A chat message is text."))
    text = "".join(" " if c in "\r\n\t" else c for c in text)
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cs", "Cf") or c == "\u200d")
    text = " ".join(text.split())
    if not text:
        raise BadRequest(_("Write something first."))
    if len(text) > MAX_LENGTH:
        raise BadRequest(_("A chat message is at most %(max)s characters."), max=MAX_LENGTH)
    return text


def _limit(user) -> None:
    wait = ratelimit.shared_hit(f"chat:{user.pk}", settings.CHAT_MESSAGES_PER_MINUTE, period=60)
    if wait is not None:
        raise RateLimited(_("You are writing too fast: wait %(wait)s s."), retry_after=wait, wait=wait)


def post_to_game(*, game_id: int, user, text) -> Message:
    text = clean(text)
    game = Game.objects.filter(pk=game_id).select_related("group").first()
    if game is None:
        raise NotFound(_("There is no such game."))
    if not can_watch(game, user):
        raise Forbidden(_("You may not talk at this table."))
    _limit(user)
    with transaction.atomic():
        message = Message.objects.create(game=game, author=user, text=text)
        send_on_commit(game.pk, {"type": "chat", "message": message.as_dict()})
    return message


def post_to_group(*, group_id: int, user, text) -> Message:
    text = clean(text)
    group = Group.objects.filter(pk=group_id).first()
    if group is None or not Membership.objects.filter(group=group, user=user).exists():
        raise Forbidden(_("Only the group's members talk in it."))
    _limit(user)
    with transaction.atomic():
        message = Message.objects.create(group=group, author=user, text=text)
        _tell_group(group, message)
    return message


def remove_from_group(*, group_id: int, user, message_id: int) -> Message:
    with transaction.atomic():
        message = (
            Message.objects.select_for_update()
            .select_related("group", "author")
            .filter(pk=message_id, group_id=group_id)
            .first()
        )
        if message is None:
            raise NotFound(_("There is no such message."))
        if message.group.creator_id != user.pk:
            raise Forbidden(_("Only the group's creator removes messages."))
        message.removed = True
        message.save(update_fields=["removed"])
        _tell_group(message.group, message)
    return message


def _tell_group(group: Group, message: Message) -> None:
    members = Membership.objects.filter(group=group).values_list("user__username", flat=True)
    tell_users_on_commit(members, {"type": "notices.chat", "group": group.pk, "message": message.as_dict()})
