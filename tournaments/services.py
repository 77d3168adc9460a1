"""Every write of a tournament: announcing, entering and leaving, cancelling, starting, each round's
start, and what a game's end does to its round. One transaction each (the end of a game: the move's).

A round advances as a consequence of its games ending (games.effects.GameEnded, tournaments.handlers):
the handler locks the round, and the one transaction that finds every game of it over marks it done
with a guarded update and enqueues the next round's start for the worker (django-tasks' database
backend writes that row in the same transaction). Two games ending at once in two processes wait for
each other on the round's lock, so exactly one of them sees the round complete.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games import rules
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game
from games.rules import declare
from games.tables.services import DAYS_LIMITS
from groups.models import Group, Membership
from notices import feed
from tournaments import rounds as running
from tournaments import tasks
from tournaments.models import Entry, Round, Table, Tournament
from tournaments.rounds import OVER

MAX_TABLE = 4
MAX_SWISS_ROUNDS = 9
MAX_AHEAD = timedelta(days=366)


# --- announcing, entering, leaving, cancelling -----------------------------------------------------


def _checked_game(kind: str, options: dict | None, table_size) -> dict:
    try:
        engine = rules.get(kind)
    except KeyError:
        raise BadRequest(_("There is no game called %(kind)s."), kind=repr(kind)) from None
    try:
        engine.new_game(["probe"], dict(options or {}))
    except rules.IllegalAction as exc:
        raise BadRequest(exc) from None
    top = min(engine.max_players, MAX_TABLE)
    if not isinstance(table_size, int) or not max(engine.min_players, 2) <= table_size <= top:
        raise BadRequest(_("Choose tables of 2 to %(max)s players."), max=top)
    return declare.full_options(engine, options)


def tournament_create(
    *,
    group_id: int,
    user,
    name: str,
    kind: str,
    options: dict | None = None,
    format: str = Tournament.Format.SWISS,
    rounds: int | None = 3,
    table_size: int = 2,
    pace: str = Game.Pace.LIVE,
    days: int | None = None,
    starts_at: datetime | None = None,
    entries_close_at: datetime,
    now: datetime | None = None,
) -> Tournament:
    """The group's creator announces a tournament. Live: it starts at ``starts_at`` and entries close
    at ``entries_close_at``, at the latest then. Over days (``days`` per turn): it starts when entries
    close. Its start is enqueued for the worker in this transaction."""
    now = now or timezone.now()
    name = (name or "").strip()
    if not 1 <= len(name) <= 80:
        raise BadRequest(_("A tournament needs a name of 1 to 80 characters."))
    options = _checked_game(kind, options, table_size)
    if format not in Tournament.Format.values:
        raise BadRequest(_("Choose Swiss or round robin."))
    if format == Tournament.Format.SWISS:
        if not isinstance(rounds, int) or not 1 <= rounds <= MAX_SWISS_ROUNDS:
            raise BadRequest(_("A Swiss tournament has 1 to %(max)s rounds."), max=MAX_SWISS_ROUNDS)
    else:
        rounds = 0  # known at the start, from the number of players
    if pace == Game.Pace.LIVE:
        limit = settings.GAME_DEFAULT_ABSENCE_LIMIT
        if starts_at is None or starts_at <= now:
            raise BadRequest(_("Choose a start in the future."))
        if entries_close_at > starts_at:
            raise BadRequest(_("Entries must close at the start or before it."))
    elif pace == Game.Pace.DAYS and days is not None and days * 86_400 in DAYS_LIMITS:
        limit = days * 86_400
        starts_at = entries_close_at
    else:
        raise BadRequest(_("Choose a live tournament or 1, 2 or 3 days per turn."))
    if entries_close_at <= now:
        raise BadRequest(_("Entries must close in the future."))
    if max(starts_at, entries_close_at) > now + MAX_AHEAD:
        raise BadRequest(_("Choose a date in the next year."))
    with transaction.atomic():
        group = Group.objects.select_for_update().filter(pk=group_id).first()
        if group is None:
            raise NotFound(_("There is no such group."))
        if group.creator_id != user.pk:
            raise Forbidden(_("Only the group's creator can announce a tournament."))
        last = Tournament.objects.filter(group=group).order_by("-number").values_list("number", flat=True)
        tournament = Tournament.objects.create(
            group=group,
            number=(last.first() or 0) + 1,
            name=name,
            creator=user,
            kind=kind,
            options=options,
            format=format,
            rounds=rounds,
            table_size=table_size,
            pace=pace,
            absence_limit=limit,
            starts_at=starts_at,
            entries_close_at=entries_close_at,
        )
        tasks.start_tournament.using(run_after=starts_at).enqueue(tournament.pk)
        _tell_members(tournament, user)
    return tournament


def _tell_members(tournament: Tournament, by) -> None:
    text = gettext_noop("%(player)s announced the tournament %(name)s in %(group)s.")
    params = {"player": by.username, "name": tournament.name, "group": tournament.group.name}
    members = list(
        Membership.objects.filter(group_id=tournament.group_id).exclude(user=by).select_related("user")
    )
    for membership in members:
        feed.tell(membership.user, text, tournament.get_absolute_url(), params)
    feed.tell_users_on_commit([m.user.username for m in members])


def _check_open(tournament: Tournament, now: datetime) -> None:
    if tournament.status != Tournament.Status.OPEN or now >= tournament.entries_close_at:
        raise Conflict(_("Entries for this tournament are closed."), "entries_closed")


def tournament_enter(*, tournament_id: int, user, now: datetime | None = None) -> Entry:
    """A member enters, until entries close; entering twice is the same entry."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = running.locked(tournament_id)
        if not running.is_member(tournament.group_id, user.pk):
            raise NotFound(_("There is no such tournament."))
        _check_open(tournament, now)
        entry, _created = Entry.objects.get_or_create(tournament=tournament, user=user)
    return entry


