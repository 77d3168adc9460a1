"""A group's seasons: a game kind over a run of days, and once closed, its final table, stored.

``kind`` is a rating kind's key (ratings.kinds): the game's slug, with the value of its separating
option ("farkle:3000"), so that a season counts the games its players' ratings count together.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Season(models.Model):
    group = models.ForeignKey("dicegroups.Group", on_delete=models.CASCADE, related_name="seasons")
    # 1, 2, 3 ... within the group: the season's address (/groups/<id>/seasons/<number>/).
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=48)
    # The days as the creator chose them (inclusive, in the site's time zone) ...
    first_day = models.DateField()
    last_day = models.DateField()
    # ... and the moments they make: a game counts when it finished in [starts_at, ends_at). Ending a
    # season early moves ends_at (and last_day) to that moment.
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    ended_early = models.BooleanField(default=False)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Set once its final table is stored (seasons.services.season_close); never again after.
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["group", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["group", "number"], name="season_unique_number"),
            # One season of a kind not yet closed per group (upcoming or running).
            models.UniqueConstraint(
                fields=["group", "kind"], condition=Q(closed_at__isnull=True), name="season_one_open_per_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"season {self.number} of group {self.group_id} ({self.kind})"


class Standing(models.Model):
    """One player's row of a closed season's final table, as it stood when the season closed: games
    played afterwards, or the player leaving the group, change nothing here."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    rank = models.PositiveIntegerField()
    # The account, while it exists; the name it had at the close either way.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    username = models.CharField(max_length=150)
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    # Points in halves (a tie is worth half a point): exact, and sorted as integers.
    half_points = models.PositiveIntegerField()
    average = models.FloatField()
    best = models.IntegerField()
    rating_change = models.IntegerField(null=True, blank=True)  # None: no rated game in the season

    class Meta:
        ordering = ["season", "rank", "username"]
        constraints = [models.UniqueConstraint(fields=["season", "username"], name="standing_unique_player")]

    def __str__(self) -> str:
        return f"{self.username}: {self.rank} in {self.season_id}"

    @property
    def points(self) -> float:
        return self.half_points / 2

    @property
    def player(self) -> str:
        """The name the table shows (as seasons.league.Row names it)."""
        return self.username
