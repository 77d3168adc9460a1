"""Players: Django's user with a display name; the username is what other players see."""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    display_name = models.CharField(
        max_length=40, blank=True, help_text="Shown on your profile next to your username."
    )

    def __str__(self) -> str:
        return self.username
