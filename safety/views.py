"""Reporting a player (/safety/report/<name>/), muting one (/safety/mute/<name>/), and the moderators'
pages (/safety/moderation/, the fair-play screen at /safety/screening/)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest, PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from games import catalogue
from games.errors import Forbidden, GameError, NotFound, RateLimited
from infra.params import next_or, query_id
from safety import services
from safety.forms import DecisionForm, ReportForm


def _status(exc: GameError) -> int:
    if isinstance(exc, Forbidden):
        return 403
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


def _moderator(request: HttpRequest) -> None:
    if not services.is_moderator(request.user):
        raise PermissionDenied("Moderators only.")


@login_required
def moderation(request: HttpRequest) -> HttpResponse:
    """The moderators' list: the players with open reports, the most reported first."""
    _moderator(request)
    return render(request, "safety/moderation.html", {"players": services.reported_players()})


@login_required
def moderation_player(request: HttpRequest, username: str) -> HttpResponse:
    """One player's reports, with the messages and games in question, the decisions about them, and
    the form that decides (POST)."""
    _moderator(request)
    try:
        file = services.player_file(username)
    except NotFound as exc:
        raise Http404(exc.message) from None
    form = DecisionForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.decide(
                    moderator=request.user,
                    username=username,
                    kind=data["kind"],
                    reason=data["reason"],
                    hours=data["hours"],
                )
            except GameError as exc:
                form.add_error(None, exc.message)
                status = _status(exc)
            else:
                messages.success(request, _("Decided and logged; %(name)s is told.") % {"name": username})
                return redirect("safety:moderation_player", username=username)
        else:
            status = 400
    return render(request, "safety/player.html", {**file, "form": form}, status=status)


@login_required
def screening(request: HttpRequest) -> HttpResponse:
    """The fair-play screen: the people whose rated play is far closer to the expert's than their
    rating band's (``?kind=`` one game's only), for a moderator to look into. Nothing is done to them."""
    _moderator(request)
    kind = request.GET.get("kind", "")
    slugs = {k.slug: k.family_name for k in catalogue.kinds()}
    if kind and kind not in slugs:
        raise BadRequest("Unknown game.")
    found = services.screened_players(kind=kind or None)
    listed = [
        {
            "s": s,
            "game": slugs.get(s.record.kind, s.record.kind),
            "share": round(100 * s.record.share),
            "share_median": round(100 * s.share_median),
        }
        for s in found["listed"]
    ]
    context = {**found, "listed": listed, "kind": kind, "kinds": sorted(slugs.items())}
    return render(request, "safety/screening.html", context)
