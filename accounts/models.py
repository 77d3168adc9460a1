"""Players: Django's user with a display name; the username is what other players see."""

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts import sockets
from accounts.names import username_key


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
    # The key of the username as people read it (accounts.names.username_key), set by save() whenever the
    # username is new. Unique, so that of two look-alike names only one is ever stored, even when both
    # are signed up at the same moment. NULL (which a unique index lets repeat) only for an account
    # kept from before names were compared whose name looks like an older one's (migration 0006).
    name_key = models.CharField(max_length=64, unique=True, null=True, editable=False)  # noqa: DJ001
    # At a table the players' ratings are hidden from this player until the game ends (their choice,
    # as lichess offers it): the game, not the figures.
    hide_ratings_in_game = models.BooleanField(
        _("hide ratings during a game"),
        default=False,
        help_text=_("The ratings at your table are shown only when the game is over."),
    )
    # What a moderator decided (safety.services, which logs each decision): until then the player
    # writes in no chat, and plays no rated game. Kept on the account, read by chat, pairing and the
    # challenges alike, which sit below the moderation app.
    chat_muted_until = models.DateTimeField(null=True, blank=True, editable=False)
    rated_barred_until = models.DateTimeField(null=True, blank=True, editable=False)

    # The session (accounts.sockets.session_mark) whose sockets stay open when the password saved next
    # is new: the one that changed it, which Django keeps signed in (update_session_auth_hash). None: a
    # reset, the admin, a command: every session's sockets close, as Django ends every session.
    keep_sockets_of: str | None = None

    @classmethod
    def from_db(cls, db, field_names, values):
        user = super().from_db(db, field_names, values)
        # The name as stored, to tell in save() whether it changed (absent when the query deferred it).
        user._stored_username = user.__dict__.get("username")
        user._stored_password = user.__dict__.get("password")
        return user

    def save(self, *args, **kwargs):
        if self._state.adding or self.username != getattr(self, "_stored_username", None):
            self.name_key = username_key(self.username)
            update_fields = kwargs.get("update_fields")
            if update_fields is not None and "username" in update_fields:
                kwargs["update_fields"] = {*update_fields, "name_key"}
        stored_password = getattr(self, "_stored_password", None)
        super().save(*args, **kwargs)
        self._stored_username = self.username
        if stored_password is not None and self.__dict__.get("password") != stored_password:
            # Django ends the other sessions by the password's hash (their session hash no longer
            # matches); their open sockets were authenticated at their handshake and must end too.
            sockets.end_sockets(user_id=self.pk, keep=self.keep_sockets_of)
        self._stored_password = self.__dict__.get("password")

    @property
    def is_computer(self) -> bool:
        return bool(self.computer)

    def barred_from_rated(self, now=None) -> bool:
        """A moderator barred the player from rated play, and the bar still holds."""
        return self.rated_barred_until is not None and self.rated_barred_until > (now or timezone.now())

    def muted_in_chat(self, now=None) -> bool:
        """A moderator muted the player in every chat, and the mute still holds."""
        return self.chat_muted_until is not None and self.chat_muted_until > (now or timezone.now())

    def __str__(self) -> str:
        return self.username
