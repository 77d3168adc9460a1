"""A group's chat on its page: posting (a plain form: it works without JavaScript) and taking a message
down (its author, or the group's creator). The page hears of new messages through the notices socket."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from chat import services
from games.errors import GameError


@login_required
@require_POST
def post(request: HttpRequest, group_id: int) -> HttpResponse:
    try:
        services.post_to_group(group_id=group_id, user=request.user, text=request.POST.get("text", ""))
    except GameError as exc:
        messages.error(request, exc.message)
    return redirect(f"/groups/{group_id}/#chat")


@login_required
@require_POST
def remove(request: HttpRequest, group_id: int, message_id: int) -> HttpResponse:
    try:
        services.remove_from_group(group_id=group_id, user=request.user, message_id=message_id)
    except GameError as exc:
        messages.error(request, exc.message)
    return redirect(f"/groups/{group_id}/#chat")
