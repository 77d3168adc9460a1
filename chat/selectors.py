"""Reading a table's or a group's chat (the game page's snapshot, the replay, the group page)."""

from __future__ import annotations

from django.db.models import QuerySet

from chat.models import Message, Mute, TableChatOff

RECENT = 50


def _for(messages: QuerySet, viewer) -> QuerySet:
    """``messages`` without those of the authors ``viewer`` muted (a visitor mutes nobody)."""
    if viewer is None or not viewer.is_authenticated:
        return messages
    return messages.exclude(author__in=Mute.objects.filter(muter=viewer).values("muted"))


def table_chat_off(game_id: int, viewer) -> bool:
    """``viewer`` turned the chat of this game's table off for themselves."""
    return (
        bool(viewer and viewer.is_authenticated)
        and TableChatOff.objects.filter(user=viewer, game_id=game_id).exists()
    )


def hidden_for(message: Message) -> list[int]:
    """The ids of the people a line of the table's chat is not for: those who muted its author, and
    those who turned the table's chat off (never its author)."""
    muters = Mute.objects.filter(muted_id=message.author_id).values_list("muter_id", flat=True)
    off = TableChatOff.objects.filter(game_id=message.game_id).values_list("user_id", flat=True)
    return sorted(set(muters.union(off)) - {message.author_id})


def recent_for_game(game_id: int, viewer=None) -> list[dict]:
    """The table's latest messages as ``viewer`` reads them: none if they turned its chat off."""
    if table_chat_off(game_id, viewer):
        return []
    rows = (
        _for(Message.objects.filter(game_id=game_id), viewer)
        .select_related("author")
        .order_by("-created_at", "-pk")[:RECENT]
    )
    return [m.as_dict() for m in reversed(rows)]


def for_replay(game_id: int, viewer=None) -> list[Message]:
    """Every message of the table still there, oldest first (the replay page shows them all), but
    those of authors ``viewer`` muted."""
    messages = Message.objects.filter(game_id=game_id, removed=False)
    return list(_for(messages, viewer).select_related("author"))


def recent_for_group(group_id: int, viewer=None) -> list[Message]:
    rows = (
        _for(Message.objects.filter(group_id=group_id), viewer)
        .select_related("author")
        .order_by("-created_at", "-pk")[:RECENT]
    )
    return list(reversed(rows))


def muted_names(user) -> list[str]:
    return list(
        Mute.objects.filter(muter=user).order_by("muted__username").values_list("muted__username", flat=True)
    )


def is_muted(user, other) -> bool:
    return user.is_authenticated and Mute.objects.filter(muter=user, muted=other).exists()


def group_page_part(request, group) -> dict:
    """The group page's chat (groups/pages.py): its latest messages, as the reader reads them."""
    return {"chat": recent_for_group(group.pk, request.user)}
