"""Reports and moderation: one transaction each.

A report blocks the reported player for the reporter (pairing's block: they are never seated together
again, and neither challenges the other), as lichess does, and waits for a moderator. Nobody is told
who reported whom; the moderators read the reports grouped by player (safety.selectors) and decide.
"""

from __future__ import annotations

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from chat import services as chat
from chat.models import Message
from games.access import can_watch
from games.errors import BadRequest, NotFound, RateLimited
from games.models import Game
from infra import ratelimit
from infra.params import storable
from pairing.models import Block
from safety.models import TEXT_MAX, Report


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
