"""Play someone now: asking for a game, leaving the queue, seating a queue's players, blocking.

One transaction each. Seating locks the queue's waiting seeks in id order and marks them seated only if
they are still waiting: two processes seating one queue at once never put a player at two tables (the
second waits for the first's locks and then finds those seeks seated).
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Avg
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import rules
from games.bots import STRENGTHS
from games.errors import BadRequest, Conflict, NotFound
from games.live.broadcast import send_on_commit_to
from games.models import Game
from games.rules import declare
from games.tables import services as tables
from games.tables.services import DAYS_LIMITS
from pairing import matching, tasks
from pairing.models import Block, Seek
from ratings import kinds, skill
from ratings.models import Rating

MAX_SEATS = 4
# A live seek whose page has not pinged for this long (closed, or the player gone) is left, never
# seated: a live table would start with somebody who is not there. Pages ping every 10 s.
STALE_AFTER = timedelta(seconds=30)
# The waits a player may choose before computers fill the seats nobody took (seconds).
COMPUTER_WAITS = (30, 60, 120, 300)


def queue_key(kind: str, options: dict, seats: int, pace: str, absence_limit: int) -> str:
    """Seeks with the same key are seated together: the same game, options, seats and pace."""
    chosen = ",".join(f"{name}={value}" for name, value in sorted(options.items()))
    return f"{kind}|{chosen}|{seats}|{pace}|{absence_limit}"


def queue_group(queue: str) -> str:
    """The channel-layer group of a queue's waiting sockets (group names are short and plain)."""
    return "pairing.q." + hashlib.sha256(queue.encode()).hexdigest()[:24]


def user_group(user_id: int) -> str:
    """The group of one player's queue sockets."""
    return f"pairing.user.{user_id}"


def rating_of(user, kind: str, options: dict) -> int:
    """The player's shown rating in the kind (a newcomer's 1500 if they have none)."""
    found = Rating.objects.filter(user=user, kind=kinds.key(kind, options)).values_list("display", flat=True)
    return found.first() or skill.display(*skill.initial())


def _checked(kind: str, options: dict | None, seats, pace: str, days: int | None, computers_after):
    try:
        engine = rules.get(kind)
    except KeyError:
        raise BadRequest(_("There is no game called %(kind)s."), kind=repr(kind)) from None
    try:
        engine.new_game(["probe"], dict(options or {}))
    except rules.IllegalAction as exc:
        raise BadRequest(exc) from None
    top = min(engine.max_players, MAX_SEATS)
    if not isinstance(seats, int) or not max(engine.min_players, 2) <= seats <= top:
        raise BadRequest(_("Ask for a table of 2 to %(max)s players."), max=top)
    if pace == Game.Pace.LIVE:
        limit = settings.GAME_DEFAULT_ABSENCE_LIMIT
    elif pace == Game.Pace.DAYS and days is not None and days * 86_400 in DAYS_LIMITS:
        limit = days * 86_400
    else:
        raise BadRequest(_("Choose a live game or 1, 2 or 3 days per turn."))
    if computers_after is not None and computers_after not in COMPUTER_WAITS:
        raise BadRequest(_("Choose one of the offered waits for computer players."))
    return declare.full_options(engine, options), limit


def seek_create(
    *,
    user,
    kind: str,
    options: dict | None = None,
    seats: int = 2,
    pace: str = Game.Pace.LIVE,
    days: int | None = None,
    computers_after: int | None = None,
    now: datetime | None = None,
) -> Seek:
    """The player waits for a game of ``kind`` with ``seats`` players; seated at once if the queue has
    the players for it. Asking again for the same (a double click, a second tab) is the same seek."""
    if getattr(user, "computer", ""):
        raise BadRequest(_("Computer players do not ask for games."))
    options, limit = _checked(kind, options, seats, pace, days, computers_after)
    queue = queue_key(kind, options, seats, pace, limit)
    now = now or timezone.now()
    try:
        with transaction.atomic():
            seek = Seek.objects.create(
                user=user,
                kind=kind,
                options=options,
                seats=seats,
                pace=pace,
                absence_limit=limit,
                queue=queue,
                computers_after=computers_after,
                rating=rating_of(user, kind, options),
                created_at=now,
                seen_at=now,
            )
            _tell_queue(queue)
            _schedule(seek)
    except IntegrityError:
        seek = Seek.objects.filter(user=user, status=Seek.Status.WAITING).first()
        if seek is None:  # left or seated in between: ask again
            return seek_create(
                user=user, kind=kind, options=options, seats=seats, pace=pace, days=days,
                computers_after=computers_after, now=now,
            )  # fmt: skip
        if seek.queue != queue:
            raise Conflict(
                _("You are already waiting for another game: leave that queue first."), "queued"
            ) from None
        return seek
    queue_seat(queue=queue, now=now)
    seek.refresh_from_db()
    return seek


