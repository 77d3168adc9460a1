"""Turn e-mails: promised when a turn passes to a player who is not at the table (in the move's own
transaction: notices.handlers, games.effects.AbsentPlayerToMove), when a game starts, or when a player
leaves the table during their turn; sent by the worker once due, if the turn is still theirs and they
are still away. One row per player per turn (a unique constraint) is what keeps it to one e-mail per turn."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.mail import EmailMessage, get_connection
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games.live import seen
from games.live.selectors import connected_usernames
from games.models import Game, Seat
from notices import feed, push
from notices.feed import tell_users_on_commit
from notices.models import Preferences, TurnMail, preferences_of

logger = logging.getLogger(__name__)
UNSUBSCRIBE_SALT = "notices.unsubscribe"


def turn_mail_delay(game: Game) -> int:
    """Seconds from the start of a turn (or from leaving the table during it) to its e-mail."""
    return settings.TURN_MAIL_DAYS_AFTER if game.pace == Game.Pace.DAYS else game.absence_limit


def someone_waits(game: Game, user) -> bool:
    """Whether another person sits in the game, waiting for this player's move: a solo game or one
    against computers only waits for nobody, so its turns are neither mailed nor counted as waiting."""
    return Seat.objects.filter(game=game, user__computer="").exclude(user=user).exists()


def promise(game: Game, user, now=None, *, left: bool = False) -> None:
    """The e-mail about the current turn, due after the game's delay from now (once per turn), if
    another person waits for it; and at once a push message to the player's devices that take turns,
    unless they are on a page of the site (which tells them) or ``left`` it just now (the game's page,
    during their turn: that page's pings say nothing of the others)."""
    now = now or timezone.now()
    if game.turn_started_at is None or not someone_waits(game, user):
        return
    mail, created = TurnMail.objects.get_or_create(
        game=game,
        user=user,
        turn_started_at=game.turn_started_at,
        defaults={"due_at": now + timedelta(seconds=turn_mail_delay(game))},
    )
    if created and (left or not on_a_page(user, now)):
        push_turn(mail, game, user)


def on_a_page(user, now) -> bool:
    """Whether the player's notices socket (any page of the site) pinged within the presence timeout."""
    return _on_site(user, seen.cutoff(now))


def on_pages(user_ids, now=None) -> set[int]:
    """``on_a_page`` for many players at once: the pks among ``user_ids`` of those on a page of the site."""
    since = seen.cutoff(now)
    return set(
        Preferences.objects.filter(user_id__in=user_ids, seen_at__gte=since).values_list("user_id", flat=True)
    )


# --- push messages (notices.push sends them; the settings page switches each kind per device) --------


def push_turn(mail: TurnMail, game: Game, user) -> int:
    """'Your turn' to the player's devices, in the turn's transaction; the e-mail stays pending and is
    dropped by the sweep if a push service took the message (TurnMail.pushed_at), sent when due if
    none did. One tag per turn: a device shows one message for it."""
    turn = int(mail.turn_started_at.timestamp())
    with speaking(user):
        message = push.payload(
            title=_("Your turn in %(game)s #%(number)s") % {"game": game.kind_name, "number": game.pk},
            body=_("The other players are waiting for your move."),
            url=game.get_absolute_url(),
            tag=f"turn-{game.pk}-{turn}",
        )
    return push.enqueue(user, "turn", message, turn_mail=mail)


def invited_to_table(user, game: Game, by) -> int:
    """A player was invited to a seat at ``game`` by ``by`` (a challenge from their profile page,
    play.challenge): a notice, which their pages hear of once the transaction has committed, and a push
    message to each device that takes invitations, in the caller's transaction; how many pushes."""
    if by is not None and by.pk == user.pk:
        return 0
    url = game.get_absolute_url()
    text = gettext_noop("%(player)s invites you to play %(game)s.")
    params = {"player": by.username if by else game.creator.username, "game": game.kind_name}
    feed.tell(user, text, url, params)
    tell_users_on_commit([user.username])
    with speaking(user):
        message = push.payload(
            title=_("An invitation to a table"),
            body=_(text) % params,
            url=url,
            tag=f"invitation-{game.pk}",
        )
    return push.enqueue(user, "invitation", message)


def challenge_ended(challenger, game: Game, *, player: str, declined: bool) -> None:
    """A challenge of ``challenger``'s to ``player`` ended unplayed: declined by them, or expired (no
    answer in time; play.challenge). A notice, heard once the transaction has committed."""
    if declined:
        text = gettext_noop("%(player)s declined your challenge to %(game)s.")
    else:
        text = gettext_noop("Your challenge to %(player)s (%(game)s) expired unanswered.")
    feed.tell(challenger, text, game.get_absolute_url(), {"player": player, "game": game.kind_name})
    tell_users_on_commit([challenger.username])


def tournament_round(user, game: Game) -> int:
    """A tournament round that needs ``user`` has its game ready (tournaments.rounds calls this for
    each player of each table). Never for a game in which nobody waits for them."""
    if not someone_waits(game, user):
        return 0
    with speaking(user):
        message = push.payload(
            title=_("Your tournament round"),
            body=_("Your game of the next round is ready: %(game)s #%(number)s.")
            % {"game": game.kind_name, "number": game.pk},
            url=game.get_absolute_url(),
            tag=f"tournament-{game.pk}",
        )
    return push.enqueue(user, "tournament", message)


def read_recent(user) -> list:
    """The notices page: the player's latest notices, read and unread (the unread as they were, for
    the page to mark), which are read from now on; their headers hear of it."""
    notices = feed.recent(user)
    unread = [n.pk for n in notices if not n.seen]
    if unread:
        feed.mark_seen(user, unread)
        tell_users_on_commit([user.username])
    return notices


def left_table(game_id: int, user) -> None:
    """A player closed the game's last page during their own turn: promise the turn's e-mail."""
    # One query, and only a game whose turn is this player's (as lobby.games_waiting_for asks).
    game = Game.objects.filter(pk=game_id, status=Game.Status.PLAYING, state__current=user.username).first()
    if game is not None:
        promise(game, user, left=True)


def game_started(game: Game, by=None) -> None:
    """Every other player hears that the game started: who started it, or, for a table the site
    filled and started (``by`` None: pairing, a tournament's round), that it started, crediting no
    seat. The first turn's e-mail is promised if its player is not at the table."""
    players = [seat.user for seat in game.seats.select_related("user")]
    for player in players:
        if (by is not None and player.pk == by.pk) or player.is_computer:
            continue
        if by is None:
            text = gettext_noop("Your table of %(game)s #%(number)s has started.")
            params = {"game": game.kind_name, "number": game.pk}
        else:
            text = gettext_noop("%(player)s started %(game)s #%(number)s.")
            params = {"player": by.username, "game": game.kind_name, "number": game.pk}
        feed.tell(player, text, game.get_absolute_url(), params)
    tell_users_on_commit(p.username for p in players)
    user = next((p for p in players if p.username == game.current_player), None)
    if user is not None and not user.is_computer and not _at_table(game, user):
        promise(game, user)


def added_to_group(group, user, by) -> None:
    """A player was made a member of a group by someone else (its creator)."""
    if by is not None and by.pk != user.pk:
        url = reverse("groups:detail", args=[group.pk])
        text = gettext_noop("%(player)s added you to the group %(group)s.")
        feed.tell(user, text, url, {"player": by.username, "group": group.name})
        tell_users_on_commit([user.username])
        with speaking(user):
            message = push.payload(
                title=_("Added to a group"),
                body=_(text) % {"player": by.username, "group": group.name},
                url=url,
                tag=f"group-{group.pk}",
            )
        push.enqueue(user, "group", message)


def season_opened(
    users, *, group, number: int, game: str, first_day: str, last_day: str, url: str, by
) -> None:
    """A group's creator (``by``) opened a season (its ``number`` in the group) of ``game`` from
    ``first_day`` to ``last_day``: a notice to each of ``users`` but ``by``, and a push message to each
    of their devices that take group news, as being added to a group does."""
    text = gettext_noop("%(player)s opened a season of %(game)s in %(group)s, from %(first)s to %(last)s.")
    params = {"player": by.username, "game": game, "group": group.name, "first": first_day, "last": last_day}
    told = [user for user in users if user.pk != by.pk]
    for user in told:
        feed.tell(user, text, url, params)
        with speaking(user):
            message = push.payload(
                title=_("A new season"), body=_(text) % params, url=url, tag=f"season-{group.pk}-{number}"
            )
        push.enqueue(user, "group", message)
    tell_users_on_commit([user.username for user in told])


def season_closed(users, *, group, number: int, game: str, champions: list[str], url: str) -> None:
    """A group's season of ``game`` closed with ``champions`` (none when no game counted): a notice to
    each of ``users`` and a push message to each of their devices that take group news."""
    if champions:
        text = gettext_noop("The season of %(game)s in %(group)s is over: %(champion)s won it.")
    else:
        text = gettext_noop("The season of %(game)s in %(group)s is over; no game counted.")
    params = {"game": game, "group": group.name, "champion": ", ".join(champions)}
    for user in users:
        feed.tell(user, text, url, params)
        with speaking(user):
            message = push.payload(
                title=_("A season is over"), body=_(text) % params, url=url, tag=f"season-{group.pk}-{number}"
            )
        push.enqueue(user, "group", message)
    tell_users_on_commit([user.username for user in users])


# What a moderator's decision tells its player (safety.services.decide), by the decision's kind.
MODERATION_NOTICES = {
    "warn": gettext_noop("A moderator warned you: %(reason)s"),
    "mute": gettext_noop("A moderator muted you in chat until %(until)s: %(reason)s"),
    "bar": gettext_noop("A moderator barred you from rated games until %(until)s: %(reason)s"),
    "close": gettext_noop("A moderator closed your account: %(reason)s"),
    "lift": gettext_noop("A moderator lifted your chat mute and your bar from rated games: %(reason)s"),
}


def moderated(user, kind: str, *, reason: str, until: str = "") -> None:
    """A moderator decided about ``user`` (``kind``: MODERATION_NOTICES): a notice says what and why,
    never who."""
    feed.tell(user, MODERATION_NOTICES[kind], reverse("notices:list"), {"reason": reason, "until": until})
    tell_users_on_commit([user.username])


def group_changed(usernames, group_id: int, part: str) -> None:
    """Tell these players' pages that a part of the group's page (``part``, e.g. "seasons") changed,
    once the transaction has committed: a group page or a page of the group's shows it anew."""
    tell_users_on_commit(usernames, {"type": "notices.group_changed", "group": group_id, "part": part})


def _at_table(game: Game, user) -> bool:
    return user.username in connected_usernames(game.pk)


def _on_site(user, since) -> bool:
    seen = Preferences.objects.filter(user=user).values_list("seen_at", flat=True).first()
    return seen is not None and seen >= since


# --- the worker's side ------------------------------------------------------------------------------


def due_mails(now=None) -> list[int]:
    now = now or timezone.now()
    return list(
        TurnMail.objects.filter(status=TurnMail.Status.PENDING, due_at__lte=now)
        .order_by("due_at")
        .values_list("pk", flat=True)
    )


def next_due():
    pending = TurnMail.objects.filter(status=TurnMail.Status.PENDING)
    return pending.order_by("due_at").values_list("due_at", flat=True).first()


def deliver(mail_id: int) -> str:
    """Send one due e-mail or drop it; what became of it. The row stays locked while the mail is sent,
    so that two workers never send it twice; a failure to send leaves it pending for the next sweep.

    At least once, not exactly once: once the SMTP server has the whole message, the worker waits for
    its reply (up to EMAIL_TIMEOUT, 20 s) and then commits the row as sent. A worker killed, or a
    database connection lost, in that window leaves the row pending and the next sweep sends the
    e-mail again, with the same Message-ID (a receiving server may drop the copy). No SMTP client can
    close that window: the server may deliver a message whose reply never arrived. Marking the row
    "sending" before the message and "sent" after would only trade the duplicate for a lost e-mail.
    What is narrowed: QUIT (another reply to wait for, up to EMAIL_TIMEOUT) now comes after the
    commit, outside the window; connecting, greeting and signing in come before the message, outside
    it too."""
    connection = get_connection()
    try:
        with transaction.atomic():
            mail = (
                TurnMail.objects.select_for_update(skip_locked=True)
                .select_related("game", "user")
                .filter(pk=mail_id, status=TurnMail.Status.PENDING)
                .first()
            )
            if mail is None:
                return "taken"
            if push.outstanding(mail.pk):
                return "waiting for its push"  # still pending: a later sweep decides
            why = _reason_to_drop(mail)
            if why:
                mail.status, mail.why = TurnMail.Status.DROPPED, why
            else:
                # Connecting, greeting and signing in: nothing the server can deliver yet.
                connection.open()
                _send(mail, connection)
                mail.status = TurnMail.Status.SENT
            mail.decided_at = timezone.now()
            mail.save(update_fields=["status", "why", "decided_at"])
            return mail.status
    finally:
        # QUIT once the row is committed: killed while waiting for its reply, nothing is sent twice.
        connection.close()


def _reason_to_drop(mail: TurnMail) -> str:
    game, user = mail.game, mail.user
    if game.status != Game.Status.PLAYING or game.turn_started_at != mail.turn_started_at:
        return "the turn is over"
    if game.current_player != user.username:
        return "no longer their turn"
    if mail.pushed_at is not None:
        return "told by push"
    if not user.email or not user.is_active:
        return "no address"
    if not preferences_of(user).email_turns:
        return "does not want e-mail"
    if _at_table(game, user):
        return "at the table"
    if game.pace == Game.Pace.DAYS and _on_site(user, mail.turn_started_at):
        return "told on the site"
    return ""


def _send(mail: TurnMail, connection) -> None:
    game, user = mail.game, mail.user
    context = {
        "user": user,
        "game": game,
        "game_url": settings.SITE_URL + game.get_absolute_url(),
        "unsubscribe_url": settings.SITE_URL + reverse("notices:unsubscribe", args=[unsubscribe_token(user)]),
        "limit_days": game.absence_limit // 86_400,
    }
    turn = int(mail.turn_started_at.timestamp())
    with speaking(user):
        subject = _("Your turn in %(game)s #%(number)s") % {"game": game.kind_name, "number": game.pk}
        body = render_to_string("notices/turn_mail.txt", context)
    EmailMessage(
        connection=connection,
        subject=subject,
        body=body,
        to=[user.email],
        headers={
            # One id per turn: a mail server that is handed the same mail twice may keep one.
            "Message-ID": f"<turn-{game.pk}-{user.pk}-{turn}@dicehall>",
            "List-Unsubscribe": f"<{context['unsubscribe_url']}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    ).send()
    logger.info("turn mail sent: game %s, user %s", game.pk, user.pk)


def speaking(user):
    """The player's own language for what is written to them away from any page of theirs (a notice,
    an e-mail); a player who never chose one gets the site's default."""
    return translation.override(getattr(user, "language", "") or settings.LANGUAGE_CODE)


def unsubscribe_token(user) -> str:
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_reader(token: str):
    """The player an unsubscribe link names, or None for a bad token (or an account that is gone)."""
    try:
        user_id = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return get_user_model().objects.filter(pk=user_id).first()


def unsubscribe(token: str):
    """Turn the e-mails off for the token's player; the player, or None for a bad token."""
    user = unsubscribe_reader(token)
    if user is not None:
        Preferences.objects.update_or_create(user=user, defaults={"email_turns": False})
    return user


def seen_on_site(user) -> None:
    """The player's notices socket is open (any page of the site): a notice reaches them.

    A plain UPDATE, the row made only the first time: an INSERT also locks the user's row (its
    foreign key), and a socket closing while the test suite's flush truncates every table could then
    deadlock with it on PostgreSQL."""
    now = timezone.now()
    if Preferences.objects.filter(user=user).update(seen_at=now):
        return
    try:
        Preferences.objects.get_or_create(user=user, defaults={"seen_at": now})
    except IntegrityError:  # the account is gone while its socket was open: nobody to record
        logger.info("notices: user %s no longer exists", user.pk)
