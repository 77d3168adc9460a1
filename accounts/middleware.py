"""A signed-in player's language (accounts.User.language) over the one LocaleMiddleware took from the
language cookie or the browser, so that the site speaks to a player the same on every device."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


class PlayerLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        chosen = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
        if chosen and chosen != request.LANGUAGE_CODE:
            translation.activate(chosen)
            request.LANGUAGE_CODE = chosen
        return self.get_response(request)