def tournament_leave(*, tournament_id: int, user, now: datetime | None = None) -> None:
    """An entrant takes their entry back, until entries close."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = running.locked(tournament_id)
        if not running.is_member(tournament.group_id, user.pk):
            raise NotFound(_("There is no such tournament."))
        _check_open(tournament, now)
        if not Entry.objects.filter(tournament=tournament, user=user).delete()[0]:
            raise Conflict(_("You have not entered this tournament."), "not_entered")


def tournament_cancel(*, tournament_id: int, user) -> None:
    """The creator calls the tournament off before it starts."""
    with transaction.atomic():
        tournament = running.locked(tournament_id)
        running.creator_only(tournament, user, _("Only the group's creator can cancel a tournament."))
        if tournament.status != Tournament.Status.OPEN:
            raise Conflict(_("The tournament has started: it can no longer be cancelled."), "started")
        tournament.status = Tournament.Status.CANCELLED
        tournament.cancelled_because = "creator"
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "cancelled_because", "finished_at"])
        running.refresh_pages(tournament)


def tournament_start_now(*, tournament_id: int, user, now: datetime | None = None) -> Round | None:
    """The creator closes the entries and starts at once (tournaments.rounds)."""
    return running.tournament_start_now(tournament_id=tournament_id, user=user, now=now)


def _next(tournament: Tournament, round_: Round, now: datetime) -> None:
    """After a round is done: the last one ends the tournament, any other enqueues the next start (at
    once, in the order of time with the worker's other tasks: django-tasks-db orders by run_after)."""
    if round_.number >= tournament.rounds:
        running.finish(tournament, now)
    else:
        tasks.start_round.using(run_after=now).enqueue(tournament.pk, round_.number + 1)


# --- the end of a game ---------------------------------------------------------------------------


def game_ended(game: Game, now: datetime | None = None) -> bool:
    """A game has ended, in its ending move's transaction: if it is a tournament's and its round's last
    game to end, the round is done and the next one is enqueued (or the tournament finished). Whether
    this ended the round."""
    round_id = Table.objects.filter(game_id=game.pk).values_list("round_id", flat=True).first()
    if round_id is None:
        return False
    now = now or timezone.now()
    # The round's lock orders the games of one round that end at once: the second to take it sees the
    # first's game over (PostgreSQL reads what has committed at each statement).
    round_ = Round.objects.select_for_update().filter(pk=round_id).first()
    if round_ is None or round_.status != Round.Status.PLAYING:
        return False
    if Game.objects.filter(tournament_table__round_id=round_id).exclude(status__in=OVER).exists():
        return False
    done = Round.objects.filter(pk=round_id, status=Round.Status.PLAYING).update(
        status=Round.Status.DONE, finished_at=now
    )
    if done != 1:
        return False
    _next(Tournament.objects.get(pk=round_.tournament_id), round_, now)
    return True
