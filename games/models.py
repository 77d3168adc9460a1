"""Persistence of games: the game row with its engine state, its seats, and the append-only action log.

The engine state on the game row is a cache of the log: replaying every Action through the engine from
`new_game` must give it exactly (see games.results.replays.game_verify_replay).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

from games import fair_dice, i18n, rules
from games.rules import declare
from infra.hooks import Hook

KIND_CHOICES = [(slug, engine.name) for slug, engine in rules.ENGINES.items()]

# An app whose games share a seed with games still to be played holds it back after the game is over
# (Game.revealed_seed): the daily challenge, whose games of a day are all dealt from the day's seed,
# revealed once the day is over. No database: a move decided on the event loop builds its event with
# the seed (games.live.selectors.event_payload).
hold_seed_back = Hook(
    "games.models.hold_seed_back",
    "Whether a game's server seed is held back after the game is over.",
    receives="the `Game`",
    returns="truthy to hold its seed back",
    runs="without the database, wherever a game's seed is shown (on the event loop too)",
)

# An app whose games are owed a result whoever did not play (games.live.moves: a game ended before every
# person at it made a move is otherwise aborted): a tournament's table, as lichess holds tournament games
# mandatory and a player who does not start loses. Asked only at the end of such a game, which its
# handlers of games.effects.GameEnded hold to the game's database thread.
never_abort = Hook(
    "games.models.never_abort",
    "Whether a game is never aborted, ended before every person at it made a move.",
    receives="the `Game`",
    returns="truthy to never abort it",
    runs="inside the transaction that ends the game (a database thread); may read the database",
)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", gettext_lazy("Waiting for players")
        PLAYING = "playing", gettext_lazy("Playing")
        FINISHED = "finished", gettext_lazy("Finished")
        ABANDONED = "abandoned", gettext_lazy("Abandoned")
        # Ended before every person at the table had made a move of the game (a resignation or a skip
        # is none): it says nothing of anyone, so it is unrated and left out of statistics, high scores
        # and seasons, as lichess aborts a game ended before both players moved.
        ABORTED = "aborted", gettext_lazy("Aborted")

    # Every status of a game that is over: nothing more is played in it.
    OVER = (Status.FINISHED, Status.ABANDONED, Status.ABORTED)

    kind = models.CharField(max_length=32, choices=KIND_CHOICES)
    # Engine options (Farkle goal and dice) as given to new_game; platform options live in their own fields.
    options = models.JSONField(default=dict, blank=True)
    max_seats = models.PositiveSmallIntegerField(default=2)
    absence_limit = models.PositiveIntegerField(
        default=120, help_text="Seconds the player to move may be away before others may skip the turn."
    )

    class Pace(models.TextChoices):
        LIVE = "live", gettext_lazy("Live")
        DAYS = "days", gettext_lazy("Over days")

    # Live: everyone at the table now, a turn limit in minutes. Over days: a day or more per turn, and an
    # e-mail when the turn comes (notices). In both, absence_limit is the turn limit, in seconds.
    pace = models.CharField(max_length=4, choices=Pace.choices, default=Pace.LIVE)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    group = models.ForeignKey(
        "dicegroups.Group", null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    # A group's game, from its creation on: kept on the game itself, so that deleting the group (which
    # sets group to NULL) never makes the game public (games.access says who may see it). A game created
    # private without a group (a daily challenge's) is its players' alone until it is made public.
    private = models.BooleanField(default=False)
    # Whether the game's end changes its players' ratings (the ratings app); the table's choice at its
    # creation. A solo game is never rated, whatever this says.
    rated = models.BooleanField(default=True)
    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="created_games"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    state = models.JSONField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0, help_text="Sequence number of the last event.")
    # A challenge's table (play.challenge): its second seat is kept for this player, who alone may take
    # it; the table is left out of other players' lists of open tables. None for every other table.
    reserved_for = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The game this one follows ("play again"): one next game per finished game, however many press it.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    # Fair dice (docs/fair-dice.md): the secret seed every die is derived from, drawn at creation and
    # revealed only once the game is over ("" for games created before fair dice), and the seated
    # players' client seeds in seat order, fixed when the game starts. A move reads both with the row.
    server_seed = models.CharField(max_length=64, blank=True, default=fair_dice.new_server_seed)
    client_seeds = models.JSONField(default=list, blank=True)
    # The server seed of this game's "Play again", drawn with the game and committed (its SHA-256 in
    # every snapshot) before any player's seed of either game is known ("" for older games).
    next_server_seed = models.CharField(max_length=64, blank=True, default=fair_dice.new_server_seed)
    # Whether the server seed is meant to be shared with other games (the daily challenge deals a day's
    # games from the day's seed, and holds it back until every one of them is over: hold_seed_back).
    # Every other server seed serves one game, ever (the constraint below): revealing a game's seed
    # then reveals nothing of a game that can still be played.
    shared_seed = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["kind", "status", "finished_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["server_seed"],
                condition=~models.Q(server_seed="") & models.Q(shared_seed=False),
                name="games_one_game_per_server_seed",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind_name} #{self.pk} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("games:detail", args=[self.pk])

    @property
    def engine(self):
        return rules.get(self.kind)

    @property
    def kind_name(self) -> str:
        """The game's name from its engine and options, "Farkle (3000)" (the field's choices know only
        the games of the migration, and not their options)."""
        return declare.game_name(self.engine, self.options)

    @property
    def is_cancelled(self) -> bool:
        """Given up before it started (its creator left the table): never played, so never finished."""
        return self.status == self.Status.ABANDONED and self.started_at is None

    @property
    def option_text(self) -> str:
        """The chosen options as a player reads them ("Goal 3000 · 6 dice"); "" when there are none."""
        # A goal in plain digits, as the game's name writes it (games.rules.messages.NAMING).
        return declare.option_text(self.engine, self.options, gettext)

    @property
    def pace_text(self) -> str:
        """How the table plays, with its turn limit in words ("Played over days: 1 day per turn");
        "" for a solo game, where nobody waits for anyone."""
        if self.is_solo:
            return ""
        limit = i18n.duration(self.absence_limit)
        if self.pace == self.Pace.DAYS:
            return gettext("Played over days: %(limit)s per turn") % {"limit": limit}
        return gettext("Live: a player away for %(limit)s may be skipped") % {"limit": limit}

    @property
    def current_player(self) -> str | None:
        """Whose turn it is in a game being played (the engine says), else None."""
        if self.status != self.Status.PLAYING or not self.state:
            return None
        return self.engine.current_player(self.state)

    @property
    def scores(self) -> dict[str, int]:
        """Each player's score as it stands, from the engine."""
        return self.engine.scores(self.state) if self.state else {}

    @property
    def is_solo(self) -> bool:
        return self.max_seats == 1

    @property
    def abortable(self) -> bool:
        """Whether the game is aborted if it ends before every person at it made a move: never a solo
        game (nobody's result but the player's own), nor one an app says is owed a result."""
        return not self.is_solo and not never_abort.any(self)

    @property
    def is_over(self) -> bool:
        """Finished, abandoned, aborted or cancelled: its server seed may be revealed."""
        return self.status in self.OVER

    @property
    def seed_commitment(self) -> str:
        """The SHA-256 of the server seed, shown from the creation on ("" for a game without one)."""
        return fair_dice.commitment(self.server_seed) if self.server_seed else ""

    @property
    def revealed_seed(self) -> str | None:
        """The server seed once the game is over; None while it is open or being played, and while an
        app holds it back (``hold_seed_back``)."""
        if not (self.is_over and self.server_seed) or hold_seed_back.any(self):
            return None
        return self.server_seed

    def fair_dice_info(self) -> dict | None:
        """The commitment, the client seeds and, once the game is over, the server seed, as the protocol,
        the pages and the export give them; None for a game created before fair dice."""
        if not self.server_seed:
            return None
        return {
            "version": fair_dice.VERSION,
            "commitment": self.seed_commitment,
            "client_seeds": list(self.client_seeds or []),
            "server_seed": self.revealed_seed,
            "next_commitment": fair_dice.commitment(self.next_server_seed) if self.next_server_seed else None,
        }


