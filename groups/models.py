"""Player groups: a creator who manages membership, and members who play group games."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Group(models.Model):
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True, max_length=2000)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_groups"
    )
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="dice_groups"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # The secret of the group's invitation link (/groups/join/<token>/); None while there is no link.
    # A new link gets a new token, so revoking or replacing one makes every copy of the old one useless.
    invite_token = models.CharField(max_length=32, null=True, blank=True, unique=True, editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["group", "user"], name="membership_unique")]

    def __str__(self) -> str:
        return f"{self.user} in {self.group}"
