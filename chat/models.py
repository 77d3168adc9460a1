"""Talk at a game's table and in a group: kept with the game (its replay shows it) or the group."""

from __future__ import annotations

from django.conf import settings
from django.db import models

MAX_LENGTH = 500


class Message(models.Model):
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="chat"
    )
    group = models.ForeignKey(
        "dicegroups.Group", null=True, blank=True, on_delete=models.CASCADE, related_name="chat"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.CharField(max_length=MAX_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    # A group's creator may take a message down; it stays in the database, shown as removed.
    removed = models.BooleanField(default=False)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(game__isnull=True) ^ models.Q(group__isnull=True), name="chat_in_one_place"
            )
        ]
        indexes = [models.Index(fields=["game", "created_at"]), models.Index(fields=["group", "created_at"])]

    def __str__(self) -> str:
        return f"{self.author}: {self.text[:40]}"

    def as_dict(self) -> dict:
        return {
            "id": self.pk,
            "user": self.author.username,
            "text": "" if self.removed else self.text,
            "removed": self.removed,
            "at": self.created_at.isoformat(),
        }


class Mute(models.Model):
    """``muter`` no longer reads ``muted``'s chat: at every table and in every group, on the page and
    live. Nobody else is told."""

    muter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["muter", "muted"], name="mute_unique_pair"),
            models.CheckConstraint(condition=~models.Q(muter=models.F("muted")), name="mute_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.muter_id} mutes {self.muted_id}"


class TableChatOff(models.Model):
    """``user`` turned the chat of one game's table off for themselves: none of it is shown to them."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="table_chat_off_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} off at {self.game_id}"
