"""Players: Django's user with a display name; the username is what other players see."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    class Theme(models.TextChoices):
        # The page carries it as <html data-theme>; site.css decides the colours (visitors: "auto").
        AUTO = "auto", _("Follow the device")
        LIGHT = "light", _("Light")
        DARK = "dark", _("Dark")

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown on your profile next to your username."),
    )
    theme = models.CharField(_("theme"), max_length=5, choices=Theme.choices, default=Theme.AUTO)
    # The language the site speaks to this player (pages, e-mails, errors); empty: the browser's.
    language = models.CharField(
        _("language"), max_length=8, blank=True, default="", choices=settings.LANGUAGES
    )
    # A click on a box of the card scores it at once; off (the default), a click marks the box and a
    # second click, or the Score button, scores it, as a tap always does: a stray click costs no box.
    quick_scoring = models.BooleanField(
        _("score with one click"),
        default=False,
        help_text=_("A click on a box scores it at once, without the Score button to confirm it."),
    )
    # A computer player's strength (games.bots.STRENGTHS); empty for a person. Computer players are
    # accounts so that their seats, moves, results and statistics are kept like anyone's.
    computer = models.CharField(max_length=8, blank=True, default="")

    @property
    def is_computer(self) -> bool:
        return bool(self.computer)

    def __str__(self) -> str:
        return self.username
