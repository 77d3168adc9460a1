"""Posting to a table's or a group's chat, and taking a message down (its author, or the group's
creator). One transaction each; the message reaches every open page after the commit."""

from __future__ import annotations

import unicodedata
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from chat import selectors as chat_selectors
from chat.models import MAX_LENGTH, Message, Mute, TableChatOff
from games.access import can_watch
from games.errors import BadRequest, Forbidden, NotFound, RateLimited
from games.live.broadcast import group_name, layer_message, send_on_commit_to
from games.models import Game
from groups.models import Group, Membership
from infra import ratelimit
from infra.params import storable
from notices.feed import tell_users_on_commit


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
    # Read again: a socket's user was read at its handshake, before a moderator's mute perhaps.
    muted = get_user_model().objects.filter(pk=user.pk).values_list("chat_muted_until", flat=True).first()
    if muted is not None and muted > timezone.now():
        raise Forbidden(
            _("A moderator muted you in chat until %(until)s."),
            until=timezone.localtime(muted).strftime("%Y-%m-%d %H:%M %Z"),
        )
    wait = ratelimit.shared_hit(f"chat:{user.pk}", settings.CHAT_MESSAGES_PER_MINUTE, period=60)
    if wait is not None:
        raise RateLimited(_("You are writing too fast: wait %(wait)s s."), retry_after=wait, wait=wait)


# Who talks at a table, as at Board Game Arena's tables and in lichess's players' room: its players,
# while the game is open or being played and for CHAT_AFTER_GAME after its end (a "good game"); then
# the table's chat is closed and kept as it is for the replay. Spectators read.
CHAT_AFTER_GAME = timedelta(minutes=15)


def post_to_game(*, game_id: int, user, text) -> Message:
    text = clean(text)
    game = Game.objects.filter(pk=game_id).select_related("group").first()
    if game is None or not can_watch(game, user):
        raise NotFound(_("There is no such game."))
    if not game.seats.filter(user=user).exists():
        raise Forbidden(_("Only the players talk at a table; spectators read."))
    if game.finished_at is not None and timezone.now() - game.finished_at > CHAT_AFTER_GAME:
        raise Forbidden(
            _("This table's chat closed %(minutes)s minutes after the game ended."),
            minutes=int(CHAT_AFTER_GAME.total_seconds() // 60),
        )
    _limit(user)
    with transaction.atomic():
        message = Message.objects.create(game=game, author=user, text=text)
        _tell_table(message)
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
    return _remove(Message.objects.filter(pk=message_id, group_id=group_id), user)


def remove_from_game(*, game_id: int, user, message_id) -> Message:
    if not isinstance(message_id, int) or isinstance(message_id, bool):
        raise BadRequest(_("unsay needs message: the id of a chat message."))
    return _remove(Message.objects.filter(pk=message_id, game_id=game_id), user)


def _remove(messages, user) -> Message:
    """Its author, or the creator of the group it was said in (the group's chat or one of its games'
    tables), takes a message down: its text is gone for good, and every open page drops it. The
    row stays, empty, so that pages holding the message by its id learn that it went."""
    with transaction.atomic():
        message = messages.select_for_update(of=("self",)).select_related("group", "game__group").first()
        if message is None or not can_read(message, user):
            raise NotFound(_("There is no such message."))
        group = message.group if message.group_id else message.game.group
        if message.author_id != user.pk and (group is None or group.creator_id != user.pk):
            raise Forbidden(_("Only its author or the group's creator removes a message."))
        message.removed, message.text = True, ""
        message.save(update_fields=["removed", "text"])
        if message.game_id:
            _tell_table(message)
        else:
            _tell_group(message.group, message)
    return message


def can_read(message: Message, user) -> bool:
    """Whether ``user`` may read ``message``: its table's watchers, or its group's members."""
    if message.game_id:
        return can_watch(message.game, user)
    return Membership.objects.filter(group_id=message.group_id, user=user).exists()


def _tell_table(message: Message) -> None:
    """Every socket of the message's table hears it once committed, but a reader who muted its author
    or turned the table's chat off: their ids travel with it (``hidden_for``, one query here, none per
    socket), and their sockets leave it out (play.consumers)."""
    payload = {"type": "chat", "message": message.as_dict()}
    layered = {**layer_message(payload), "hidden_for": chat_selectors.hidden_for(message)}
    send_on_commit_to([(group_name(message.game_id), layered)])


def _tell_group(group: Group, message: Message) -> None:
    """The group's members hear it, but those who muted its author."""
    members = (
        Membership.objects.filter(group=group)
        .exclude(user__in=Mute.objects.filter(muted_id=message.author_id).values("muter"))
        .values_list("user__username", flat=True)
    )
    tell_users_on_commit(members, {"type": "notices.chat", "group": group.pk, "message": message.as_dict()})


# --- mutes, and a table's chat turned off ----------------------------------------------------------


def person_named(username):
    """The person (not a computer player) called ``username``; no such player otherwise."""
    user = None
    if isinstance(username, str) and storable(username):
        user = get_user_model().objects.filter(username=username, computer="").first()
    if user is None:
        raise NotFound(_("There is no player called %(name)s."), name=username)
    return user


def mute(*, user, username) -> Mute:
    """``user`` no longer reads the chat of the player called ``username``, anywhere."""
    other = person_named(username)
    if other.pk == user.pk:
        raise BadRequest(_("You cannot mute yourself."))
    found, _created = Mute.objects.get_or_create(muter=user, muted=other)
    return found


def unmute(*, user, username) -> None:
    Mute.objects.filter(muter=user, muted=person_named(username)).delete()


def table_chat(*, game_id: int, user, on: bool) -> None:
    """``user`` turns the chat of the game's table off (``on`` False) or on again, for themselves."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not can_watch(game, user):
        raise NotFound(_("There is no such game."))
    if on:
        TableChatOff.objects.filter(user=user, game=game).delete()
    else:
        TableChatOff.objects.get_or_create(user=user, game=game)
