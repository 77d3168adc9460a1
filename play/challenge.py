"""A challenge from a player's profile: a table of the chosen game with the challenger seated and the
other player invited (a notice and a push message), in one transaction.

It lives in play, not in games.tables: it puts together the game core (games.tables.services.game_create,
the one way a table is made), the notices app (notices.services.invited_to_table) and pairing's blocks,
and the core imports none of the apps above it (tests/config/test_layers.py).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.errors import BadRequest, Forbidden, NotFound
from games.models import Game
from games.tables import services as tables
from notices import services as notices
from pairing.models import Block


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
    # Either way round (pairing.models.Block), in one query: who blocked whom.
    pair = Q(blocker=challenger, blocked=other) | Q(blocker=other, blocked=challenger)
    blocks = set(Block.objects.filter(pair).values_list("blocker_id", flat=True))
    if challenger.pk in blocks:
        raise Forbidden(_("You blocked %(name)s: unblock them to challenge them."), name=other.username)
    if other.pk in blocks:
        raise Forbidden(_("%(name)s does not take challenges from you."), name=other.username)
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
    return game
