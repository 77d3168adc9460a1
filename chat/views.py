"""A group's chat on its page: posting (a plain form: it works without JavaScript) and taking a message
down (its author, or the group's creator). The page hears of new messages through the notices socket."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from chat import services
from games.errors import Forbidden, GameError, NotFound, RateLimited


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
    script = request.get_preferred_type(["text/html", "application/json"]) == "application/json"
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
