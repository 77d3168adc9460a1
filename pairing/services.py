"""Play someone now: asking for a game, leaving the queue, what the queue's page shows, blocking.

One transaction each. A request is committed first and its queue seated after, in a transaction of its
own (pairing.seating): two players asking at once through two processes each commit their request
before seating, so at least one of them finds both.
"""

from __future__ import annotations

import logging
import math
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import fair_dice, fair_seeds, rules
from games.errors import BadRequest, Conflict, NotFound
from games.live.broadcast import send_on_commit_to
from games.models import Game
from games.rules import declare
from games.tables.services import DAYS_LIMITS, refuse_if_barred
from pairing import matching, seating, tasks
from pairing.models import Block, Seek
from ratings import kinds, skill
from ratings.models import Rating

logger = logging.getLogger(__name__)
MAX_SEATS = 4
# The waits a player may choose before computers fill the seats nobody took (seconds).
COMPUTER_WAITS = (30, 60, 120, 300)


def queue_key(kind: str, options: dict, seats: int, pace: str, absence_limit: int) -> str:
    """Seeks with the same key are seated together: the same game, options, seats and pace."""
    chosen = ",".join(f"{name}={value}" for name, value in sorted(options.items()))
    return f"{kind}|{chosen}|{seats}|{pace}|{absence_limit}"


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
    seed_ref: int | None = None,
    client_seed: str = "",
    now: datetime | None = None,
) -> Seek:
    """The player waits for a game of ``kind`` with ``seats`` players; seated at once if the queue has
    the players for it. Asking again for the same (a double click, a second tab) is the same seek."""
    if getattr(user, "computer", ""):
        raise BadRequest(_("Computer players do not ask for games."))
    # Every table pairing makes is rated: a player barred from rated play waits for none.
    refuse_if_barred(user)
    options, limit = _checked(kind, options, seats, pace, days, computers_after)
    if client_seed and not fair_dice.valid_client_seed(client_seed):
        raise BadRequest(
            _("A client seed is 1 to %(max)s letters, digits, hyphens or underscores."),
            "bad_seed",
            max=fair_dice.CLIENT_SEED_MAX,
        )
    queue = queue_key(kind, options, seats, pace, limit)
    now = now or timezone.now()
    try:
        with transaction.atomic():
            server_seed = fair_seeds.seed_claim(user=user, ref=seed_ref)
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
                server_seed=server_seed,
                client_seed=client_seed,
            )
            seating.tell_queue(queue)
            _schedule(seek)
    except fair_seeds.CommitmentUsed:
        # A second press that brought the commitment the first one used: the first one's seek, while
        # it waits (once seated, the refusal: the page shows a new commitment).
        seek = Seek.objects.filter(user=user, status=Seek.Status.WAITING, queue=queue).first()
        if seek is None:
            raise
        return seek
    except IntegrityError:
        seek = Seek.objects.filter(user=user, status=Seek.Status.WAITING).first()
        if seek is None:  # left or seated in between: ask again
            return seek_create(
                user=user, kind=kind, options=options, seats=seats, pace=pace, days=days,
                computers_after=computers_after, seed_ref=seed_ref, client_seed=client_seed, now=now,
            )  # fmt: skip
        if seek.queue != queue:
            raise Conflict(
                _("You are already waiting for another game: leave that queue first."), "queued"
            ) from None
        return seek
    try:
        seating.queue_seat(queue=queue, now=now)
    except Conflict:  # another process seated some of the queue meanwhile: the request waits on
        logger.info("queue %s changed while seating; the request waits", queue)
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
        seating.tell_queue(seek.queue)
        send_on_commit_to([(seating.user_group(user.pk), {"type": "pairing.changed"})])


# --- reads for the queue's page and socket -----------------------------------------------------------


def seek_seen(*, user, now: datetime | None = None) -> bool:
    """The player's queue page is open (its ping): their live seek stays in the queue. False if they
    are not waiting."""
    return bool(
        Seek.objects.filter(user=user, status=Seek.Status.WAITING).update(seen_at=now or timezone.now())
    )


# How long after a request lapsed its player's form still says so.
LAPSED_SHOWN = timedelta(minutes=15)


def lapsed_lately(user, now: datetime | None = None) -> bool:
    """The player's latest request lapsed (its page went quiet) in the last LAPSED_SHOWN."""
    now = now or timezone.now()
    latest = Seek.objects.filter(user=user).order_by("-pk").values("status", "ended_at").first()
    return bool(
        latest
        and latest["status"] == Seek.Status.LAPSED
        and latest["ended_at"] is not None
        and latest["ended_at"] >= now - LAPSED_SHOWN
    )


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
        return {
            "type": "queue",
            "waiting": False,
            "game": seek.game_id,
            "url": seating.game_url(seek.game_id),
        }
    if seek.status == Seek.Status.LAPSED:
        return {"type": "queue", "waiting": False, "lapsed": True}
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
        # The window's steps from the request on ([seconds waited, points or None: anyone]): the page
        # moves through them as the player waits, told nothing new by the server.
        "windows": [
            [at, None if matching.window(at) == float("inf") else int(matching.window(at))]
            for at in [0, *matching.widenings()]
        ],
        "others": others,
        "computers_at": None
        if seek.computers_after is None
        else seek.created_at.timestamp() + seek.computers_after,
        "computers_in": None
        if seek.computers_after is None
        else max(0, math.ceil(seek.computers_after - waited)),
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


def seating_block(user, others) -> str | None:
    """Why ``user`` may not sit at a table with the people ``others``: a block between them, whoever
    blocked whom (games.tables.services.refuse_seating; pairing never seats such a pair either)."""
    pair = Q(blocker=user, blocked__in=others) | Q(blocker__in=others, blocked=user)
    if Block.objects.filter(pair).exists():
        return _("You and a player at this table cannot sit together: one of you blocked the other.")
    return None
