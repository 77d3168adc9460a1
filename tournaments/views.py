"""Tournament pages: the creator's form to announce one, a tournament's page, and the buttons to enter,
leave, start now and cancel. A group's outsiders learn nothing: every page answers 404 to them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import Forbidden, GameError
from groups.models import Group
from tournaments import rounds as running
from tournaments import selectors, services
from tournaments.forms import TournamentForm


def _group_of_member(request: HttpRequest, group_id: int) -> Group:
    group = Group.objects.select_related("creator").filter(pk=group_id).first()
    if group is None or not running.is_member(group.pk, request.user.pk):
        raise Http404("No such group.")
    return group


# Tournament.number is an integer column: a bigger number (which the <id:> converter lets through) is
# no tournament's.
LARGEST_NUMBER = 2**31 - 1


def _tournament(request: HttpRequest, group_id: int, number: int):
    group = _group_of_member(request, group_id)
    tournament = selectors.tournament_of(group.pk, number) if number <= LARGEST_NUMBER else None
    if tournament is None:
        raise Http404("No such tournament.")
    return tournament


def _only_the_creator(request: HttpRequest, group: Group) -> HttpResponse:
    return render(request, "groups/outside.html", {"group": group}, status=403)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest, group_id: int) -> HttpResponse:
    group = _group_of_member(request, group_id)
    if group.creator_id != request.user.pk:
        return _only_the_creator(request, group)
    form = TournamentForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                tournament = services.tournament_create(
                    group_id=group.pk, user=request.user, **form.service_arguments()
                )
            except GameError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, _("Tournament announced: members may enter now."))
                return redirect(tournament.get_absolute_url())
        status = 400
    return render(request, "tournaments/new.html", {"group": group, "form": form}, status=status)


@login_required
def tournament_detail(request: HttpRequest, group_id: int, number: int) -> HttpResponse:
    tournament = _tournament(request, group_id, number)
    context = selectors.tournament_page(tournament, request.user)
    context.update(group=tournament.group, is_creator=tournament.group.creator_id == request.user.pk)
    return render(request, "tournaments/detail.html", context)


def _act(request: HttpRequest, group_id: int, number: int, call, ok: str) -> HttpResponse:
    tournament = _tournament(request, group_id, number)
    try:
        call(tournament_id=tournament.pk, user=request.user)
    except Forbidden:
        return _only_the_creator(request, tournament.group)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, ok)
    return redirect(tournament.get_absolute_url())


@login_required
@require_POST
def tournament_enter(request: HttpRequest, group_id: int, number: int) -> HttpResponse:
    return _act(request, group_id, number, services.tournament_enter, _("You entered the tournament."))


@login_required
@require_POST
def tournament_leave(request: HttpRequest, group_id: int, number: int) -> HttpResponse:
    return _act(request, group_id, number, services.tournament_leave, _("You left the tournament."))


@login_required
@require_POST
def tournament_start(request: HttpRequest, group_id: int, number: int) -> HttpResponse:
    return _act(
        request, group_id, number, services.tournament_start_now, _("The tournament has started: round 1.")
    )


@login_required
@require_POST
def tournament_cancel(request: HttpRequest, group_id: int, number: int) -> HttpResponse:
    return _act(request, group_id, number, services.tournament_cancel, _("The tournament is cancelled."))