def _schedule(seek: Seek) -> None:
    """The moments the seek's queue must be looked at again (its window widens, its wait for computers
    ends), enqueued for the worker in the seek's own transaction."""
    moments = set(matching.widenings())
    if seek.computers_after is not None:
        moments.add(seek.computers_after)
    for seconds in sorted(moments):
        tasks.seat_queue.using(run_after=seek.created_at + timedelta(seconds=seconds)).enqueue(seek.queue)


def seek_leave(*, user) -> None:
    """The player stops waiting; a no-op once they were seated or had left (a second tab)."""
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(user=user, status=Seek.Status.WAITING).first()
        if seek is None:
            return
        seek.status = Seek.Status.LEFT
        seek.ended_at = timezone.now()
        seek.save(update_fields=["status", "ended_at"])
        _tell_queue(seek.queue)
        send_on_commit_to([(user_group(user.pk), {"type": "pairing.changed"})])


def queue_seat(*, queue: str, now: datetime | None = None) -> list[Game]:
    """Seat whoever of the queue can be seated now (pairing.matching), each table a started game."""
    now = now or timezone.now()
    with transaction.atomic():
        seeks = list(
            Seek.objects.select_for_update()
            .filter(queue=queue, status=Seek.Status.WAITING)
            .select_related("user")
            .order_by("pk")
        )
        stale = [s for s in seeks if s.pace == Game.Pace.LIVE and s.seen_at < now - STALE_AFTER]
        if stale:
            _end_stale(stale, now)
            seeks = [s for s in seeks if s not in stale]
        if not seeks:
            return []
        waiting = [
            matching.Waiting(
                s.pk, s.user_id, s.rating, (now - s.created_at).total_seconds(), s.computers_after
            )
            for s in seeks
        ]
        users = [s.user_id for s in seeks]
        pairs = Block.objects.filter(blocker_id__in=users, blocked_id__in=users).values_list(
            "blocker_id", "blocked_id"
        )
        made = matching.tables(waiting, seeks[0].seats, matching.blocked_pairs(pairs))
        by_id = {s.pk: s for s in seeks}
        games = [_open(table, [by_id[w.id] for w in table.players], now) for table in made]
        if games:
            _tell_queue(queue)
    return games


def _end_stale(stale: list[Seek], now: datetime) -> None:
    Seek.objects.filter(pk__in=[s.pk for s in stale]).update(status=Seek.Status.LEFT, ended_at=now)
    send_on_commit_to([(user_group(s.user_id), {"type": "pairing.changed"}) for s in stale])


def seek_seen(*, user, now: datetime | None = None) -> bool:
    """The player's queue page is open (its ping): their live seek stays in the queue. False if they
    are not waiting."""
    return bool(
        Seek.objects.filter(user=user, status=Seek.Status.WAITING).update(seen_at=now or timezone.now())
    )


