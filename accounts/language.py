"""The language a websocket speaks to its reader, as pages choose it (accounts.middleware): the
player's own, else the language cookie, else the browser's Accept-Language, else English."""

from __future__ import annotations

from http.cookies import SimpleCookie

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header


def _supported(code: str | None) -> str | None:
    if not code:
        return None
    try:
        return get_supported_language_variant(code)
    except LookupError:
        return None


def scope_language(scope: dict) -> str:
    user = scope.get("user")
    chosen = _supported(getattr(user, "language", "") if user is not None and user.is_authenticated else "")
    if chosen:
        return chosen
    headers = {
        name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", [])
    }
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:  # noqa: BLE001 - a malformed cookie header is the browser's, not ours to fail on
        cookie = SimpleCookie()
    morsel = cookie.get(settings.LANGUAGE_COOKIE_NAME)
    chosen = _supported(morsel.value if morsel else None)
    if chosen:
        return chosen
    for code, _quality in parse_accept_lang_header(headers.get("accept-language", "")):
        chosen = _supported(code) if code != "*" else None
        if chosen:
            return chosen
    return translation.get_supported_language_variant(settings.LANGUAGE_CODE)
