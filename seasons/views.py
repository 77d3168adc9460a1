"""A group's season pages: the creator's form to open one, a season's page with its table, and the
creator's end and delete. As on the group's pages, an outsider learns nothing (404) and a member who
is not the creator is told that only the creator manages (403)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.errors import Forbidden, GameError, NotFound
from groups.models import Group, Membership
from seasons import closing, selectors, services
from seasons.forms import SeasonForm


def _member_group(request: HttpRequest, group_id: int) -> Group:
    """The group, for one of its members; for anyone else no such group (404), as groups' pages say."""
    group = get_object_or_404(Group.objects.select_related("creator"), pk=group_id)
    if not Membership.objects.filter(group=group, user=request.user).exists():
        raise Http404("No such group.")
    return group


def _denied(request: HttpRequest, group: Group) -> HttpResponse:
    return render(request, "groups/outside.html", {"group": group}, status=403)


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, group_id: int) -> HttpResponse:
    group = _member_group(request, group_id)
    if group.creator_id != request.user.pk:
        return _denied(request, group)
    today = timezone.localdate()
    form = SeasonForm(request.POST or None, initial={"first_day": today})
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_open(group_id=group.pk, user=request.user, **form.cleaned_data)
        except Forbidden:
            return _denied(request, group)
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _("The season is open. The members have been told."))
            return redirect("seasons:detail", group_id=group.pk, number=season.number)
    status = 400 if request.method == "POST" else 200
    return render(request, "seasons/new.html", {"group": group, "form": form}, status=status)


@login_required
def season_detail(request: HttpRequest, group_id: int, number: int) -> HttpResponse:
    group = _member_group(request, group_id)
    closing.close_due(group_id=group.pk)
    season = selectors.season_of(group.pk, number)
    if season is None:
        raise Http404("No such season.")
    context = {
        "group": group,
        "shown": selectors.shown(season),
        "games": selectors.recent_games(season),
        "is_creator": group.creator_id == request.user.pk,
    }
    return render(request, "seasons/detail.html", context)


def _act(request: HttpRequest, group_id: int, number: int, call, ok: str, done: str) -> HttpResponse:
    """Run a season service for the creator: then ``done`` (a URL name); refused, the season's page
    with why; a season that is not there, 404."""
    group = _member_group(request, group_id)
    try:
        call(group_id=group.pk, number=number, user=request.user)
    except Forbidden:
        return _denied(request, group)
    except NotFound:
        raise Http404("No such season.") from None
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("seasons:detail", group_id=group.pk, number=number)
    messages.success(request, ok)
    if done == "groups:detail":
        return redirect(done, group_id=group.pk)
    return redirect(done, group_id=group.pk, number=number)


@login_required
@require_POST
def season_end(request: HttpRequest, group_id: int, number: int) -> HttpResponse:
    ok = _("The season is over: its table is final.")
    return _act(request, group_id, number, services.season_end, ok, "seasons:detail")


@login_required
@require_POST
def season_delete(request: HttpRequest, group_id: int, number: int) -> HttpResponse:
    return _act(
        request, group_id, number, services.season_delete, _("The season is deleted."), "groups:detail"
    )
