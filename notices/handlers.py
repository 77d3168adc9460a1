"""What notices do when a game's turn passes, starts, or is left (games.effects), and when a player's
notices socket pings (games.live.seen); registered by notices.apps."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games import effects
from games.errors import InvalidAction
from games.models import Seat
from notices import feed, services
from notices.models import Preferences, TurnMail


def promise_turn_mail(effect: effects.AbsentPlayerToMove) -> None:
    """The turn passed to a player away from the table: its e-mail is promised in the move's own
    transaction (the worker sends it when due, if still wanted)."""
    game = effect.game
    seat = Seat.objects.select_related("user").get(game=game, position=effect.position)
    services.promise(game, seat.user, now=game.turn_started_at)


def game_started(effect: effects.GameStarted) -> None:
    services.game_started(effect.game, by=effect.by)


def invited_to_table(effect: effects.InvitedToTable) -> None:
    """A notice and a push message, in the transaction that opened the table."""
    services.invited_to_table(effect.user, effect.game, effect.by)


def left_table(effect: effects.LeftTable) -> None:
    services.left_table(effect.game_id, effect.user)


def refuse_untold_skip(effect: effects.SkipAsked) -> None:
    """A turn is never taken from a player who was not told of it: not at the table since it began,
    nor on any page, and its e-mail not sent, while one can reach them (an address, e-mail wanted)."""
    game = effect.game
    turn = game.turn_started_at or game.started_at
    told = Q(status=TurnMail.Status.SENT) | Q(pushed_at__isnull=False)  # by e-mail or a push message
    mailed = TurnMail.objects.filter(told, game=game, user_id=effect.player_id, turn_started_at=turn).exists()
    seen_at, wanted = (
        Preferences.objects.filter(user_id=effect.player_id).values_list("seen_at", "email_turns").first()
    ) or (None, True)
    on_site = seen_at is not None and seen_at >= turn
    address = get_user_model().objects.filter(pk=effect.player_id).values_list("email", flat=True).first()
    if not (mailed or on_site or not wanted or not address):
        raise InvalidAction(
            _("%(player)s has not been told it is their turn yet; an e-mail is on its way."),
            "not_absent",
            player=effect.player,
        )


def on_site(user_ids, now) -> None:
    """Pings of notices sockets: these players are on the site (a turn is told to them there)."""
    Preferences.objects.filter(user_id__in=user_ids).update(seen_at=now)


def turn_rows(effect: effects.TurnPassed) -> list[tuple[str, dict]]:
    """Every player's lists of games (whose turn, the scores) change: their notices sockets hear the
    game's row as the move leaves it, through the game's group of them (one message for all)."""
    game = effect.game
    return [(feed.game_group(game.pk), feed.turn_message(game))]
