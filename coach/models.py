"""The coach's reviews: one per finished game, one per person's seat in it, each decision judged."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Review(models.Model):
    """A game has been reviewed: written once, by coach.services.review_game, for every seat at once."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="review")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"review of game {self.game_id}"


class SeatReview(models.Model):
    """A person's play in one game: every decision with the expert's choice and what it cost.

    ``decisions``: a list of {seq, action, text, expert, expert_text, expert_value, value, cost,
    accuracy} in the order played (docs/coach.md)."""

    review = models.ForeignKey(Review, on_delete=models.CASCADE, related_name="seats")
    seat = models.OneToOneField("games.Seat", on_delete=models.CASCADE, related_name="review")
    # Copies of the seat's user and game kind and end: the statistics page's query reads one table.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    finished_at = models.DateTimeField(null=True)
    decision_count = models.PositiveIntegerField()
    # How many of the decisions cost nothing: the expert's choice or one worth as much. Kept so that the
    # fair-play screen (safety.screening) sums it in SQL instead of reading every decision.
    best_count = models.PositiveIntegerField(default=0)
    total_cost = models.FloatField()
    accuracy = models.FloatField(null=True, help_text="None when the player had no decision.")
    decisions = models.JSONField(default=list)

    class Meta:
        ordering = ["review", "seat__position"]
        indexes = [
            models.Index(fields=["user", "kind", "finished_at"]),
            # The profile's accuracy over every kind: a player's latest reviews, read newest first until
            # enough the viewer may see are found, not all of them sorted (docs/BENCHMARKS.md).
            models.Index(fields=["user", "finished_at"]),
        ]

    def __str__(self) -> str:
        return f"review of seat {self.seat_id}"
