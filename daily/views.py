"""The daily challenge's pages: a day's page (today's at /daily/, an earlier one at /daily/<date>/) and
the Play button of each kind (docs/daily.md)."""

from __future__ import annotations

from datetime import date, timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from daily import days, seeds, selectors, services
from daily.forms import PlayForm
from daily.models import Day
from daily.selectors import FINISHED, KindPart
from games.errors import GameError
from games.i18n import number


@login_required
def today_page(request: HttpRequest) -> HttpResponse:
    return _page(request, days.today())


@login_required
def day_page(request: HttpRequest, day: date) -> HttpResponse:
    """An earlier day's page (today's too); a day to come, or one nobody asked for, is no page."""
    return _page(request, day)


def _page(request: HttpRequest, day: date) -> HttpResponse:
    today = days.today()
    tomorrow = None
    if day == today:
        # Created on demand: today's seed, and tomorrow's, committed before its day begins.
        row = services.day_get(day=today)
        tomorrow = services.day_get(day=today + timedelta(days=1))
    else:
        row = Day.objects.filter(date=day).first() if day < today else None
        if row is None:
            raise Http404("No daily challenge that day.")
    parts = selectors.day_parts(user=request.user, day=row, today=today)
    url = request.build_absolute_uri(reverse("daily:day", args=[row.date]))
    for part in parts:
        part.share = share_text(part, row.date) if part.mine and part.mine.status == FINISHED else ""
    return render(
        request,
        "daily/day.html",
        {
            "day": row,
            "is_today": day == today,
            "today": today,
            "tomorrow": tomorrow,
            "parts": parts,
            "share_url": url,
            "earlier": selectors.earlier_days(row.date),
            # The next day anyone asked for, or today's challenge.
            "next_day": selectors.later_day(row.date, today) or (today if row.date < today else None),
            "example_seed": seeds.client_seed(row.date, parts[0].slug) if parts else "",
        },
    )


def share_text(part: KindPart, day: date) -> str:
    """The player's result to pass on, without a die: "DiceHall daily 2026-12-06, Triple Quintzee: 412
    points, grade A" (the page adds its link)."""
    mine = part.mine
    result = ngettext("%(score)s point", "%(score)s points", mine.score) % {"score": number(mine.score)}
    if part.uses_laps and mine.laps:
        result = ngettext("%(points)s in %(laps)s lap", "%(points)s in %(laps)s laps", mine.laps) % {
            "points": result,
            "laps": number(mine.laps),
        }
    if mine.grade:
        result = _("%(result)s, grade %(grade)s") % {"result": result, "grade": mine.grade}
    return _("DiceHall daily %(date)s, %(game)s: %(result)s") % {
        "date": day.isoformat(),
        "game": part.name,
        "result": result,
    }


@login_required
@require_POST
def play(request: HttpRequest) -> HttpResponse:
    """Today's game of the kind posted: a new one, or the one being played (a double click)."""
    form = PlayForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("There is no such game in the daily challenge."))
        return redirect("daily:today")
    try:
        game = services.attempt_start(user=request.user, kind=form.cleaned_data["kind"])
    except GameError as exc:
        messages.error(request, exc.message)
        return redirect("daily:today")
    return redirect("games:detail", game_id=game.pk)
