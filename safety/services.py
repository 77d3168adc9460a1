"""Reports and moderation: one transaction each.

A report blocks the reported player for the reporter (pairing's block: they are never seated together
again, and neither challenges the other), as lichess does, and waits for a moderator. Nobody is told
who reported whom; the moderators read the reports grouped by player (safety.selectors) and decide.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.sockets import end_sockets
from chat import services as chat
from chat.models import Message
from coach import selectors as reviews
from games.access import can_watch
from games.errors import BadRequest, Forbidden, NotFound, RateLimited
from games.models import Game
from games.tables import services as tables
from infra import ratelimit
from infra.params import storable
from notices import services as notices
from pairing.models import Block
from pairing.services import seek_leave
from ratings import selectors as ratings
from safety import screening
from safety.models import TEXT_MAX, Decision, Report


def player_named(username):
    """The person called ``username`` (chat's lookup: a computer player is no such player)."""
    return chat.person_named(username)


def sentence(text, *, required: bool = True) -> str:
    """A report's or a decision's words: one line of at most TEXT_MAX characters, no control
    characters."""
    if not isinstance(text, str) or not storable(text):
        raise BadRequest(_("Write the reason as plain text."))
    if any(ord(c) < 32 and c not in "\r\n\t" for c in text):
        raise BadRequest(_("Write the reason as plain text."))
    text = " ".join(text.split())
    if required and not text:
        raise BadRequest(_("Say in a sentence what happened."))
    if len(text) > TEXT_MAX:
        raise BadRequest(_("Say it in at most %(max)s characters."), max=TEXT_MAX)
    return text


def subject(reporter, reported, message_id=None, game_id=None) -> tuple[str, Message | None, Game | None]:
    """What a report of ``reported`` by ``reporter`` is about: a key ("player", "message:<id>",
    "game:<id>"), and the message or the game. One the reporter cannot see, or not the player's, is
    no such thing."""
    if message_id is not None and game_id is not None:
        raise BadRequest(_("Report a message or a game, not both at once."))
    if message_id is not None:
        message = Message.objects.filter(pk=message_id, author=reported).select_related("game").first()
        if message is None or message.removed or not chat.can_read(message, reporter):
            raise NotFound(_("There is no such message."))
        return f"message:{message.pk}", message, None
    if game_id is not None:
        game = Game.objects.filter(pk=game_id, seats__user=reported).first()
        if game is None or not can_watch(game, reporter):
            raise NotFound(_("There is no such game."))
        return f"game:{game.pk}", None, game
    return "player", None, None


def report(
    *, reporter, username, reason, text, message_id: int | None = None, game_id: int | None = None
) -> tuple[Report, bool]:
    """``reporter`` reports the player called ``username`` (for one of their chat messages, or a game
    of theirs, if given); (the report, whether it is new). The same report sent again while it is open
    is the one already made. Either way the reporter blocks the player."""
    if reporter.is_computer:
        raise BadRequest(_("Computer players do not report."))
    reported = player_named(username)
    if reported.pk == reporter.pk:
        raise BadRequest(_("You cannot report yourself."))
    if reason not in Report.Reason.values:
        raise BadRequest(_("Choose one of the reasons."))
    text = sentence(text)
    key, message, game = subject(reporter, reported, message_id, game_id)
    open_reports = Report.objects.filter(reporter=reporter, reported=reported, handled_at=None)
    same = open_reports.filter(subject=key).first()
    if same is not None:
        return same, False
    wait = ratelimit.shared_hit(f"report:{reporter.pk}", settings.REPORTS_PER_DAY, period=86_400)
    if wait is not None:
        raise RateLimited(
            _("You have sent many reports today: wait %(wait)s s."), retry_after=wait, wait=wait
        )
    try:
        with transaction.atomic():
            made = Report.objects.create(
                reporter=reporter,
                reported=reported,
                reason=reason,
                text=text,
                message=message,
                game=game,
                subject=key,
            )
            Block.objects.get_or_create(blocker=reporter, blocked=reported)
    except IntegrityError:
        # The same report sent twice at once (two tabs, a double press): the other one made it.
        same = open_reports.filter(subject=key).first()
        if same is None:
            raise
        return same, False
    return made, True


# --- moderation ------------------------------------------------------------------------------------

# How long a moderator's mute or bar may hold, in hours: a day, a week, a month, a year.
DURATIONS = (24, 7 * 24, 30 * 24, 365 * 24)


def is_moderator(user) -> bool:
    return bool(user.is_authenticated and user.is_active and user.is_staff)


def decide(*, moderator, username, kind, reason, hours: int | None = None) -> Decision:
    """``moderator`` decides about the player called ``username``: ``kind`` (Decision.Kind) for
    ``reason``, a mute or a bar for ``hours`` (DURATIONS). The open reports about the player are
    handled with it, the decision is logged, and the player told what and why (not by whom) — all in
    one transaction. Closing an account gives up its unfinished games and ends its sessions."""
    if not is_moderator(moderator):
        raise Forbidden(_("Only moderators decide on reports."))
    if kind not in Decision.Kind.values:
        raise BadRequest(_("Choose one of the decisions."))
    reason = sentence(reason)
    timed = kind in (Decision.Kind.MUTE, Decision.Kind.BAR)
    if timed and hours not in DURATIONS:
        raise BadRequest(_("Choose how long it holds."))
    now = timezone.now()
    until = now + timedelta(hours=hours) if timed else None
    with transaction.atomic():
        player = get_user_model().objects.select_for_update().filter(pk=player_named(username).pk).first()
        if kind == Decision.Kind.CLOSE and (player.is_staff or player.pk == moderator.pk):
            raise Forbidden(_("A moderator's account is not closed here."))
        fields = []
        if kind == Decision.Kind.MUTE:
            player.chat_muted_until, fields = until, ["chat_muted_until"]
        elif kind == Decision.Kind.BAR:
            player.rated_barred_until, fields = until, ["rated_barred_until"]
            seek_leave(user=player)  # a request waiting in a queue is for a rated table
        elif kind == Decision.Kind.LIFT:
            player.chat_muted_until = player.rated_barred_until = None
            fields = ["chat_muted_until", "rated_barred_until"]
        elif kind == Decision.Kind.CLOSE:
            player.is_active, fields = False, ["is_active"]
        if fields:
            player.save(update_fields=fields)
        decision = Decision.objects.create(
            player=player, moderator=moderator, kind=kind, reason=reason, until=until
        )
        Report.objects.filter(reported=player, handled_at=None).update(handled_at=now)
        if kind != Decision.Kind.DISMISS:
            shown = until.strftime("%Y-%m-%d %H:%M UTC") if until else ""
            notices.moderated(player, kind, reason=reason, until=shown)
        if kind == Decision.Kind.CLOSE:
            tables.give_up_seats(user=player, client_id="account-closed")
            # Django signs an inactive account out at its next request; its open sockets end now.
            end_sockets(user_id=player.pk)
    return decision


# --- what the moderators read ----------------------------------------------------------------------


def reported_players() -> list[dict]:
    """The players with open reports, the most reported first: their name, how many open reports
    (from how many reporters), the reasons, and the latest report's time."""
    rows = (
        Report.objects.filter(handled_at=None)
        .values("reported__username")
        .annotate(
            reports=Count("pk"),
            reporters=Count("reporter", distinct=True),
            latest=Max("created_at"),
        )
        .order_by("-reporters", "-reports", "-latest")
    )
    reasons: dict[str, set[str]] = {}
    for name, reason in Report.objects.filter(handled_at=None).values_list("reported__username", "reason"):
        reasons.setdefault(name, set()).add(reason)
    labels = dict(Report.Reason.choices)
    return [
        {
            "username": row["reported__username"],
            "reports": row["reports"],
            "reporters": row["reporters"],
            "latest": row["latest"],
            "reasons": sorted(str(labels[r]) for r in reasons.get(row["reported__username"], ())),
        }
        for row in rows
    ]


def player_file(username) -> dict:
    """One player's reports (open first, each with its message or game) and the decisions about
    them, newest first."""
    player = player_named(username)
    reports = list(
        Report.objects.filter(reported=player)
        .select_related("reporter", "message", "game")
        .order_by(F("handled_at").asc(nulls_first=True), "-created_at")
    )
    decisions = list(Decision.objects.filter(player=player).select_related("moderator"))
    return {"player": player, "reports": reports, "decisions": decisions}


# The fair-play screen reads this far back: long enough for the many games it asks for.
SCREEN_DAYS = 180


def screened_players(*, kind: str | None = None, now=None) -> dict:
    """The fair-play screen over the rated games of the last SCREEN_DAYS days (safety.screening):
    {"listed": the people it lists, farthest first, "screened": how many it compared}; ``kind``: one
    game's only. It lists; it does nothing to anyone."""
    since = (now or timezone.now()) - timedelta(days=SCREEN_DAYS)
    rows = reviews.judged_totals(since=since, games=ratings.rated_game_ids(), kind=kind)
    rating = ratings.display_by_game({row["user_id"] for row in rows})
    records = [
        screening.Record(
            player=row["username"],
            kind=row["kind"],
            rating=rating.get((row["user_id"], row["kind"])),
            games=row["games"],
            decisions=row["decisions"],
            best=row["best"],
            accuracy_sum=row["accuracy_sum"] or 0.0,
        )
        for row in rows
    ]
    screened = screening.screen(records)
    return {"listed": [s for s in screened if s.listed], "screened": len(screened)}
