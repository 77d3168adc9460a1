"""A group's tournaments: what the creator announced, who entered, and each round's tables and byes.

A round's table is a game of the games app (group = the tournament's group); its result is read from
the game's seats when the standings are made (tournaments.selectors), never copied.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games import rules
from games.rules import declare


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round-robin", _("Round robin")

    class Status(models.TextChoices):
        OPEN = "open", _("Open for entries")
        RUNNING = "running", _("Under way")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    group = models.ForeignKey("dicegroups.Group", on_delete=models.CASCADE, related_name="tournaments")
    # The tournament's number in its group (/groups/<group>/tournaments/<number>/): 1, 2, ...
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=80)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=32)
    options = models.JSONField(default=dict)  # in full, as games store them
    format = models.CharField(max_length=12, choices=Format.choices)
    # Swiss: the rounds announced. Round robin: 0 until it starts, then the rounds of its schedule.
    rounds = models.PositiveSmallIntegerField(default=0)
    table_size = models.PositiveSmallIntegerField()
    pace = models.CharField(max_length=4)  # games.models.Game.Pace
    absence_limit = models.PositiveIntegerField()  # seconds: the games' turn limit
    # Live: the start the creator chose. Over days: the end of entries, when it starts.
    starts_at = models.DateTimeField()
    entries_close_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    # Why a tournament was cancelled: "creator" (the creator cancelled it) or "too_few" (fewer than two
    # entries at its start).
    cancelled_because = models.CharField(max_length=10, blank=True, default="")
    # A round robin's tables, fixed at the start: [[[user id, ...], ...], ...] per round (byes left out).
    schedule = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["group", "number"], name="tournament_unique_number")]

    def __str__(self) -> str:
        return f"{self.name} ({self.group_id}/{self.number})"

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.group_id, self.number])

    @property
    def engine(self):
        return rules.get(self.kind)

    @property
    def game_name(self) -> str:
        return declare.game_name(self.engine, self.options)

    @property
    def is_live(self) -> bool:
        return self.pace == "live"

    @property
    def days_per_turn(self) -> int:
        return self.absence_limit // 86_400


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    entered_at = models.DateTimeField(auto_now_add=True)
    # Set when a round found the player no longer a member of the group: left out of later rounds.
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["entered_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="entry_unique_user")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class Round(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        DONE = "done", _("Done")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")]

    def __str__(self) -> str:
        return f"round {self.number} of {self.tournament_id}"


class Table(models.Model):
    """One game of a round (its players are the game's seats)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="tournament_table")

    class Meta:
        ordering = ["round", "number"]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"


class Bye(models.Model):
    """A player of a round who sits out: scored as a win (tournaments.standings)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "user"], name="bye_unique_user")]

    def __str__(self) -> str:
        return f"bye for {self.user_id} in {self.round}"
