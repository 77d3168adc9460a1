"""What a player wants to be told, and the e-mails promised and sent about turns."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Preferences(models.Model):
    """A player's choices (the profile page); a player without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, primary_key=True, on_delete=models.CASCADE, related_name="notice_prefs"
    )
    # On by default: a game over days cannot be played without being told that it is your turn, and
    # a live game mails only a player who left it for longer than its limit. One click in every mail
    # turns it off, and a player who gave no address gets none.
    email_turns = models.BooleanField(
        default=True,
        verbose_name=_("E-mail me when it is my turn"),
        help_text=_("In games over days, and in live games you left for longer than their limit."),
    )
    sound = models.BooleanField(default=False, verbose_name=_("Play a sound when it is my turn"))
    browser = models.BooleanField(
        default=False, verbose_name=_("Show a browser notification when it is my turn")
    )
    mute_chat = models.BooleanField(
        default=False, verbose_name=_("Hide the chat"), help_text=_("At game tables and in groups.")
    )
    # When the player's notices socket (any page of the site) was last open: a turn announced there
    # reached them.
    seen_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"notices of {self.user}"


def preferences_of(user) -> Preferences:
    return Preferences.objects.filter(user=user).first() or Preferences(user=user)


class TurnMail(models.Model):
    """The e-mail about one turn of one player: written when the turn passes to them (pending, with the
    time it becomes due), sent at most once by the worker (sent), or dropped when it is no longer
    needed (the player came back, moved, or does not want mail)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        DROPPED = "dropped"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="turn_mails")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="turn_mails")
    # The turn: game.turn_started_at when it passed to this player.
    turn_started_at = models.DateTimeField()
    due_at = models.DateTimeField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    decided_at = models.DateTimeField(null=True, blank=True)
    why = models.CharField(max_length=80, blank=True)
    # When a push message about the turn reached a push service (notices.push.send_push): the player
    # was told, and the e-mail, still pending until due, is dropped then. Stays empty when no push
    # was sent or none was delivered, so the e-mail goes out as before.
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user", "turn_started_at"], name="one_mail_per_turn")
        ]
        indexes = [models.Index(fields=["status", "due_at"])]

    def __str__(self) -> str:
        return f"turn mail to {self.user_id} for game {self.game_id} ({self.status})"


class Notice(models.Model):
    """Something that happened to a player once (a game they sit in started, they were added to a
    group), shown in the header's list (the latest ten) and on the notices page (the latest fifty);
    opening either marks them seen, which only takes them out of the count. Turns are not notices:
    whose turn it is is read from the games themselves."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices")
    # The sentence in English as the catalogue knows it, and its values: a notice is read in the
    # reader's language of the moment, not the one they had when it was written.
    text = models.CharField(max_length=200)
    params = models.JSONField(default=dict, blank=True)
    url = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    seen = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["user", "seen", "-created_at"])]

    def __str__(self) -> str:
        return self.message

    @property
    def message(self) -> str:
        """The notice in the active language."""
        return gettext(self.text) % self.params if self.params else self.text


class PushSubscription(models.Model):
    """One browser's Web Push subscription (its PushSubscription.toJSON()): where the push service
    takes messages for it and the keys they are encrypted with, and what this device wants to hear.
    A player has one per device (browser profile) that turned push messages on."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    # The push service's address for this browser; a browser has one per site, so it names the device.
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the browser's public key (base64url, 65 bytes)
    auth = models.CharField(max_length=40)  # its authentication secret (base64url, 16 bytes)
    device = models.CharField(max_length=80, blank=True)  # a label for the settings page, from the User-Agent
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)  # the last message a push service took
    # What this device is told (notices.push.KINDS): each can be switched off on the settings page.
    turn = models.BooleanField(default=True, verbose_name=_("Your turn"))
    invitation = models.BooleanField(default=True, verbose_name=_("Invitations to a table"))
    group = models.BooleanField(default=True, verbose_name=_("Added to a group"))
    tournament = models.BooleanField(default=True, verbose_name=_("Tournament rounds"))

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id} ({self.device})"

    @property
    def info(self) -> dict:
        """The subscription as pywebpush takes it (the browser's own toJSON() shape)."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}
