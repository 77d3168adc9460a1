"""A player's current rating per game kind, and each rated game's change of it (history, charts, the
rebuild). ``kind`` is a rating kind's key (ratings.kinds): the game's slug, with the value of its
separating option ("farkle:3000")."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=48)
    mu = models.FloatField()
    sigma = models.FloatField()
    # The figure players read (ratings.scale.display), kept with mu and sigma so that lists sort on it.
    display = models.IntegerField()
    provisional = models.BooleanField(default=True)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="rating_unique_user_kind")]
        # The rating lists: one kind's players, the best first, the active ones only.
        indexes = [
            models.Index(fields=["kind", "provisional", "-display"]),
            models.Index(fields=["kind", "updated_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.display}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: before and after, as the model keeps it and as
    players read it."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=48)
    # The game's end, copied so that a player's history reads in order without the game's row.
    at = models.DateTimeField()
    place = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    display_before = models.IntegerField()
    display_after = models.IntegerField()
    provisional = models.BooleanField(default=True)  # the rating after this game

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="ratingchange_unique_game_user")]
        indexes = [models.Index(fields=["user", "kind", "at"])]

    def __str__(self) -> str:
        return f"{self.user_id} game {self.game_id}: {self.display_before} -> {self.display_after}"

    @property
    def delta(self) -> int:
        return self.display_after - self.display_before
