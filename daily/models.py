"""The daily challenge's days (each with its server seed, committed before the day) and the players'
attempts (one game per day, kind and player). docs/daily.md."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games import fair_dice


class Day(models.Model):
    """One day of the challenge in the site's time zone: the server seed every game of that day is dealt
    from, drawn the first time anyone asks for the day (at the latest when its first game is created;
    the daily page asks for today's and tomorrow's, so that a day's commitment is shown the day before)
    and revealed once the day is closed (``closed_at``: the day is over, its games that were still
    being played ended and all of them public)."""

    date = models.DateField(unique=True)
    server_seed = models.CharField(max_length=64, default=fair_dice.new_server_seed)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"daily challenge of {self.date.isoformat()}"

    @property
    def commitment(self) -> str:
        return fair_dice.commitment(self.server_seed)

    @property
    def revealed_seed(self) -> str | None:
        """The day's server seed once the day is closed; None before."""
        return self.server_seed if self.closed_at is not None else None


class Attempt(models.Model):
    """A player's game of one kind on one day: the only one (unique), whatever became of it."""

    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="attempts")
    kind = models.CharField(max_length=32)
    # PROTECT, as a seat does: a player's games outlive anything else that happens to the account.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="daily_attempt")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["day", "kind", "created_at"]
        constraints = [
            models.UniqueConstraint(fields=["day", "kind", "user"], name="daily_one_attempt"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}'s {self.kind} of {self.day_id}"