class SeedCommitment(models.Model):
    """A server seed committed to a player before their browser makes a seed of its own: drawn when a
    page with a form that creates a game is shown, its SHA-256 on that page (games.fair_seeds). The row
    is the seed's one use: the game or request it serves deletes it in its own transaction, so two
    requests that bring the same commitment at once cannot both have it (the session holds only the
    row's id, never the seed)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    server_seed = models.CharField(max_length=64, unique=True, default=fair_dice.new_server_seed)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"seed committed to {self.user_id} at {self.created_at}"

    @property
    def commitment(self) -> str:
        return fair_dice.commitment(self.server_seed)


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    # PROTECT: a player's games and statistics outlive anything else that happens to the account.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    joined_at = models.DateTimeField(auto_now_add=True)
    final_score = models.IntegerField(null=True, blank=True)
    winner = models.BooleanField(default=False)
    laps = models.PositiveIntegerField(null=True, blank=True)
    resigned = models.BooleanField(default=False)
    last_seen = models.DateTimeField(null=True, blank=True)
    # Set when the game ends (the engine's FIGURES.summary): what this seat adds to the player's statistics.
    summary = models.JSONField(null=True, blank=True)
    # The player's contribution to the game's dice (docs/fair-dice.md): made by the server when the seat
    # is taken, replaced by the one the player's page sends until the game starts, copied to the game's
    # client_seeds then.
    client_seed = models.CharField(max_length=64, default=fair_dice.new_client_seed)
    # The seed the player's page made for the next game once this one was over ("Play again"), after
    # the next game's commitment was shown; "" if none came (the next game keeps client_seed).
    next_client_seed = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} at {self.game_id}:{self.position}"


class Action(models.Model):
    """One accepted action: append-only; (game, seq) has no gap and no duplicate."""

    # No index of its own: action_unique_seq (game, seq) serves every lookup by game, and the log takes
    # an insert on every move.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="actions")
    client_id = models.CharField(max_length=64)
    action = models.JSONField()
    dice = models.JSONField(default=list, help_text="Every roll the server made for this action, in order.")
    result = models.JSONField(default=dict, help_text="The engine's last_event after the action.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="action_unique_seq"),
            models.UniqueConstraint(fields=["game", "seat", "client_id"], name="action_unique_client_id"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.action.get('type')}"


class Connection(models.Model):
    """An open websocket watching a game: presence that survives across server processes."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    opened_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["game", "seen_at"])]

    def __str__(self) -> str:
        return f"{self.user_id} on game {self.game_id}"
