"""Invitations opened signed out: remembered in the session, honoured as soon as the visitor has signed up
or signed in, so that the friend lands in the seat (or the group) without another click.

Django's login() keeps an anonymous session's data (it only changes the key), so what the invitation
page remembers is still there after sign-up or sign-in. Only one invitation is pending at a time (the
latest opened), it is used once, and it goes stale after ``FRESH_FOR``: a visitor who opened a link and
came back days later to sign in is not seated in a table they have forgotten.

The seat is taken through services.game_join and the membership through
groups.services.group_join_by_invite, the same checks as the buttons (room, start, group membership).
"""

from __future__ import annotations

import time

from django.contrib import messages
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from games.errors import GameError, NotFound
from games.models import Game
from games.tables import services
from groups import selectors
from groups import services as group_services

SESSION_KEY = "pending_invitation"
FRESH_FOR = 2 * 3600  # seconds: time enough to make an account, not enough to forget the link


def remember_game(request: HttpRequest, game: Game) -> None:
    request.session[SESSION_KEY] = {"game": game.pk, "at": int(time.time())}


def remember_group(request: HttpRequest, token: str) -> None:
    request.session[SESSION_KEY] = {"group_token": token, "at": int(time.time())}


def _pending(request: HttpRequest) -> dict | None:
    pending = request.session.get(SESSION_KEY)
    if not isinstance(pending, dict) or time.time() - pending.get("at", 0) > FRESH_FOR:
        return None
    return pending


def describe(request: HttpRequest) -> str | None:
    """The pending invitation in a sentence, for the sign-up and sign-in pages; None when there is none
    (or nothing is left to join)."""
    pending = _pending(request)
    if pending is None:
        return None
    if isinstance(pending.get("game"), int):
        game = Game.objects.select_related("creator").filter(pk=pending["game"]).first()
        if game is None or game.status != Game.Status.OPEN:
            return None
        host = game.creator.username
        return _("%(host)s invites you to play %(game)s: you take your seat as soon as you are in.") % {
            "host": host,
            "game": game.kind_name,
        }
    group = selectors.invited_group(pending.get("group_token") or "")
    if group is None:
        return None
    host = group.creator.username
    return _("%(host)s invites you to the group “%(group)s”: you are a member as soon as you are in.") % {
        "host": host,
        "group": group.name,
    }


def honour(request: HttpRequest) -> str | None:
    """Act on the pending invitation of the signed-in visitor: the path to land on (one of ours, never
    taken from the request), or None when there is none. What happened is told as a message."""
    pending = _pending(request)
    request.session.pop(SESSION_KEY, None)
    if pending is None or not request.user.is_authenticated:
        return None
    if isinstance(pending.get("game"), int):
        return _take_seat(request, pending["game"])
    if isinstance(pending.get("group_token"), str):
        return _join_group(request, pending["group_token"])
    return None


def _take_seat(request: HttpRequest, game_id: int) -> str:
    try:
        services.game_join(game_id=game_id, user=request.user)
    except NotFound as exc:
        messages.error(request, exc.message)
        return reverse("home")
    except GameError as exc:
        # Full, started, or a group game for its members only: the game's page says the rest.
        messages.error(request, _("You could not take a seat: %(reason)s") % {"reason": exc.message})
    else:
        messages.success(request, _("You have a seat. Wait for the start."))
    return reverse("games:detail", args=[game_id])


def _join_group(request: HttpRequest, token: str) -> str:
    try:
        membership, joined = group_services.group_join_by_invite(token=token, user=request.user)
    except GameError as exc:
        messages.error(request, exc.message)
        return reverse("home")
    welcome(request, membership, joined)
    return reverse("groups:detail", args=[membership.group_id])


def welcome(request: HttpRequest, membership, joined: bool) -> None:
    """The message of a group joined through its link (here, or with the link page's button)."""
    name = membership.group.name
    said = _("Welcome to “%(name)s”!") if joined else _("You are already in “%(name)s”.")
    messages.success(request, said % {"name": name})
