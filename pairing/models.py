"""A player's request for a game with whoever else asks for the same (a seek), and a player's blocks."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Seek(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting"
        SEATED = "seated"
        LEFT = "left"
        # A live request whose page went quiet (pairing.seating.STALE_AFTER): left by the site, not
        # the player, whose form then says so.
        LAPSED = "lapsed"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seeks")
    # What the player asked for; seeks of the same queue (pairing.queues) are seated together.
    kind = models.CharField(max_length=32)
    options = models.JSONField(default=dict)  # in full, as games store them
    seats = models.PositiveSmallIntegerField()
    pace = models.CharField(max_length=4)
    absence_limit = models.PositiveIntegerField()
    queue = models.CharField(max_length=96, db_index=True)
    # Seconds of waiting after which the player takes the people found plus computers; None: never.
    computers_after = models.PositiveIntegerField(null=True, blank=True)
    # The player's rating in the queue's kind when they asked (ratings.selectors), what pairing compares.
    rating = models.IntegerField()
    # Fair dice (docs/fair-dice.md): the server seed committed to the player on the page they asked
    # from (games.fair_seeds), and the seed their browser made after it; "" when none came. A table's
    # server seed is its longest waiting player's, drawn before anyone else at it asked.
    server_seed = models.CharField(max_length=64, blank=True, default="")
    client_seed = models.CharField(max_length=64, blank=True, default="")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.WAITING)
    created_at = models.DateTimeField()
    # A live seek's page pings; one not heard from for a while is left, not seated (pairing.services).
    seen_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        constraints = [
            # A player waits in one queue at a time: two tabs asking at once get one seek.
            models.UniqueConstraint(
                fields=["user"], condition=Q(status="waiting"), name="seek_one_waiting_per_user"
            )
        ]
        indexes = [models.Index(fields=["queue", "status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} {self.queue} {self.status}"


class Block(models.Model):
    """``blocker`` is never seated with ``blocked`` by pairing (nor the other way round)."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="block_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"
