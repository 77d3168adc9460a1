"""Seating a queue: the tables pairing.matching makes of its waiting requests, each a started game.

One transaction a call. It locks the queue's waiting requests in id order and marks them seated only if
they are still waiting: two processes seating one queue at once never put a player at two tables (the
second waits for the first's locks, then finds those requests seated). The worker's task and a request
that asks both seat through here.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Avg
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.bots import STRENGTHS
from games.errors import Conflict
from games.live.broadcast import send_on_commit_to
from games.models import Game
from games.tables import services as tables
from pairing import matching
from pairing.models import Block, Seek
from ratings import kinds, skill
from ratings.models import Rating

# A live request whose page has not pinged for this long (closed, or the player gone) is left, never
# seated: a live table would start with somebody who is not there. Pages ping every 10 s.
STALE_AFTER = timedelta(seconds=30)


def queue_group(queue: str) -> str:
    """The channel-layer group of a queue's waiting sockets (group names are short and plain)."""
    return "pairing.q." + hashlib.sha256(queue.encode()).hexdigest()[:24]


def user_group(user_id: int) -> str:
    """The group of one player's queue sockets."""
    return f"pairing.user.{user_id}"


def queue_seat(*, queue: str, now: datetime | None = None) -> list[Game]:
    """Seat whoever of the queue can be seated now (pairing.matching), each table a started game."""
    now = now or timezone.now()
    with transaction.atomic():
        seeks = list(
            Seek.objects.select_for_update(of=("self",))
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
            tell_queue(queue)
    return games


def _end_stale(stale: list[Seek], now: datetime) -> None:
    Seek.objects.filter(pk__in=[s.pk for s in stale]).update(status=Seek.Status.LAPSED, ended_at=now)
    send_on_commit_to([(user_group(s.user_id), {"type": "pairing.changed"}) for s in stale])


def _open(table: matching.Table, seeks: list[Seek], now: datetime) -> Game:
    first = seeks[0]
    people = [seek.user for seek in seeks]
    game = tables.game_create(
        creator=people[0],
        others=people[1:],
        server_seed=first.server_seed,
        client_seed=first.client_seed,
        others_seeds=[seek.client_seed for seek in seeks[1:]],
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


def tell_queue(queue: str) -> None:
    send_on_commit_to([(queue_group(queue), {"type": "pairing.changed"})])
