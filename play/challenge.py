"""A challenge from a player's profile: a table of the chosen game with the challenger seated and the
other player invited (a notice and a push message), in one transaction. The challenged player accepts
(takes the seat kept for her: the game starts) or declines; the challenger may withdraw (cancel the
table); unanswered, it expires. A declined or expired challenge tells the challenger.

Expiry, as lichess: a correspondence challenge waits two weeks; lichess keeps a real-time one while
the challenger's page is open, and here, where a challenge is told by a notice and a push message and
no page need stay open, a live one waits ten minutes (time to see the message and come).

It lives in play, not in games.tables: it puts together the game core (games.tables.services.game_create,
the one way a table is made), the notices app (notices.services.invited_to_table) and pairing's blocks,
and the core imports none of the apps above it (tests/config/test_layers.py).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_tasks import task

from games.errors import BadRequest, Forbidden, NotFound, RateLimited
from games.models import Game
from games.tables import services as tables
from infra import ratelimit
from notices import services as notices
from pairing.models import Block

EXPIRES = {Game.Pace.LIVE: timedelta(minutes=10), Game.Pace.DAYS: timedelta(days=14)}


def expires_at(game: Game):
    """When a challenge's table, unanswered, is cancelled."""
    return game.created_at + EXPIRES[game.pace]


def challenge_create(
    *,
    challenger,
    username: str,
    kind: str,
    options: dict | None = None,
    pace: str = Game.Pace.LIVE,
    absence_limit: int | None = None,
) -> Game:
    """A two-seat table of ``kind`` (with ``options``) created by ``challenger``, who sits in it, and the
    player called ``username`` invited to the other seat. Refused for oneself, for a computer player (the
    table's own "add a computer" seats one), and between two players one of whom blocked the other.
    The game's own checks (kind, options, pace) are game_create's."""
    other = get_user_model().objects.filter(username=username).first()
    if other is None:
        raise NotFound(_("There is no player called %(name)s."), name=username)
    if other.pk == challenger.pk:
        raise BadRequest(_("You cannot challenge yourself."))
    if other.is_computer:
        raise BadRequest(_("Computer players take no challenges: add one to a table of yours instead."))
    # A challenge's table is rated: a player a moderator barred from rated play neither sends nor takes one.
    tables.refuse_if_barred(challenger)
    if other.barred_from_rated():
        raise Forbidden(_("%(name)s cannot play rated games at the moment."), name=other.username)
    # Either way round (pairing.models.Block), in one query: who blocked whom.
    pair = Q(blocker=challenger, blocked=other) | Q(blocker=other, blocked=challenger)
    blocks = set(Block.objects.filter(pair).values_list("blocker_id", flat=True))
    if challenger.pk in blocks:
        raise Forbidden(_("You blocked %(name)s: unblock them to challenge them."), name=other.username)
    if other.pk in blocks:
        raise Forbidden(_("%(name)s does not take challenges from you."), name=other.username)
    # Each challenge is a notice and a push message to someone else: a limit per challenger, as for
    # chat messages (infra.ratelimit, shared by every process).
    wait = ratelimit.shared_hit(f"challenge:{challenger.pk}", settings.CHALLENGES_PER_HOUR, period=3600)
    if wait is not None:
        raise RateLimited(_("You have sent many challenges: wait %(wait)s s."), retry_after=wait, wait=wait)
    with transaction.atomic():
        game = tables.game_create(
            creator=challenger,
            kind=kind,
            options=options,
            seats=2,
            pace=pace,
            absence_limit=absence_limit,
            reserved_for=other,
        )
        # The notice's row and the push tasks are written with the table or not at all; the sockets
        # hear of the notice once it has committed (notices.feed.tell_users_on_commit).
        notices.invited_to_table(other, game, challenger)
        challenge_expire_task.using(run_after=expires_at(game)).enqueue(game.pk)
    return game


def challenge_decline(*, game_id: int, user) -> Game:
    """The challenged player declines: the table is cancelled and the challenger told."""
    with transaction.atomic():
        game = tables.game_decline(game_id=game_id, user=user)
        if game.creator is not None:
            notices.challenge_ended(game.creator, game, player=user.username, declined=True)
    return game


def challenge_expire(*, game_id: int, now=None) -> Game | None:
    """An unanswered challenge past its time is cancelled and the challenger told (the worker, at its
    expiry); None if it was answered, withdrawn or is not due."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    now = now or timezone.now()
    with transaction.atomic():
        ended = tables.game_cancel_unanswered(game_id=game_id, created_before=now - EXPIRES[game.pace])
        if ended is not None and ended.creator is not None:
            player = ended.reserved_for.username if ended.reserved_for else ""
            notices.challenge_ended(ended.creator, ended, player=player, declined=False)
    return ended


@task()
def challenge_expire_task(game_id: int) -> None:
    """The worker's part: an unanswered challenge expires (enqueued with the challenge, for its expiry)."""
    challenge_expire(game_id=game_id)
