"""A group's chat on its page: posting (a plain form: it works without JavaScript) and taking a message
down (its author, or the group's creator). The page hears of new messages through the notices socket."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from chat import services
from games.errors import BadRequest, Forbidden, GameError, NotFound, RateLimited
from infra.params import next_or


def _refusal(exc: GameError) -> JsonResponse:
    """A refused message, as the page's script reads it (static/js/group-chat.js): the sentence goes
    beside the chat's input; writing too fast says how long to wait, in the body and in Retry-After."""
    body = {"code": exc.code, "error": exc.message}
    if isinstance(exc, RateLimited):
        response = JsonResponse({**body, "retry_after": exc.retry_after}, status=429)
        response["Retry-After"] = str(exc.retry_after)
        return response
    status = 403 if isinstance(exc, Forbidden) else 404 if isinstance(exc, NotFound) else 400
    return JsonResponse(body, status=status)


@login_required
@require_POST
def post(request: HttpRequest, group_id: int) -> HttpResponse:
    # The page's script asks for JSON, to keep the text and say why beside the input; the plain form
    # (no script) gets the page again, with the refusal at its top.
    script = _wants_json(request)
    try:
        message = services.post_to_group(
            group_id=group_id, user=request.user, text=request.POST.get("text", "")
        )
    except GameError as exc:
        if script:
            return _refusal(exc)
        messages.error(request, exc.message)
    else:
        if script:
            return JsonResponse({"message": message.as_dict()}, status=201)
    return redirect(f"/groups/{group_id}/#chat")


@login_required
@require_POST
def remove(request: HttpRequest, group_id: int, message_id: int) -> HttpResponse:
    try:
        services.remove_from_group(group_id=group_id, user=request.user, message_id=message_id)
    except GameError as exc:
        messages.error(request, exc.message)
    return redirect(f"/groups/{group_id}/#chat")


def _wants_json(request: HttpRequest) -> bool:
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


@login_required
@require_POST
def mute(request: HttpRequest, username: str) -> HttpResponse:
    """Mute (``action=mute``) or unmute (``action=unmute``) a player's chat, for oneself; the game
    page's script asks for JSON, a profile's form goes back to ``next``."""
    action = request.POST.get("action", "mute")
    try:
        if action == "unmute":
            services.unmute(user=request.user, username=username)
            said = _("You read %(name)s's chat again.")
        elif action == "mute":
            services.mute(user=request.user, username=username)
            said = _("You no longer read %(name)s's chat, at any table or in any group.")
        else:
            raise BadRequest(_("Mute or unmute."))
    except GameError as exc:
        if _wants_json(request):
            return _refusal(exc)
        messages.error(request, exc.message)
    else:
        said = said % {"name": username}
        if _wants_json(request):
            return JsonResponse({"user": username, "muted": action == "mute", "said": said})
        messages.success(request, said)
    return next_or(request, reverse("players:profile", args=[username]))


@login_required
@require_POST
def table_chat(request: HttpRequest, game_id: int) -> HttpResponse:
    """Turn a table's chat off (``action=off``) or on again (``action=on``) for oneself."""
    action = request.POST.get("action", "off")
    try:
        if action not in ("on", "off"):
            raise BadRequest(_("Turn the chat on or off."))
        services.table_chat(game_id=game_id, user=request.user, on=action == "on")
    except GameError as exc:
        if _wants_json(request):
            return _refusal(exc)
        messages.error(request, exc.message)
    else:
        if _wants_json(request):
            return JsonResponse({"game": game_id, "chat": action})
    return redirect("games:detail", game_id=game_id)
