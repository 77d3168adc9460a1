"""Play someone now (/play/): the form, the waiting page, leaving; and blocking a player."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import fair_seeds
from games.errors import GameError
from infra.params import next_or
from pairing import services
from pairing.forms import SeekForm


@login_required
def now_page(request: HttpRequest) -> HttpResponse:
    kind = request.GET.get("kind")
    return _page(request, SeekForm(initial={"kind": kind} if kind else None))


def _page(request: HttpRequest, form: SeekForm, status: int = 200) -> HttpResponse:
    seek = services.waiting_seek(request.user)
    context = {
        "form": form,
        "seek": seek,
        "state": services.queue_state(request.user) if seek is not None else None,
        "lapsed": seek is None and services.lapsed_lately(request.user),
        "blocked": services.blocked_names(request.user),
        "fair_commitment": fair_seeds.next_commitment(request),
    }
    return render(request, "pairing/now.html", context, status=status)


@login_required
@require_POST
def now_ask(request: HttpRequest) -> HttpResponse:
    form = SeekForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    pace, days = form.pace_and_days()
    seed_ref, client_seed = fair_seeds.from_form(request)
    try:
        seek = services.seek_create(
            user=request.user,
            kind=form.cleaned_data["kind"],
            options=form.engine_options(),
            seats=form.cleaned_data["seats"],
            pace=pace,
            days=days,
            computers_after=form.cleaned_data["computers_after"],
            seed_ref=seed_ref,
            client_seed=client_seed,
        )
    except fair_seeds.CommitmentUsed as exc:
        # Said at the top of the page; the page shows a new commitment.
        messages.error(request, exc.message)
        return _page(request, form, status=409)
    except GameError as exc:
        form.add_error(None, exc.message)
        return _page(request, form, status=400)
    if seek.game_id is not None:
        return redirect("games:detail", game_id=seek.game_id)
    return redirect("pairing:now")


@login_required
@require_POST
def now_leave(request: HttpRequest) -> HttpResponse:
    services.seek_leave(user=request.user)
    messages.success(request, _("You left the queue."))
    return redirect("pairing:now")


@login_required
@require_POST
def block(request: HttpRequest, username: str) -> HttpResponse:
    """Block (``action=block``) or unblock (``action=unblock``) a player; back to where the form was."""
    action = request.POST.get("action", "block")
    try:
        if action == "unblock":
            services.unblock_player(user=request.user, username=username)
            messages.success(request, _("%(name)s is no longer blocked.") % {"name": username})
        else:
            services.block_player(user=request.user, username=username)
            messages.success(request, _("You will not be seated with %(name)s again.") % {"name": username})
    except GameError as exc:
        messages.error(request, exc.message)
    return next_or(request, "pairing:now")