def _open(table: matching.Table, seeks: list[Seek], now: datetime) -> Game:
    first = seeks[0]
    people = [seek.user for seek in seeks]
    game = tables.game_create(
        creator=people[0],
        others=people[1:],
        kind=first.kind,
        options=first.options,
        seats=first.seats,
        pace=first.pace,
        absence_limit=first.absence_limit,
        computers=table.computers,
        strength=_strength(first, [seek.rating for seek in seeks]) if table.computers else "good",
    )
    seated = Seek.objects.filter(pk__in=[s.pk for s in seeks], status=Seek.Status.WAITING).update(
        status=Seek.Status.SEATED, game=game, ended_at=now
    )
    if seated != len(seeks):  # another process seated one of them meanwhile (SQLite: no row locks)
        raise Conflict(_("The queue changed; try again."), "queue_changed")
    send_on_commit_to([(user_group(s.user_id), {"type": "pairing.seated", "game": game.pk}) for s in seeks])
    return game


def _strength(seek: Seek, ratings: list[int]) -> str:
    """The computers' strength whose rating in the kind is closest to the people's mean rating (all are
    1500 until computers have played rated games: then the middle strength)."""
    key = kinds.key(seek.kind, seek.options)
    mean = sum(ratings) / len(ratings)
    newcomer = skill.display(*skill.initial())
    found = dict(
        Rating.objects.filter(kind=key, user__computer__in=STRENGTHS)
        .values_list("user__computer")
        .annotate(mean=Avg("display"))
        .values_list("user__computer", "mean")
    )
    order = sorted(STRENGTHS, key=lambda s: (s != "good", list(STRENGTHS).index(s)))
    return min(order, key=lambda s: abs(found.get(s, newcomer) - mean))


def game_url(game_id: int) -> str:
    return reverse("games:detail", args=[game_id])


def _tell_queue(queue: str) -> None:
    send_on_commit_to([(queue_group(queue), {"type": "pairing.changed"})])


# --- reads for the queue's page and socket -----------------------------------------------------------


def waiting_seek(user) -> Seek | None:
    return Seek.objects.filter(user=user, status=Seek.Status.WAITING).first()


def queue_state(user, now: datetime | None = None) -> dict:
    """What the player's queue page shows: whether they wait, since when, how many wait with them and
    how far their window reaches now; or the game they were last seated at."""
    now = now or timezone.now()
    seek = Seek.objects.filter(user=user).order_by("-pk").first()
    if seek is None:
        return {"type": "queue", "waiting": False}
    if seek.status == Seek.Status.SEATED and seek.game_id is not None:
        return {"type": "queue", "waiting": False, "game": seek.game_id, "url": game_url(seek.game_id)}
    if seek.status != Seek.Status.WAITING:
        return {"type": "queue", "waiting": False}
    waited = (now - seek.created_at).total_seconds()
    window = matching.window(waited)
    others = Seek.objects.filter(queue=seek.queue, status=Seek.Status.WAITING).exclude(pk=seek.pk).count()
    engine = rules.get(seek.kind)
    return {
        "type": "queue",
        "waiting": True,
        "game_name": declare.game_name(engine, seek.options),
        "seats": seek.seats,
        "pace": seek.pace,
        "rating": seek.rating,
        "since": seek.created_at.timestamp(),
        "waited": round(waited),
        "window": None if window == float("inf") else int(window),
        "others": others,
        "computers_at": None
        if seek.computers_after is None
        else seek.created_at.timestamp() + seek.computers_after,
    }


# --- blocks ------------------------------------------------------------------------------------------


def _other(username: str):
    other = get_user_model().objects.filter(username=username).first()
    if other is None:
        raise NotFound(_("There is no player called %(name)s."), name=username)
    return other


def block_player(*, user, username: str) -> Block:
    """``user`` is never again seated by pairing with the player called ``username``."""
    other = _other(username)
    if other.pk == user.pk:
        raise BadRequest(_("You cannot block yourself."))
    block, _created = Block.objects.get_or_create(blocker=user, blocked=other)
    return block


def unblock_player(*, user, username: str) -> None:
    Block.objects.filter(blocker=user, blocked=_other(username)).delete()


def blocked_names(user) -> list[str]:
    return list(
        Block.objects.filter(blocker=user)
        .order_by("blocked__username")
        .values_list("blocked__username", flat=True)
    )


def is_blocked(user, other) -> bool:
    return Block.objects.filter(blocker=user, blocked=other).exists()
