"""Reading a table's or a group's chat (the game page's snapshot, the replay, the group page)."""

from __future__ import annotations

from chat.models import Message

RECENT = 50


def recent_for_game(game_id: int) -> list[dict]:
    rows = (
        Message.objects.filter(game_id=game_id)
        .select_related("author")
        .order_by("-created_at", "-pk")[:RECENT]
    )
    return [m.as_dict() for m in reversed(rows)]


def for_replay(game_id: int) -> list[Message]:
    """Every message of the table still there, oldest first (the replay page shows them all)."""
    return list(Message.objects.filter(game_id=game_id, removed=False).select_related("author"))


def recent_for_group(group_id: int) -> list[Message]:
    rows = (
        Message.objects.filter(group_id=group_id)
        .select_related("author")
        .order_by("-created_at", "-pk")[:RECENT]
    )
    return list(reversed(rows))


def group_page_part(request, group) -> dict:
    """The group page's chat (groups/pages.py): its latest messages."""
    return {"chat": recent_for_group(group.pk)}
