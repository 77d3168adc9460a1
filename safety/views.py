"""Reporting a player (/safety/report/<name>/), muting one (/safety/mute/<name>/), and the moderators'
pages (/safety/moderation/)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from games.errors import GameError, NotFound, RateLimited
from infra.params import next_or, query_id
from safety import services
from safety.forms import ReportForm


def _status(exc: GameError) -> int:
    return 404 if isinstance(exc, NotFound) else 429 if isinstance(exc, RateLimited) else 400


@login_required
def report(request: HttpRequest, username: str) -> HttpResponse:
    """The form (GET: ``?message=`` or ``?game=`` says what the report is about) and its sending."""
    try:
        player = services.player_named(username)
    except NotFound as exc:
        raise Http404(exc.message) from None
    profile = reverse("players:profile", args=[player.username])
    if request.method == "POST":
        form = ReportForm(request.POST, player=player.username)
        if form.is_valid():
            data = form.cleaned_data
            try:
                _made, new = services.report(
                    reporter=request.user,
                    username=player.username,
                    reason=data["reason"],
                    text=data["text"],
                    message_id=data["message"],
                    game_id=data["game"],
                )
            except GameError as exc:
                form.add_error(None, exc.message)
                return _page(request, form, player, status=_status(exc))
            if new:
                messages.success(
                    request,
                    _(
                        "Thank you: a moderator will read your report. "
                        "You will not be seated with %(name)s again."
                    )
                    % {"name": player.username},
                )
            else:
                messages.info(request, _("You reported this already; a moderator will read it."))
            return next_or(request, profile)
        return _page(request, form, player, status=400)
    subject = {"message_id": query_id(request, "message"), "game_id": query_id(request, "game")}
    try:
        _key, message, game = services.subject(request.user, player, **subject)
    except GameError as exc:
        raise Http404(exc.message) if isinstance(exc, NotFound) else BadRequest(exc.message) from None
    initial = {
        "message": message and message.pk,
        "game": game and game.pk,
        "next": request.GET.get("next", "")[:200],
        "reason": "chat" if message else None,
    }
    return _page(request, ReportForm(initial=initial, player=player.username), player, message, game)


def _page(request, form, player, message=None, game=None, status: int = 200) -> HttpResponse:
    context = {"form": form, "player": player, "message": message, "game": game}
    return render(request, "safety/report.html", context, status=status)
