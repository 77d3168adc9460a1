"""Players: Django's user with a display name; the username is what other players see."""

from django.contrib.auth.models import AbstractUser
from django.db import models


class User(AbstractUser):
    class Theme(models.TextChoices):
        # The page carries it as <html data-theme>; site.css decides the colours (visitors: "auto").
        AUTO = "auto", "Follow the device"
        LIGHT = "light", "Light"
        DARK = "dark", "Dark"

    display_name = models.CharField(
        max_length=40, blank=True, help_text="Shown on your profile next to your username."
    )
    theme = models.CharField(max_length=5, choices=Theme.choices, default=Theme.AUTO)

    def __str__(self) -> str:
        return self.username
