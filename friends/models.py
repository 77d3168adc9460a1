"""A player following another (as on lichess: no consent asked, the followed player is not told)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


class Follow(models.Model):
    """``follower`` sees ``followed`` in their list of the players they follow (friends.selectors)."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            # Two clicks at once (two tabs) make one row: friends.services.follow_player is idempotent.
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_unique_pair"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"
