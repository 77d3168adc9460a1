"""Reports of players (for a chat message, a game, or themselves) and what moderators decided.

A report is the reporter's and the moderators' alone: the reported player never learns who reported
them (no page, notice or download of theirs names the reporter). Each decision of a moderator is kept
with who made it, why and when; the player is told what and why.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

TEXT_MAX = 300


class Report(models.Model):
    class Reason(models.TextChoices):
        CHAT = "chat", _("Abuse in chat")
        HELP = "help", _("Cheating: help from a computer or another person")
        UNFAIR = "unfair", _("Unfair play, such as stalling")
        NAME = "name", _("Offensive name")
        OTHER = "other", _("Something else")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=8, choices=Reason.choices)
    text = models.CharField(max_length=TEXT_MAX)
    # What the report is about besides the player, if anything: one of their chat messages, or a game
    # they played in. ``subject`` says which ("player", "message:<id>", "game:<id>"), so that a report
    # is made once while it is open, however often it is sent.
    message = models.ForeignKey(
        "chat.Message", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    subject = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when a moderator decided on the reports about the player (any decision, "no action" included).
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["reporter", "reported", "subject"],
                condition=Q(handled_at__isnull=True),
                name="report_once_while_open",
            ),
            models.CheckConstraint(condition=~Q(reporter=F("reported")), name="report_not_self"),
        ]
        indexes = [models.Index(fields=["reported", "handled_at"])]

    def __str__(self) -> str:
        return f"{self.reported_id}: {self.reason}"


class Decision(models.Model):
    """What a moderator did about a player, and why: the log of moderation."""

    class Kind(models.TextChoices):
        DISMISS = "dismiss", _("No action")
        WARN = "warn", _("Warn")
        MUTE = "mute", _("Mute in chat")
        BAR = "bar", _("Bar from rated play")
        CLOSE = "close", _("Close the account")
        LIFT = "lift", _("Lift the mute and the bar")

    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    reason = models.CharField(max_length=TEXT_MAX)
    # How long a mute or a bar holds (None: for the other kinds).
    until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.player_id} by {self.moderator_id}"
